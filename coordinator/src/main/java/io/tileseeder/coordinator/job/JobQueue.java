package io.tileseeder.coordinator.job;

import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.port.JobStore;
import io.tileseeder.port.MetatileLock;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The jobs waiting for a place among the running ones: at most {@code maxRunning} jobs are planned or running at
 * once, the others are QUEUED and start in order of priority (highest first), then of submission. Starting is done
 * under one lock shared by the replicas, so that two of them never fill the same place. It runs after each
 * submission, each job made final on this replica, and each recovery sweep (a place freed on a replica that died).
 */
final class JobQueue {

    private static final Logger LOG = Logger.getLogger(JobQueue.class.getName());
    private static final String LOCK = "queue";
    /** How long a replica waits for another one starting jobs; it is a few store round trips. */
    private static final Duration LOCK_WAIT = Duration.ofSeconds(5);
    /** The order in which queued jobs start. */
    static final Comparator<JobStatus> ORDER = Comparator.comparingInt((JobStatus job) -> -job.spec().priority())
            .thenComparing(JobStatus::created).thenComparing(JobStatus::id);

    private final JobStore store;
    private final MetatileLock locks;
    private final Planner planner;
    private final JobMetrics metrics;
    private final int maxRunning;

    JobQueue(JobStore store, MetatileLock locks, Planner planner, JobMetrics metrics, int maxRunning) {
        this.store = store;
        this.locks = locks;
        this.planner = planner;
        this.metrics = metrics;
        this.maxRunning = maxRunning;
    }

    /**
     * Starts queued jobs, best first, while fewer than {@code maxRunning} are planning or running. Leaves them queued
     * if another replica holds the lock past {@link #LOCK_WAIT}: that one starts them, or the next sweep does.
     */
    void startWhatFits() {
        Optional<MetatileLock.Lease> lease;
        try {
            lease = locks.tryLock(LOCK, LOCK_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (lease.isEmpty()) {
            LOG.fine("another replica is starting queued jobs");
            return;
        }
        try (MetatileLock.Lease held = lease.get()) {
            List<JobStatus> unfinished = store.unfinished();
            long running = unfinished.stream().filter(job -> job.state() != JobState.QUEUED).count();
            for (JobStatus job : queued(unfinished)) {
                if (running >= maxRunning) {
                    return;
                }
                Optional<JobStatus> started = store.start(job.id());
                if (started.isPresent()) {
                    running++;
                    metrics.track(started.get());
                    // false when every planner thread is busy: the job is PLANNING, and the recovery sweep starts its plan
                    planner.start(job.id());
                }
            }
        }
    }

    /** Each queued job's place in the queue, 1 for the next to start. */
    static Map<String, Integer> positions(List<JobStatus> unfinished) {
        List<JobStatus> queued = queued(unfinished);
        Map<String, Integer> positions = new HashMap<>();
        for (int i = 0; i < queued.size(); i++) {
            positions.put(queued.get(i).id(), i + 1);
        }
        return positions;
    }

    /** The queued jobs among these, in the order they start. */
    private static List<JobStatus> queued(List<JobStatus> unfinished) {
        return unfinished.stream().filter(job -> job.state() == JobState.QUEUED).sorted(ORDER).toList();
    }
}
