package io.tileseeder.coordinator.embedded;

import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.message.TaskResult;
import io.tileseeder.port.JobStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Job records in memory, for the embedded mode. One monitor guards everything, so each method is atomic.
 * Results are recorded once per task number with a bitmap per job. Finished jobs beyond {@code retain} are
 * forgotten, oldest first, so memory stays bounded however many jobs a long-running server sees.
 */
public final class InMemoryJobStore implements JobStore {

    /** Failed tasks whose reason is kept per job; the count of failures is always exact. */
    public static final int MAX_FAILURES_KEPT = 20;

    private final Clock clock;
    private final int retain;
    private final LinkedHashMap<String, JobStatus> jobs = new LinkedHashMap<>();
    private final Map<String, BitSet> recorded = new HashMap<>();
    private final Map<String, String> byIdempotencyKey = new HashMap<>();

    public InMemoryJobStore(Clock clock, int retain) {
        this.clock = clock;
        this.retain = retain;
    }

    @Override
    public synchronized JobStatus create(JobStatus job) {
        if (job.idempotencyKey() != null) {
            String existing = byIdempotencyKey.get(job.idempotencyKey());
            if (existing != null && jobs.containsKey(existing)) {
                return jobs.get(existing);
            }
            byIdempotencyKey.put(job.idempotencyKey(), job.id());
        }
        jobs.put(job.id(), job);
        recorded.put(job.id(), new BitSet());
        forgetOldFinishedJobs();
        return job;
    }

    @Override
    public synchronized Optional<JobStatus> get(String id) {
        return Optional.ofNullable(jobs.get(id));
    }

    @Override
    public synchronized List<JobStatus> list(int limit) {
        List<JobStatus> newestFirst = new ArrayList<>(jobs.values());
        java.util.Collections.reverse(newestFirst);
        return List.copyOf(newestFirst.subList(0, Math.min(limit, newestFirst.size())));
    }

    @Override
    public synchronized JobStatus planned(String id, long tasksPlanned, boolean planningDone) {
        JobStatus job = require(id);
        JobState state = job.state() == JobState.PLANNING ? JobState.RUNNING : job.state();
        JobStatus updated = new JobStatus(job.id(), job.spec(), state, job.created(),
                job.started() == null ? clock.instant() : job.started(), job.finished(), tasksPlanned, planningDone,
                job.tasksDone(), job.tasksFailed(), job.tilesPlanned(), job.counts(), job.failedTasks(),
                job.reason(), job.idempotencyKey());
        jobs.put(id, updated);
        return updated;
    }

    @Override
    public synchronized boolean record(TaskResult result) {
        JobStatus job = jobs.get(result.jobId());
        BitSet bits = recorded.get(result.jobId());
        if (job == null || bits == null || result.seq() > Integer.MAX_VALUE || bits.get((int) result.seq())) {
            return false;
        }
        bits.set((int) result.seq());
        Map<Long, String> failures = job.failedTasks();
        if (!result.succeeded() && failures.size() < MAX_FAILURES_KEPT) {
            failures = new HashMap<>(failures);
            failures.put(result.seq(), result.error());
        }
        jobs.put(job.id(), new JobStatus(job.id(), job.spec(), job.state(), job.created(), job.started(),
                job.finished(), job.tasksPlanned(), job.planningDone(), job.tasksDone() + 1,
                job.tasksFailed() + (result.succeeded() ? 0 : 1), job.tilesPlanned(),
                job.counts().plus(result.counts()), failures, job.reason(), job.idempotencyKey()));
        return true;
    }

    @Override
    public synchronized Optional<JobStatus> finish(String id, JobState state, String reason) {
        if (!state.isFinal()) {
            throw new IllegalArgumentException(state + " is not a final state");
        }
        JobStatus job = require(id);
        if (job.state().isFinal()) {
            return Optional.empty();
        }
        JobStatus finished = new JobStatus(job.id(), job.spec(), state, job.created(), job.started(),
                clock.instant(), job.tasksPlanned(), job.planningDone(), job.tasksDone(), job.tasksFailed(),
                job.tilesPlanned(), job.counts(), job.failedTasks(), reason, job.idempotencyKey());
        jobs.put(id, finished);
        recorded.remove(id);
        forgetOldFinishedJobs();
        return Optional.of(finished);
    }

    private JobStatus require(String id) {
        JobStatus job = jobs.get(id);
        if (job == null) {
            throw new IllegalArgumentException("no job " + id);
        }
        return job;
    }

    private void forgetOldFinishedJobs() {
        long finished = jobs.values().stream().filter(j -> j.state().isFinal()).count();
        Iterator<JobStatus> oldestFirst = jobs.values().iterator();
        while (finished > retain && oldestFirst.hasNext()) {
            JobStatus job = oldestFirst.next();
            if (job.state().isFinal()) {
                oldestFirst.remove();
                if (job.idempotencyKey() != null) {
                    byIdempotencyKey.remove(job.idempotencyKey());
                }
                finished--;
            }
        }
    }
}
