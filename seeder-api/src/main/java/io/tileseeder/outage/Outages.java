package io.tileseeder.outage;

import io.tileseeder.job.Timeouts;
import io.tileseeder.port.DependencyUnavailableException;
import io.tileseeder.port.StoreUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BooleanSupplier;
import java.util.logging.Logger;

/**
 * The one outage policy of a process: a dependency that cannot be reached (Redis, Kafka, the object store, an
 * upstream WMS) is a pause, not a failure. {@link #patiently} runs a step, and while it meets an unavailable
 * dependency keeps what it holds, backs off (0.5 s doubling up to 8 s) and tries again, for at most the outage
 * budget; only then does the last error reach the caller. Meanwhile the outage is listed by {@link #current},
 * which the job views read ("waiting for Redis"). An outage is listed until a step that met it succeeds, or
 * until nobody has reported it for {@value #STALE_SECONDS} s (whoever met it gave up waiting, or never calls
 * again), so a forgotten report cannot leave a job "waiting" for a dependency that is long back. A failure of an
 * attempt that began before the dependency was last seen answering is the tail of an outage already over (a client
 * giving up on a request it sent while the dependency was away), not a new one: it is neither listed nor told.
 *
 * <pre>{@code
 * Outages outages = new Outages(Duration.ofMinutes(10), Clock.systemUTC());
 * JobStatus job = outages.patiently(() -> store.get(id), delivery::renew);
 * }</pre>
 */
public final class Outages {

    private static final Logger LOG = Logger.getLogger(Outages.class.getName());
    static final Duration FIRST_PAUSE = Duration.ofMillis(500);
    static final Duration LONGEST_PAUSE = Duration.ofSeconds(8);
    static final int STALE_SECONDS = 30;
    /** What {@link StoreUnavailableException}s (the tile store's checked kind) are listed as. */
    public static final String OBJECT_STORE = "the tile store";

    /** A dependency found unreachable {@code since}, with the last error met. */
    public record Outage(String dependency, Instant since, String message) {
    }

    /** A step that may find a dependency unavailable. */
    @FunctionalInterface
    public interface Step<T> {
        T run() throws Exception;
    }

    private final Duration budget;
    private final Clock clock;
    private final ConcurrentMap<String, Outage> current = new ConcurrentHashMap<>();
    /** When each listed outage was last reported. */
    private final ConcurrentMap<String, Instant> reported = new ConcurrentHashMap<>();
    /** When each dependency was last seen answering. */
    private final ConcurrentMap<String, Instant> answered = new ConcurrentHashMap<>();

    /** @param budget how long a step keeps trying while a dependency is unavailable ({@code seeder.outage-budget}) */
    public Outages(Duration budget, Clock clock) {
        if (budget.isNegative()) {
            throw new IllegalArgumentException("the outage budget cannot be negative: " + Timeouts.format(budget));
        }
        this.budget = budget;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public Duration budget() {
        return budget;
    }

    /**
     * Runs {@code step}; while it throws {@link DependencyUnavailableException} or {@link StoreUnavailableException},
     * calls {@code whileWaiting} (to renew what the caller holds), pauses and runs it again, until it succeeds or the
     * budget is spent, when the last such error is thrown. Any other error is thrown at once.
     *
     * @throws InterruptedException if interrupted while pausing
     */
    public <T> T patiently(Step<T> step, Runnable whileWaiting) throws Exception {
        return patiently(step, whileWaiting, () -> true);
    }

    /** As {@link #patiently(Step, Runnable)}, but stops waiting (throws the error met) once {@code mayWait} is false. */
    public <T> T patiently(Step<T> step, Runnable whileWaiting, BooleanSupplier mayWait) throws Exception {
        long deadline = System.nanoTime() + budget.toNanos();
        Duration pause = FIRST_PAUSE;
        Set<String> failing = new HashSet<>();
        while (true) {
            Instant attempt = clock.instant();
            try {
                T result = step.run();
                failing.forEach(this::up);
                return result;
            } catch (DependencyUnavailableException | StoreUnavailableException e) {
                String dependency = dependencyOf(e);
                failing.add(dependency);
                // Clients try for a while before they give up: the dependency was gone when this attempt began.
                down(dependency, e.getMessage(), attempt);
                if (!mayWait.getAsBoolean() || System.nanoTime() + pause.toNanos() > deadline) {
                    throw e;
                }
                whileWaiting.run();
                Thread.sleep(pause);
                pause = next(pause);
            }
        }
    }

    /** The pause after {@code pause}: twice as long, at most 8 s. */
    public static Duration next(Duration pause) {
        Duration doubled = pause.multipliedBy(2);
        return doubled.compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : doubled;
    }

    /** The dependency an unavailability error names. */
    public static String dependencyOf(Exception e) {
        return e instanceof DependencyUnavailableException d ? d.dependency() : OBJECT_STORE;
    }

    /** Records that {@code dependency} could not be reached (keeps the time of the first report). */
    public void down(String dependency, String message) {
        down(dependency, message, clock.instant());
    }

    /**
     * Records that {@code dependency} could not be reached by an attempt that began at {@code since}: an outage
     * starts then, not when the client gave up (Redisson, for one, tries for seconds first). An attempt that began
     * before the dependency last answered met an outage that is over, and is not recorded.
     */
    public void down(String dependency, String message, Instant since) {
        Instant back = answered.get(dependency);
        if (back != null && back.isAfter(since)) {
            return;
        }
        Instant now = clock.instant();
        reported.put(dependency, now);
        Outage before = current.putIfAbsent(dependency, new Outage(dependency, since, message));
        if (before == null) {
            LOG.warning(() -> dependency + " is unavailable; waiting for it for at most " + Timeouts.format(budget)
                    + ": " + message);
        } else {
            current.replace(dependency, before, new Outage(dependency, before.since(), message));
        }
    }

    /** Records that {@code dependency} answered again. */
    public void up(String dependency) {
        answered.put(dependency, clock.instant());
        reported.remove(dependency);
        Outage was = current.remove(dependency);
        if (was != null) {
            LOG.info(() -> dependency + " is available again after "
                    + Duration.between(was.since(), clock.instant()).toMillis() + " ms");
        }
    }

    /** The dependencies unreachable now, longest first. */
    public List<Outage> current() {
        Instant stale = clock.instant().minusSeconds(STALE_SECONDS);
        reported.forEach((dependency, last) -> {
            if (last.isBefore(stale) && reported.remove(dependency, last)) {
                current.remove(dependency);
            }
        });
        return current.values().stream().sorted(Comparator.comparing(Outage::since)).toList();
    }
}
