package io.tileseeder.adapters.redis;

import io.tileseeder.port.UpstreamPermits;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.redisson.api.RBucket;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisTimeoutException;
import org.redisson.client.codec.StringCodec;

/**
 * Upstream permits shared by all pods through Redis: one Redisson expirable semaphore per upstream and limit, under
 * the key {@code keyPrefix + upstream + "/" + limit}. Each permit is leased: a pod killed with permits out gives them
 * back when their lease ends, without anyone's help.
 *
 * <ul>
 *   <li><b>The limit is in the key.</b> A semaphore's count is set once, when it is first used; pods that ask with
 *       another limit (a rolling update that changes the setting) use another semaphore, so no pod ever changes the
 *       count under the feet of another.</li>
 *   <li><b>Without Redis, this pod alone.</b> When Redis cannot serve, a permit is granted at once, so the caller's
 *       own per-pod limit is all that holds (its local share), and this is logged once, when it begins and when it
 *       ends. Redis is asked again {@link #RETRY_REDIS} later.</li>
 *   <li><b>Holds.</b> An upstream that asked to be left alone ({@code Retry-After}) is held off for every pod:
 *       the hold's end is a key of its own that expires with it, read once a second per upstream by each pod.</li>
 *   <li><b>Waiting.</b> A caller waits in slices of {@link #WAIT_SLICE}, asking Redis again after each, so a Redis
 *       that stops answering mid-wait is noticed within a slice; it is woken sooner when a permit is given back.
 *       After a slice without a permit the count is set again if the key is gone (a Redis restarted without its
 *       data), so nobody waits on a semaphore that no longer exists.</li>
 * </ul>
 *
 * <p>The {@link RedissonClient} belongs to the caller, who shuts it down; this class never does.
 */
public final class RedisUpstreamPermits implements UpstreamPermits {

    private static final Logger LOG = Logger.getLogger(RedisUpstreamPermits.class.getName());
    /** How long one try to take a permit waits in Redis before it tries again. */
    static final Duration WAIT_SLICE = Duration.ofSeconds(1);
    /** How long a pod that found Redis unable to serve holds to its local share before it asks Redis again. */
    static final Duration RETRY_REDIS = Duration.ofSeconds(5);
    /** How often a pod asks Redis whether an upstream is held off. */
    static final Duration HOLD_CHECK = Duration.ofSeconds(1);
    /** How long, beyond a wait slice, a try waits for Redis to answer before Redis counts as unable to serve. */
    static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(5);

    private final RedissonClient redisson;
    private final String keyPrefix;
    private final Clock clock;
    private final Map<String, RPermitExpirableSemaphore> semaphores = new ConcurrentHashMap<>();
    private final Map<String, Known> holds = new ConcurrentHashMap<>();
    private final AtomicBoolean probing = new AtomicBoolean();
    private volatile Instant localUntil = Instant.MIN;
    private volatile boolean local;

