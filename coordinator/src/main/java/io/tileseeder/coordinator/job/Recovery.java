package io.tileseeder.coordinator.job;

import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.port.JobStore;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Picks up what a coordinator left behind: resumes the plans of unfinished jobs nobody on this replica is planning
 * (a coordinator restarted mid-plan), finishes jobs whose every task has a result (their finishing replica may
 * have died between recording the last result and finishing, or the tile store was unreachable for the job's
 * documents), and starts queued jobs a place freed elsewhere lets in. Also keeps the per-job meters to the
 * unfinished jobs. Runs on the {@link Housekeeping} thread.
 *
 * <p>Remembers the unfinished jobs of its last run (as many as may be queued and running, so bounded by the
 * admission's limits): one that is neither unfinished nor in the store at the next run had its record lost (a Redis
 * that came back without its data) and is recorded and announced as LOST ({@link Finisher#lost}), so that whoever
 * waits for its event gets one.
 */
final class Recovery implements Runnable {

    private final JobStore store;
    private final JobMetrics metrics;
    private final Planner planner;
    private final Finisher finisher;
    private final JobQueue queue;
    /** The unfinished jobs of the last run, by id. */
    private Map<String, JobStatus> watched = Map.of();

    Recovery(JobStore store, JobMetrics metrics, Planner planner, Finisher finisher, JobQueue queue) {
        this.store = store;
        this.metrics = metrics;
        this.planner = planner;
        this.finisher = finisher;
        this.queue = queue;
    }

    @Override
    public void run() {
        List<JobStatus> unfinished = store.unfinished();
        Map<String, JobStatus> now = unfinished.stream().collect(Collectors.toMap(JobStatus::id, job -> job));
        for (JobStatus last : watched.values()) {
            if (!now.containsKey(last.id()) && store.get(last.id()).isEmpty()) {
                finisher.lost(last);
            }
        }
        watched = now;
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
