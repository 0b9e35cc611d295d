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

    /** Every planned task has a result and no more are coming. */
    public boolean allTasksDone() {
        return planningDone && tasksDone >= tasksPlanned;
    }
}
