package io.tileseeder.port;

import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.message.TaskResult;
import java.util.List;
import java.util.Optional;

/**
 * Job records and their progress. Every method is atomic: results are recorded at most once per task
 * number, and a job reaches a final state exactly once.
 */
public interface JobStore {

    /** Stores a new job, unless a job with the same idempotency key exists: then that one is returned. */
    JobStatus create(JobStatus job);

    Optional<JobStatus> get(String id);

    /** The job a client submitted with this idempotency key, if it is still known. */
    Optional<JobStatus> findByIdempotencyKey(String key);

    /** The newest jobs first, at most {@code limit}. */
    List<JobStatus> list(int limit);

    /** Records how many tasks have been planned and whether planning is finished; PLANNING becomes RUNNING. */
    JobStatus planned(String id, long tasksPlanned, boolean planningDone);

    /** Records a task's result once; returns false if this task's result was already recorded. */
    boolean record(TaskResult result);

    /**
     * Moves a job that is not final yet to {@code state}; returns the final job if this call made it final,
     * empty if it was already final.
     */
    Optional<JobStatus> finish(String id, JobState state, String reason);
}
