package io.tileseeder.adapters.redis;

import io.tileseeder.port.DependencyUnavailableException;
import io.tileseeder.port.MetatileLock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Metatile locks shared by all pods through Redis: one Redisson lock per metatile, under the Redis key
 * {@code keyPrefix + metatileKey}.
 *
 * <ul>
 *   <li><b>One level.</b> Each metatile has its own lock; nothing here nests or stripes locks.</li>
 *   <li><b>Bounded wait.</b> {@link #tryLock} waits at most the given time (plus, only if Redis does not
 *       answer, a bounded response timeout, after which it fails rather than hang).</li>
 *   <li><b>Lease with a watchdog.</b> Locks are taken without a lease time, so Redisson's watchdog keeps
 *       them: the key expires {@code lockWatchdogTimeout} after it was last renewed, and the client renews
 *       it every third of that while the lease is open. A pod that dies stops renewing, so its locks free
 *       themselves within one watchdog timeout. The timeout is a setting of the {@link RedissonClient}
 *       ({@link Config#setLockWatchdogTimeout}), not of each lock; {@link RedisTopology#connect} sets it.</li>
 *   <li><b>Owner is the lease, not the thread.</b> Redisson's {@link RLock} belongs to a thread id by
 *       default, but the worker takes a lock on one thread and releases it on another. Every lease therefore
 *       locks, is renewed by the watchdog, and unlocks under its own id (a negative number, so it can never
 *       equal a real thread's id on a client that also holds thread-owned locks). As a side effect two
 *       leases on one thread exclude each other: Redisson's re-entrancy never applies.</li>
 * </ul>
 *
 * <p>The {@link RedissonClient} belongs to the caller, who shuts it down; this class never does.
 */
public final class RedissonMetatileLock implements MetatileLock {

    private static final Logger LOG = Logger.getLogger(RedissonMetatileLock.class.getName());

    /**
     * How long, beyond the lock wait, {@link #tryLock} waits for Redis to answer before it fails. Redisson
     * fails its own commands sooner (3 s response timeout, a few retries by default); this is a backstop.
     */
    public static final Duration DEFAULT_RESPONSE_TIMEOUT = Duration.ofSeconds(30);

    /**
     * The watchdog timeout {@link #connect(String)} uses: Redisson's own default, 30 s. A dead pod's metatiles
     * stay locked at most that long, which costs little (a worker that cannot get a lock within its short
     * lock wait gives the task back to the queue, which redelivers it later); a live pod's lease survives
     * about 20 s of failed renewals (renewal every 10 s) — a long GC pause, a Redis failover — before two
     * pods could render the same metatile. Shorter saves little after a crash and risks that more often.
     */
    public static final Duration DEFAULT_WATCHDOG_TIMEOUT = Duration.ofSeconds(30);

    /** Lease ids, unique in this JVM; negative so they never collide with thread ids. */
    private static final AtomicLong LEASE_IDS = new AtomicLong();

    private final RedissonClient redisson;
    private final String keyPrefix;
    private final Duration responseTimeout;

    /**
     * @param redisson        the client; its lock watchdog timeout is the lease time of the locks
     * @param keyPrefix       prepended to each metatile key to form the Redis key
     * @param responseTimeout how long beyond the lock wait to wait for Redis before failing
     */
    public RedissonMetatileLock(RedissonClient redisson, String keyPrefix, Duration responseTimeout) {
        this.redisson = Objects.requireNonNull(redisson, "redisson");
        this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix");
        this.responseTimeout = Objects.requireNonNull(responseTimeout, "responseTimeout");
        if (responseTimeout.isNegative() || responseTimeout.isZero()) {
            throw new IllegalArgumentException("responseTimeout must be positive: " + responseTimeout);
        }
    }

    /** A client for one Redis server with Redisson's default watchdog timeout (30 s); the caller shuts it down. */
    public static RedissonClient connect(String redisUrl) {
        return connect(redisUrl, DEFAULT_WATCHDOG_TIMEOUT);
    }

    /**
     * A client for one Redis server; the caller shuts it down. {@link RedisTopology#connect} also reaches
     * Sentinel and Cluster deployments.
     *
     * @param redisUrl        {@code redis://[[user]:password@]host[:port][/database]}, or {@code rediss://} for TLS
     * @param watchdogTimeout the lease of a lock whose holder stops renewing it (dead pod)
     */
    public static RedissonClient connect(String redisUrl, Duration watchdogTimeout) {
        return RedisTopology.standalone(redisUrl).connect(watchdogTimeout);
    }

    /** The Redis key of a metatile's lock. */
    public String redisKey(String metatileKey) {
        return keyPrefix + metatileKey;
    }

    /**
     * {@inheritDoc}
     *
     * @throws InterruptedException if the thread is interrupted before or while waiting; a lock the
     *                              abandoned attempt takes afterwards is released at once
     * @throws io.tileseeder.port.DependencyUnavailableException if Redis does not answer or is unavailable
     * @throws IllegalStateException if Redis fails otherwise
     */
    @Override
    public Optional<Lease> tryLock(String metatileKey, Duration wait) throws InterruptedException {
        Objects.requireNonNull(metatileKey, "metatileKey");
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        long waitMillis = Math.max(0, wait.toMillis());
        long leaseId = -LEASE_IDS.incrementAndGet();
        RLock lock = redisson.getLock(redisKey(metatileKey));
        // leaseTime -1: no fixed lease, the watchdog renews the lock under this lease id until it is unlocked.
        CompletableFuture<Boolean> attempt =
                lock.tryLockAsync(waitMillis, -1, TimeUnit.MILLISECONDS, leaseId).toCompletableFuture();
        boolean acquired;
        try {
            acquired = attempt.get(waitMillis + responseTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            abandon(attempt, lock, leaseId);
            throw e;
        } catch (TimeoutException e) {
            abandon(attempt, lock, leaseId);
            throw new DependencyUnavailableException(RedisFailures.REDIS, "Redis did not answer within "
                    + responseTimeout + " beyond the lock wait while locking " + lock.getName(), e);
        } catch (ExecutionException e) {
            IllegalStateException failed = new IllegalStateException("could not lock " + lock.getName() + ": "
                    + e.getCause(), e.getCause());
            throw RedisFailures.classify(failed);
        }
        return acquired ? Optional.of(new RedissonLease(lock, leaseId)) : Optional.empty();
    }

    /** Gives up an attempt we no longer wait for, releasing the lock if the attempt got it anyway. */
    private static void abandon(CompletableFuture<Boolean> attempt, RLock lock, long leaseId) {
        // Redisson releases a lock it gets for an attempt whose future is already done (cancelled); if the
        // attempt finished first, cancel() fails and the lock, if taken, is ours to release.
        if (!attempt.cancel(false)) {
            attempt.thenAccept(got -> {
                if (Boolean.TRUE.equals(got)) {
                    lock.unlockAsync(leaseId);
                }
            });
        }
    }

    private final class RedissonLease implements Lease {
        private final RLock lock;
        private final long leaseId;
        private final AtomicBoolean closed = new AtomicBoolean();

        RedissonLease(RLock lock, long leaseId) {
            this.lock = lock;
            this.leaseId = leaseId;
        }

        /**
         * Unlocks (which also stops the watchdog's renewal of this lease) and waits, boundedly and without
         * giving in to interrupts, for Redis to confirm, so the next holder can take the lock at once. Never
         * throws: a lease that could not be released (Redis unreachable) or was lost meanwhile is logged; its
         * key expires within one watchdog timeout.
         */
        @Override
        public void close() {
            if (!closed.compareAndSet(false, true)) {
                return;
            }
            CompletableFuture<Void> unlock = lock.unlockAsync(leaseId).toCompletableFuture();
            boolean interrupted = false;
            long deadline = System.nanoTime() + responseTimeout.toNanos();
            try {
                while (true) {
                    try {
                        unlock.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                        return;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    } catch (ExecutionException | CancellationException e) {
                        Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
                        if (cause instanceof IllegalMonitorStateException) {
                            LOG.warning("The lock " + lock.getName() + " was no longer this lease's when it was "
                                    + "released (it expired while Redis could not be reached): nothing to release");
                        } else {
                            LOG.log(Level.WARNING, "Could not release the lock " + lock.getName() + " (Redis "
                                    + "failing); it expires by itself", cause);
                        }
                        return;
                    } catch (TimeoutException e) {
                        LOG.warning("Redis did not confirm the release of the lock " + lock.getName() + " within "
                                + responseTimeout + "; it expires by itself if the release was lost");
                        return;
                    }
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        /** One round trip: whether Redis still has the lock under this lease's id. */
        @Override
        public boolean held() {
            if (closed.get()) {
                return false;
            }
            try {
                return lock.isHeldByThread(leaseId);
            } catch (RuntimeException e) {
                throw RedisFailures.classify(e);
            }
        }

        @Override
        public String toString() {
            return "RedissonLease[" + lock.getName() + ", " + leaseId + (closed.get() ? ", closed]" : "]");
        }
    }
}
