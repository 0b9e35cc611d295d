package io.tileseeder.coordinator.job;

import io.tileseeder.outage.Outages;
import io.tileseeder.port.DependencyUnavailableException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The coordinator's one periodic thread, {@code seeder-housekeeping}: it runs the recovery at start and every
 * {@code recoverEvery}, and the sweep (waiters of jobs finished elsewhere, then the outbox) every
 * {@link #SWEEP_EVERY}, so events go out within a sweep, and the one-off tasks handed to {@link #soon}. One thread:
 * the loops never run side by side, and none of them holds a thread of the planners, the workers or the requests. Owns the loops'
 * liveness ({@link #deadLoops}).
 */
final class Housekeeping implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Housekeeping.class.getName());
    /** How often waiters are checked against the store (a job may finish on another replica). */
    private static final Duration SWEEP_EVERY = Duration.ofMillis(250);

    private final Outages outages;
    private final ScheduledThreadPoolExecutor executor;
    /** The periodic loops, by what they are called in liveness. */
    private final Map<String, ScheduledFuture<?>> loops;
    private volatile boolean closed;

    /** Starts both loops; the recovery runs at once. */
    Housekeeping(Outages outages, Duration recoverEvery, Runnable recovery, Runnable sweep) {
        this.outages = outages;
        this.executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread thread = new Thread(r, "seeder-housekeeping");
            thread.setDaemon(true);
            return thread;
        });
        this.loops = Map.of(
                "the coordinator's recovery", executor.scheduleWithFixedDelay(guarded("recovery", recovery),
                        0, recoverEvery.toMillis(), TimeUnit.MILLISECONDS),
                "the coordinator's sweep and outbox", executor.scheduleWithFixedDelay(guarded("sweep", sweep),
                        SWEEP_EVERY.toMillis(), SWEEP_EVERY.toMillis(), TimeUnit.MILLISECONDS));
    }

    /**
     * A periodic task that survives its failures: an unavailable dependency is listed as an outage (once, not
     * a stack trace per run) until a run succeeds again; any other failure is logged. Either way the next run
     * tries again.
     */
    private Runnable guarded(String what, Runnable task) {
        Set<String> failing = ConcurrentHashMap.newKeySet();
        return () -> {
            try {
                task.run();
                failing.forEach(outages::up);
                failing.clear();
            } catch (DependencyUnavailableException e) {
                failing.add(e.dependency());
                outages.down(e.dependency(), e.getMessage());
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, what + " failed; will try again", e);
            }
        };
    }

    /** Runs {@code task} once on the housekeeping thread, as soon as it is free; nothing once closed. */
    void soon(String what, Runnable task) {
        try {
            executor.execute(guarded(what, task));
        } catch (RejectedExecutionException e) {
            LOG.fine(() -> what + " not run: closing");
        }
    }

    /** Which loops stopped (an error escaped one): each must run until closed. */
    List<String> deadLoops() {
        if (closed) {
            return List.of();
        }
        return loops.entrySet().stream().filter(loop -> loop.getValue().isDone()).map(Map.Entry::getKey).sorted()
                .toList();
    }

    @Override
    public void close() {
        closed = true;
        executor.shutdownNow();
    }
}
