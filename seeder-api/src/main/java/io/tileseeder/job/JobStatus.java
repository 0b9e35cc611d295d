package io.tileseeder.job;

import io.tileseeder.message.TileCounts;
import java.time.Instant;
import java.util.Map;

/**
 * A job's recorded state.
 *
 * @param tasksPlanned   tasks handed to the queue so far
 * @param planningDone   whether every task has been planned
 * @param tasksDone      tasks with a recorded result, failed ones included
 * @param tilesPlanned   tiles the whole job covers (known before planning starts)
 * @param failedTasks    a bounded sample of failed tasks and why, keyed by task number
 * @param reason         why the job failed or was cancelled; null otherwise
 * @param idempotencyKey the client's key that makes a retried submission return this job; may be null
 */
public record JobStatus(String id, JobSpec spec, JobState state, Instant created, Instant started,
                        Instant finished, long tasksPlanned, boolean planningDone, long tasksDone,
                        long tasksFailed, long tilesPlanned, TileCounts counts, Map<Long, String> failedTasks,
                        String reason, String idempotencyKey) {

    public JobStatus {
        failedTasks = Map.copyOf(failedTasks);
    }

    /** A job just submitted, before planning. */
    public static JobStatus submitted(String id, JobSpec spec, long tilesPlanned, Instant now, String idempotencyKey) {
        return new JobStatus(id, spec, JobState.PLANNING, now, null, null, 0, false, 0, 0, tilesPlanned,
                TileCounts.ZERO, Map.of(), null, idempotencyKey);
    }

    /** A job just submitted that waits for a place among the running jobs. */
    public static JobStatus queued(String id, JobSpec spec, long tilesPlanned, Instant now, String idempotencyKey) {
        return submitted(id, spec, tilesPlanned, now, idempotencyKey).withState(JobState.QUEUED);
    }

    /** This job in another state that is not final ({@link #withFinalState} is for those). */
    public JobStatus withState(JobState newState) {
        return new JobStatus(id, spec, newState, created, started, finished, tasksPlanned, planningDone, tasksDone,
                tasksFailed, tilesPlanned, counts, failedTasks, reason, idempotencyKey);
    }

    /** This job after more planning: PLANNING becomes RUNNING when the first tasks are queued. */
    public JobStatus withPlanned(long tasks, boolean done, Instant now) {
        return new JobStatus(id, spec, state == JobState.PLANNING ? JobState.RUNNING : state, created,
                started == null ? now : started, finished, Math.max(tasksPlanned, tasks), planningDone || done,
                tasksDone, tasksFailed, tilesPlanned, counts, failedTasks, reason, idempotencyKey);
    }

    /** This job with one more task result; {@code failures} is the (bounded) sample of failed tasks to keep. */
    public JobStatus withResult(boolean succeeded, TileCounts taskCounts, Map<Long, String> failures) {
        return new JobStatus(id, spec, state, created, started, finished, tasksPlanned, planningDone, tasksDone + 1,
                tasksFailed + (succeeded ? 0 : 1), tilesPlanned, counts.plus(taskCounts), failures, reason,
                idempotencyKey);
    }

    /** This job in a final state. */
    /**
     * The job as a record of it lost from the store is recorded again: LOST, with what was last seen of it, and
     * without its idempotency key (a retried submission makes a new job, as it would have once the record was gone).
     */
    public JobStatus lost(String why, Instant now) {
        return new JobStatus(id, spec, JobState.LOST, created, started, now, tasksPlanned, planningDone, tasksDone,
                tasksFailed, tilesPlanned, counts, failedTasks, why, null);
    }

    public JobStatus withFinalState(JobState finalState, String why, Instant now) {
        return new JobStatus(id, spec, finalState, created, started, now, tasksPlanned, planningDone, tasksDone,
                tasksFailed, tilesPlanned, counts, failedTasks, why, idempotencyKey);
    }

    /** Started (PLANNING or RUNNING) with tasks still to plan. */
    public boolean beingPlanned() {
        return (state == JobState.PLANNING || state == JobState.RUNNING) && !planningDone;
    }

    /** Every planned task has a result and no more are coming. */
    public boolean allTasksDone() {
        return planningDone && tasksDone >= tasksPlanned;
    }
}
