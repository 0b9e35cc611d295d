package io.tileseeder.coordinator.job;

import io.tileseeder.job.IdempotencyConflictException;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobSpecValidator;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.TooManyJobsException;
import io.tileseeder.port.JobStore;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;

/**
 * Takes new jobs: validation, the idempotency key, the limit on running jobs, and handing the job to a planner.
 * Runs on the caller's request thread (REST or command line), one submission at a time per replica, so that two
 * submissions cannot both pass the running-jobs limit by counting before either is created.
 */
final class Admission {

    private final JobSpecValidator validator;
    private final JobStore store;
    private final Clock clock;
    private final int maxRunningJobs;
    private final JobMetrics metrics;
    private final Planner planner;
    private final Finisher finisher;

    Admission(JobSpecValidator validator, JobStore store, Clock clock, int maxRunningJobs, JobMetrics metrics,
              Planner planner, Finisher finisher) {
        this.validator = validator;
        this.store = store;
        this.clock = clock;
        this.maxRunningJobs = maxRunningJobs;
        this.metrics = metrics;
        this.planner = planner;
        this.finisher = finisher;
    }

    /** See {@link JobService#submit}. */
    synchronized JobStatus submit(JobRequest request, String idempotencyKey) {
        JobSpec spec = validator.validate(request);
        if (idempotencyKey != null) {
            Optional<JobStatus> existing = store.findByIdempotencyKey(idempotencyKey);
            if (existing.isPresent()) {
                if (!existing.get().spec().equals(spec)) {
                    throw new IdempotencyConflictException(idempotencyKey, existing.get().id());
                }
                return existing.get();
            }
        }
        long running = store.countUnfinished();
        if (running >= maxRunningJobs) {
            throw new TooManyJobsException(running + " jobs are running, the limit is " + maxRunningJobs
                    + "; wait for one to finish or cancel one");
        }
        JobStatus job = store.create(JobStatus.submitted(UUID.randomUUID().toString(), spec, spec.tileCount(),
                clock.instant(), idempotencyKey));
        metrics.track(job);
        if (!planner.start(job.id())) {
            // Planners of cancelled jobs still winding down hold every slot: refuse rather than orphan the job.
            finisher.finish(job.id(), JobState.FAILED, "refused: every planner is busy");
            throw new TooManyJobsException("every planner is busy (" + maxRunningJobs + "); try again shortly");
        }
        return job;
    }
}