    /**
     * @param keyPrefix prepended to {@code upstream/limit} to form each semaphore's Redis key
     */
    public RedisUpstreamPermits(RedissonClient redisson, String keyPrefix, Clock clock) {
        this.redisson = Objects.requireNonNull(redisson, "redisson");
        this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The Redis key of the semaphore for {@code upstream} at {@code limit}. */
    public String redisKey(String upstream, int limit) {
        return keyPrefix + upstream + "/" + limit;
    }

    /** Whether this pod holds to its local share now, Redis having failed to serve. */
    public boolean local() {
        return local;
    }

    /**
     * {@inheritDoc}
     *
     * @throws InterruptedException if the thread is interrupted before or while waiting; a permit the abandoned
     *                              attempt takes afterwards is given back at once
     * @throws IllegalStateException if Redis fails otherwise than by being unable to serve (a bug, a configuration)
     */
    @Override
    public Permit acquire(String upstream, int limit, Duration lease) throws InterruptedException {
        if (limit < 1) {
            throw new IllegalArgumentException("an upstream limit must be at least 1, not " + limit);
        }
        long leaseMillis = Math.max(1, lease.toMillis());
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for a permit for " + upstream);
            }
            // While this pod holds to its own limit, one caller at a time asks Redis whether it serves again; the
            // others do not wait for its answer.
            boolean probe = false;
            if (clock.instant().isBefore(localUntil) || local && !(probe = probing.compareAndSet(false, true))) {
                return () -> {
                };
            }
            try {
                Duration held = heldFor(upstream);
                if (held.isPositive()) {
                    Thread.sleep(held);
                    continue;
                }
                RPermitExpirableSemaphore semaphore = semaphore(upstream, limit);
                long asked = System.nanoTime();
                String id = tryAcquire(semaphore, leaseMillis);
                if (local) {
                    local = false;
                    LOG.info("Redis serves again: requests to upstreams are limited across the cluster again");
                }
                if (id != null) {
                    return release(semaphore, id, upstream);
                }
                // A Redis that restarted without its data has no semaphore left, and would keep every caller
                // waiting: a new one with the whole count (those leased before are gone with it).
                semaphore.trySetPermits(limit);
                long early = WAIT_SLICE.toNanos() - (System.nanoTime() - asked);
                if (early > 0) {
                    // The wait ended before its slice without a permit (Redisson could not subscribe to the
                    // semaphore's releases): wait out the slice rather than ask Redis again at once.
                    Thread.sleep(Duration.ofNanos(early));
                }
            } catch (RuntimeException e) {
                if (interrupted(e)) {
                    // Redisson's blocking calls answer an interrupt so, the flag set again.
                    Thread.interrupted();
                    throw new InterruptedException("interrupted while asking Redis for a permit for " + upstream);
                }
                if (!RedisFailures.unavailable(e)) {
                    throw new IllegalStateException("Redis refused a permit for " + upstream + ": "
                            + RedisFailures.describe(e), e);
                }
                holdLocally(upstream, e);
            } finally {
                if (probe) {
                    probing.set(false);
                }
            }
        }
    }

    /** How long the hold on {@code upstream} lasts from now, zero if there is none. */
    private Duration heldFor(String upstream) {
        Instant now = clock.instant();
        return hold(upstream).map(held -> Duration.between(now, held.until())).orElse(Duration.ZERO);
    }

    /**
     * {@inheritDoc} As Redis said at most {@link #HOLD_CHECK} ago: asked once per upstream per {@link #HOLD_CHECK},
     * not for every permit.
     */
    @Override
    public Optional<Hold> hold(String upstream) {
        long now = System.nanoTime();
        Known known = holds.get(upstream);
        if (known == null || now - known.checked() > HOLD_CHECK.toNanos()) {
            known = new Known(now, parse(redisson.<String>getBucket(holdKey(upstream), StringCodec.INSTANCE).get()));
            holds.put(upstream, known);
        }
        Instant at = clock.instant();
        return known.hold().filter(held -> held.until().isAfter(at));
    }

    /** A hold as Redis keeps it: its end and its start in epoch milliseconds, then the reason. */
    private static String format(Hold hold) {
        return hold.until().toEpochMilli() + " " + hold.since().toEpochMilli() + " " + hold.reason();
    }

    private static Optional<Hold> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        String[] parts = value.split(" ", 3);
        try {
            return Optional.of(new Hold(Instant.ofEpochMilli(Long.parseLong(parts[0])),
                    Instant.ofEpochMilli(Long.parseLong(parts[1])), parts.length > 2 ? parts[2] : ""));
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            return Optional.empty();
        }
    }

    /** The hold on an upstream as Redis told it at {@code checked} ({@link System#nanoTime}). */
    private record Known(long checked, Optional<Hold> hold) {
    }

    /** The Redis key of the hold on {@code upstream}, for every limit. */
    public String holdKey(String upstream) {
        return keyPrefix + upstream + "/hold";
    }

    /**
     * {@inheritDoc} In Redis, under {@link #holdKey}, expiring when the hold ends; a pod learns of it within
     * {@link #HOLD_CHECK}, this one at once. A Redis that cannot serve leaves the hold to this pod alone.
     */
    @Override
    public void holdOff(String upstream, Instant until, String reason) {
        Instant now = clock.instant();
        if (!until.isAfter(now)) {
            return;
        }
        Hold asked = new Hold(until, now, reason);
        Known mine = holds.get(upstream);
        Hold held = merge(mine == null ? Optional.empty() : mine.hold(), asked, now);
        holds.put(upstream, new Known(System.nanoTime(), Optional.of(held)));
        try {
            RBucket<String> bucket = redisson.getBucket(holdKey(upstream), StringCodec.INSTANCE);
            Hold merged = merge(parse(bucket.get()), asked, now);
            bucket.set(format(merged), Duration.between(now, merged.until()));
        } catch (RuntimeException e) {
            if (!RedisFailures.unavailable(e)) {
                throw new IllegalStateException("Redis refused the hold on " + upstream + ": "
                        + RedisFailures.describe(e), e);
            }
            LOG.fine(() -> "the hold on " + upstream + " stays with this pod: " + RedisFailures.describe(e));
        }
    }

    /** {@code asked} after {@code earlier}: the later end, the earlier start if it had not ended, the new reason. */
    private static Hold merge(Optional<Hold> earlier, Hold asked, Instant now) {
        return earlier.filter(held -> held.until().isAfter(now))
                .map(held -> new Hold(held.until().isAfter(asked.until()) ? held.until() : asked.until(),
                        held.since(), asked.reason()))
                .orElse(asked);
    }

    private static boolean interrupted(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof InterruptedException) {
                return true;
            }
        }
        return false;
    }

    /**
     * One wait of at most {@link #WAIT_SLICE} for a permit: its id, or null if none came. Interrupted, or without an
     * answer from Redis in time, the attempt is abandoned and a permit it takes afterwards given back.
     */
    private String tryAcquire(RPermitExpirableSemaphore semaphore, long leaseMillis) throws InterruptedException {
        CompletableFuture<String> attempt = semaphore.tryAcquireAsync(WAIT_SLICE.toMillis(), leaseMillis,
                TimeUnit.MILLISECONDS).toCompletableFuture();
        try {
            return attempt.get(WAIT_SLICE.plus(RESPONSE_TIMEOUT).toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            abandon(attempt, semaphore);
            throw e;
        } catch (TimeoutException e) {
            abandon(attempt, semaphore);
            throw new RedisTimeoutException("Redis did not answer within " + RESPONSE_TIMEOUT
                    + " beyond the wait for a permit of " + semaphore.getName());
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        }
    }

    /**
     * Gives up an attempt nobody waits for any more: it is left to end (within its wait slice), and the permit it
     * takes, if it takes one, is given back at once.
     */
    private static void abandon(CompletableFuture<String> attempt, RPermitExpirableSemaphore semaphore) {
        attempt.thenAccept(id -> {
            if (id != null) {
                semaphore.tryReleaseAsync(id);
            }
        });
    }

    private RPermitExpirableSemaphore semaphore(String upstream, int limit) {
        String key = redisKey(upstream, limit);
        RPermitExpirableSemaphore known = semaphores.get(key);
        if (known != null) {
            return known;
        }
        RPermitExpirableSemaphore semaphore = redisson.getPermitExpirableSemaphore(key);
        semaphore.trySetPermits(limit);
        semaphores.put(key, semaphore);
        return semaphore;
    }

    private void holdLocally(String upstream, RuntimeException failure) {
        localUntil = clock.instant().plus(RETRY_REDIS);
        if (!local) {
            local = true;
            LOG.log(Level.WARNING, "Redis cannot serve (" + RedisFailures.describe(failure) + "): requests to "
                    + upstream + " and every other upstream are held to this pod's own limit until it can");
        }
    }

    /**
     * Gives the permit back; a Redis that cannot take it back now leaves it to its lease, which then ends it (the
     * request it counted is over either way).
     */
    private static Permit release(RPermitExpirableSemaphore semaphore, String id, String upstream) {
        return () -> {
            try {
                semaphore.tryRelease(id);
            } catch (RuntimeException e) {
                LOG.fine(() -> "a permit for " + upstream + " is left to its lease: " + RedisFailures.describe(e));
            }
        };
    }
}
