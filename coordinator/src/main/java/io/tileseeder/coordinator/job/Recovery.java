package io.tileseeder.coordinator.job;

import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.port.JobStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Picks up what a coordinator left behind: resumes the plans of unfinished jobs nobody on this replica is planning
 * (a coordinator restarted mid-plan), finishes jobs whose every task has a result (their finishing replica may
 * have died between recording the last result and finishing, or the tile store was unreachable for the job's
 * documents), and starts queued jobs a place freed elsewhere lets in. Also keeps the per-job meters to the
 * unfinished jobs. Runs on the {@link Housekeeping} thread.
 *
 * <p>Watches the unfinished jobs: those of its last run and those this replica admitted since (as many as may be
 * queued and running, so bounded by the admission's limits). One that the store no longer has had its record lost (a
 * Redis that came back without its data) and is recorded and announced as LOST ({@link Finisher#lost}), so that
 * whoever waits for its event gets one: found by the next run, or at once by a read of it that misses
 * ({@link #recordIfLost}, on the thread that reads). A job that became final leaves the watch.
 */
final class Recovery implements Runnable {

    private final JobStore store;
    private final JobMetrics metrics;
    private final Planner planner;
    private final Finisher finisher;
    private final JobQueue queue;
    /** The unfinished jobs this replica knows of, as it last saw them, by id. */
    private final Map<String, JobStatus> watched = new ConcurrentHashMap<>();

    Recovery(JobStore store, JobMetrics metrics, Planner planner, Finisher finisher, JobQueue queue) {
        this.store = store;
        this.metrics = metrics;
        this.planner = planner;
        this.finisher = finisher;
        this.queue = queue;
    }

    /** A job this replica admitted: watched from now on. */
    void watch(JobStatus admitted) {
        watched.put(admitted.id(), admitted);
    }

    /**
     * For a read that found no job {@code id}: if it is a watched job (the store lost its record), records it as LOST
     * and returns it so; empty for a job this replica never knew unfinished.
     */
    Optional<JobStatus> recordIfLost(String id) {
        JobStatus last = watched.get(id);
        if (last == null) {
            return Optional.empty();
        }
        if (store.get(id).isEmpty()) {
            finisher.lost(last);
        }
        watched.remove(id);
        return store.get(id);
    }

    @Override
    public void run() {
        List<JobStatus> unfinished = store.unfinished();
        Map<String, JobStatus> now = unfinished.stream().collect(Collectors.toMap(JobStatus::id, job -> job));
        for (String id : List.copyOf(watched.keySet())) {
            if (!now.containsKey(id)) {
                // Admitted after the store was read, it is unfinished and stays; final, it leaves; gone, it is lost.
                store.get(id).ifPresentOrElse(job -> {
                    if (job.state().isFinal()) {
                        watched.remove(id);
                    }
                }, () -> recordIfLost(id));
            }
        }
        watched.putAll(now);
        metrics.retain(unfinished);
        for (JobStatus job : unfinished) {
            metrics.track(job);
            if (job.state() == JobState.QUEUED) {
                continue;
            }
            if (job.planningDone()) {
                finisher.finishIfDone(job.id());
            } else {
                planner.start(job.id()); // false when every planner is busy: the next sweep tries again
            }
        }
        queue.startWhatFits();
    }
}
