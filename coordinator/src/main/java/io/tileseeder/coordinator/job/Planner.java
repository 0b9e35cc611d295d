package io.tileseeder.coordinator.job;

import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.Timeouts;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.outage.Outages;
import io.tileseeder.plan.MetatilePlans;
import io.tileseeder.plan.PlannedMetatile;
import io.tileseeder.port.DependencyUnavailableException;
import io.tileseeder.port.JobStore;
import io.tileseeder.port.MetatileLock;
import io.tileseeder.port.TaskQueue;
import java.time.Duration;
import java.util.Iterator;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Plans jobs into metatile tasks on its own bounded pool of {@code seeder-planner-N} threads, one per job being
 * planned (as many as jobs may run, with a queue as long), so a slow or paused plan holds up no other work.
 *
 * <p>Owns the planning rules: a job is planned under its planning lock, shared by the replicas, and a planner
 * checks that the lock is still its own before each batch it records (a lock whose renewals could not reach Redis
 * for its whole lease may be another replica's now) and stops when it is not; the cursor is
 * recorded only after the queue has the tasks ({@link TaskQueue#flush}), so a plan resumes from the recorded
 * cursor without losing a task; a job has at most its share of tasks queued ahead of its results ({@link Shares}:
 * priority, fair share, and backpressure on a queue that is not bounded itself), and records its cursor whenever it
 * waits for room, so that the other replicas' shares see its backlog; and an unavailable dependency pauses the
 * plan within the outage budget instead of failing the job.
 */
final class Planner implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Planner.class.getName());
    /**
     * The planner flushes the queue and records its cursor every this many tasks (and at the end); a planner
     * that dies re-plans at most this many tasks, which is harmless (locks and the result bitmap).
     */
    private static final int PROGRESS_EVERY = 16384;
    /**
     * How often a planner checks its job's share while it queues (a job of higher priority may have come), in
     * tasks.
     */
    private static final int RECHECK_EVERY = 256;
    /**
     * How often a planner that has used up its share checks for room again, and how often one waiting on a full
     * queue checks whether its job was cancelled.
     */
    private static final Duration ROOM_WAIT = Duration.ofMillis(100);
    /** How long {@link #close} waits for the interrupted planners to stop. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

    private final JobStore store;
    /** The plans of the jobs, shared with the validator that counted them. */
    private final MetatilePlans plans;
    private final TaskQueue queue;
    private final MetatileLock planLocks;
    private final Outages outages;
    private final Finisher finisher;
    private final Shares shares;
    private final ThreadPoolExecutor planners;
    /** Jobs this replica is planning, so a sweep does not start a second planner for them. */
    private final Set<String> planning = ConcurrentHashMap.newKeySet();
    private volatile boolean closing;

    /**
     * @param planLocks one lock per job being planned, shared by the replicas
     * @param outages   the outage policy: how long planning waits for an unavailable dependency
     * @param threads   how many jobs may be planned at once, and how many more may wait for a thread
     * @param shares    how many tasks of each job may be queued ahead of its results
     */
    Planner(JobStore store, TaskQueue queue, MetatileLock planLocks, Outages outages, Finisher finisher,
            int threads, Shares shares, MetatilePlans plans) {
        this.store = store;
        this.plans = plans;
        this.queue = queue;
        this.planLocks = planLocks;
        this.outages = outages;
        this.finisher = finisher;
        this.shares = shares;
        AtomicInteger n = new AtomicInteger();
        this.planners = new ThreadPoolExecutor(threads, threads, 1, TimeUnit.MINUTES,
                new ArrayBlockingQueue<>(threads), r -> {
                    Thread thread = new Thread(r, "seeder-planner-" + n.getAndIncrement());
                    thread.setDaemon(true);
                    return thread;
                });
        this.planners.allowCoreThreadTimeOut(true);
    }

    /**
     * Starts planning the job on a planner thread, unless this replica is planning it already; false when every
     * planner thread is busy and the queue before them full (the job is not planned then).
     */
    boolean start(String jobId) {
        if (!planning.add(jobId)) {
            return true;
        }
        try {
            planners.execute(() -> plan(jobId));
            return true;
        } catch (RejectedExecutionException e) {
            planning.remove(jobId);
            return false;
        }
    }

    /**
     * Plans a job from where its record says planning got to, under the job's planning lock; returns at once
     * if another replica holds it or the job needs no planning. An unavailable dependency (Redis, Kafka) pauses
     * planning, which then resumes from the last recorded cursor (a task offered twice is harmless); only an
     * outage longer than the budget fails the job, and if even that cannot be recorded, the recovery sweep
     * resumes the plan later.
     */
    private void plan(String jobId) {
        try {
            Optional<MetatileLock.Lease> lease;
            try {
                lease = planLocks.tryLock("plan/" + jobId, Duration.ZERO);
            } catch (DependencyUnavailableException e) {
                outages.down(e.dependency(), e.getMessage());
                return; // the recovery sweep tries again
            }
            if (lease.isEmpty()) {
                return;
            }
            try (MetatileLock.Lease held = lease.get()) {
                outages.patiently(() -> {
                    Optional<JobStatus> job = store.get(jobId).filter(JobStatus::beingPlanned);
                    if (job.isPresent()) {
                        planFrom(job.get(), held);
                    }
                    return job;
                }, () -> LOG.info(() -> "planning job " + jobId + " waits for " + outages.current()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            // Shutting down: the tasks queued so far stay recorded, and a coordinator that starts resumes the plan.
        } catch (DependencyUnavailableException e) {
            failPlan(jobId, "planning stopped: " + e.dependency() + " was unavailable for longer than the outage "
                    + "budget of " + Timeouts.format(outages.budget()) + ": " + e.getMessage());
        } catch (Exception e) {
            if (closing || Thread.currentThread().isInterrupted()) {
                // Shutting down, and a client turned the interrupt into its own exception (Redisson throws a
                // RedisException, having set the flag again): not the job's failure; the plan is resumed.
                LOG.fine(() -> "planning job " + jobId + " stopped by the shutdown: " + e);
            } else {
                LOG.log(Level.WARNING, "planning job " + jobId + " failed", e);
                failPlan(jobId, "planning failed: " + e.getMessage());
            }
        } finally {
            planning.remove(jobId);
        }
    }

    private void failPlan(String jobId, String reason) {
        try {
            finisher.finish(jobId, JobState.FAILED, reason);
        } catch (DependencyUnavailableException e) {
            LOG.warning(() -> "cannot record that job " + jobId + " failed (" + reason + "): " + e.getMessage()
                    + "; the recovery sweep resumes its plan");
        }
    }

    private void planFrom(JobStatus job, MetatileLock.Lease lock) throws InterruptedException {
        JobSpec spec = job.spec();
        long planned = job.tasksPlanned();
        if (planned > 0) {
            LOG.info(() -> "resuming the plan of job " + job.id() + " at task " + job.tasksPlanned());
        }
        long done = job.tasksDone();
        long recorded = planned;
        long allowance = shares.allowance(job);
        Iterator<PlannedMetatile> tasks = plans.of(spec).from(planned);
        while (tasks.hasNext()) {
            if (planned - done >= allowance || planned % RECHECK_EVERY == 0) {
                allowance = shares.allowance(job);
                if (planned - done >= allowance) {
                    if (planned > recorded) {
                        if (lost(job.id(), lock, planned, recorded)) {
                            return;
                        }
                        // A job waiting before its first task stays PLANNING: nothing is recorded for it.
                        recorded = recordCursor(job.id(), planned);
                    }
                    OptionalLong room = awaitRoom(job, planned);
                    if (room.isEmpty() || lost(job.id(), lock, planned, recorded)) {
                        return;
                    }
                    done = room.getAsLong();
                    allowance = shares.allowance(job);
                }
            }
            PlannedMetatile task = tasks.next();
            MetatileTask message = MetatileTask.of(job.id(), task.seq(), spec.layer(), task.dimensions(),
                    spec.format(), spec.mode(), task.metatile(), task.tiles(), task.mask(), spec.refreshBefore(),
                    spec.archive());
            while (!queue.offer(message, ROOM_WAIT)) {
                if (isFinal(job.id())) {
                    return;
                }
            }
            if (++planned % PROGRESS_EVERY == 0) {
                if (lost(job.id(), lock, planned, recorded)) {
                    return;
                }
                recorded = recordCursor(job.id(), planned);
            }
        }
        if (lost(job.id(), lock, planned, recorded)) {
            return;
        }
        queue.flush();
        store.planned(job.id(), planned, true);
        finisher.finishIfDone(job.id());
    }

    /**
     * Whether the job's planning lock is no longer this planner's (its lease expired while Redis could not be
     * reached, and another replica may be planning the job): then this planner records nothing more, says so once,
     * and stops; the replica holding the lock, or the next recovery sweep, plans on from the recorded cursor.
     */
    private boolean lost(String jobId, MetatileLock.Lease lock, long planned, long recorded) {
        if (lock.held()) {
            return false;
        }
        LOG.warning(() -> "planning job " + jobId + " stops at task " + planned + ": its planning lock is no longer "
                + "this coordinator's (it expired while Redis could not be reached); whoever holds it next resumes from "
                + "task " + recorded);
        return true;
    }

    /** Records how far planning got, once the queue has every task so far; returns {@code planned}. */
    private long recordCursor(String jobId, long planned) throws InterruptedException {
        queue.flush();
        store.planned(jobId, planned, false);
        return planned;
    }

    /**
     * Waits until the job's share ({@link Shares#allowance}) lets it queue another task beyond the {@code planned}
     * ones; returns the job's tasks done then, or empty if the job became final (or unknown) meanwhile.
     */
    private OptionalLong awaitRoom(JobStatus job, long planned) throws InterruptedException {
        while (true) {
            Optional<JobStatus> now = store.get(job.id());
            if (now.isEmpty() || now.get().state().isFinal()) {
                return OptionalLong.empty();
            }
            long done = now.get().tasksDone();
            if (planned - done < shares.allowance(job)) {
                return OptionalLong.of(done);
            }
            Thread.sleep(ROOM_WAIT);
        }
    }

    private boolean isFinal(String jobId) {
        return store.get(jobId).map(job -> job.state().isFinal()).orElse(true);
    }

    /**
     * Interrupts the planners and waits up to {@link #CLOSE_WAIT} for them to stop, so none still uses the store or
     * the queue once they are closed: what they queued stays recorded, and a coordinator that starts resumes their
     * plans.
     */
    @Override
    public void close() {
        closing = true;
        planners.shutdownNow();
        try {
            if (!planners.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warning(() -> "a planner did not stop within " + CLOSE_WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
