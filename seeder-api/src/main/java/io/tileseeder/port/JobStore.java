package io.tileseeder.port;

import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.message.TaskResult;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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

    /**
     * Starts a QUEUED job: it becomes PLANNING. Returns it if this call started it, empty if it was not QUEUED (a
     * replica started it first, or it was cancelled).
     */
    Optional<JobStatus> start(String id);

    /**
     * Records how many tasks have been planned and whether planning is finished; PLANNING becomes RUNNING. Both
     * only move forward: a planner that lost its planning lock to another (an outage outlasted the lock's lease)
     * and records an older cursor changes nothing.
     */
    JobStatus planned(String id, long tasksPlanned, boolean planningDone);

    /** Records a task's result once; returns false if this task's result was already recorded. */
    boolean record(TaskResult result);

    /**
     * Records each result once, as {@link #record} does; returns the ids of the jobs that got at least one new
     * result. A store that can do it in fewer round trips overrides this.
     */
    default Set<String> recordAll(List<TaskResult> results) {
        Set<String> changed = new LinkedHashSet<>();
        for (TaskResult result : results) {
            if (record(result)) {
                changed.add(result.jobId());
            }
        }
        return changed;
    }

    /**
     * Moves a job that is not final yet to {@code state}; returns the final job if this call made it final,
     * empty if it was already final. The job joins the outbox of {@link #pendingEvents} by the time this returns;
     * if the process dies in between, by the time {@link #unfinished} has run (a store that keeps its indexes
     * apart from the job, as on a Redis Cluster, cannot do both in one atomic step).
     */
    Optional<JobStatus> finish(String id, JobState state, String reason);

    /**
     * Records a job whose record the store lost while it was unfinished, from what was last seen of it: LOST, as
     * {@link JobStatus#lost} makes it, finished now, unless the store has a record of that id. Returns it if this call
     * recorded it, empty otherwise (the job is not lost, or another coordinator recorded it first). It joins the
     * outbox as {@link #finish} says.
     */
    Optional<JobStatus> recordLost(JobStatus lastSeen, String reason);

    /** The jobs not final yet (planning or running), for a coordinator that starts to resume. */
    List<JobStatus> unfinished();

    /** How many of the jobs the store knows are in each state (a state with none may be left out). */
    Map<JobState, Long> countByState();

    /** How many jobs are not final yet, as {@code unfinished().size()}; stores may count them without reading them. */
    default long countUnfinished() {
        return unfinished().size();
    }

    /** Final jobs whose event has not been acknowledged by {@link #eventSent} yet, oldest first (the outbox). */
    List<String> pendingEvents();

    /** The job's event was delivered: it leaves the outbox. */
    void eventSent(String id);
}
