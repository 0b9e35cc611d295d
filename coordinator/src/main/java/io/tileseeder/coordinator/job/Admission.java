package io.tileseeder.coordinator.job;

import io.tileseeder.job.IdempotencyConflictException;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.TooManyJobsException;
import io.tileseeder.plan.JobSpecValidator;
import io.tileseeder.port.JobStore;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;

/**
 * Takes new jobs: validation, the idempotency key, the limits on running and queued jobs, and starting the job or
 * queueing it. Runs on the caller's request thread (REST or command line), one submission at a time per replica, so
 * that two submissions cannot both pass the limits by counting before either is created.
 */
final class Admission {

    private final JobSpecValidator validator;
    private final JobStore store;
    private final Clock clock;
    private final int maxRunningJobs;
    private final int maxQueuedJobs;
    private final JobMetrics metrics;
    private final Planner planner;
    private final JobQueue queue;

    Admission(JobSpecValidator validator, JobStore store, Clock clock, int maxRunningJobs, int maxQueuedJobs,
              JobMetrics metrics, Planner planner, JobQueue queue) {
        this.validator = validator;
        this.store = store;
        this.clock = clock;
        this.maxRunningJobs = maxRunningJobs;
        this.maxQueuedJobs = maxQueuedJobs;
        this.metrics = metrics;
        this.planner = planner;
        this.queue = queue;
    }

    /**
     * See {@link JobService#submit}. A job is created QUEUED; when every unfinished job fits among the running ones
     * it starts at once (no queued job can be passed over then), else the queue starts what fits, best first.
     */
    JobStatus submit(JobRequest request, String idempotencyKey) {
        // Outside the lock: validating a job over an area counts its tiles down the area's quadtree.
        JobSpec spec = validator.validate(request);
        return admit(spec, validator.plans().of(spec).tileCount(), idempotencyKey);
    }

    private synchronized JobStatus admit(JobSpec spec, long tiles, String idempotencyKey) {
        if (idempotencyKey != null) {
            Optional<JobStatus> existing = store.findByIdempotencyKey(idempotencyKey);
            if (existing.isPresent()) {
                if (!existing.get().spec().equals(spec)) {
                    throw new IdempotencyConflictException(idempotencyKey, existing.get().id());
                }
                return existing.get();
            }
        }
        long unfinished = store.countUnfinished();
        if (unfinished >= (long) maxRunningJobs + maxQueuedJobs) {
            throw new TooManyJobsException(unfinished + " jobs are running or queued, the limits are "
                    + maxRunningJobs + " running and " + maxQueuedJobs + " queued; wait for one to finish or cancel one");
        }
        String id = UUID.randomUUID().toString();
        JobStatus job = store.create(JobStatus.queued(id, spec, tiles, clock.instant(), idempotencyKey));
        if (!job.id().equals(id)) {
            return job; // another replica created a job with this idempotency key meanwhile
        }
        if (store.countUnfinished() <= maxRunningJobs) {
            Optional<JobStatus> started = store.start(id);
            if (started.isPresent()) {
                metrics.track(started.get());
                planner.start(id); // false when every planner is busy: the recovery sweep starts the plan
            }
        } else {
            queue.startWhatFits();
        }
        return store.get(id).orElse(job);
    }
}
