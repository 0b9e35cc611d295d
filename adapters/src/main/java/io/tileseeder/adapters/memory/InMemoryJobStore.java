package io.tileseeder.adapters.memory;

import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.message.TaskResult;
import io.tileseeder.port.JobStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
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
    private final LinkedHashSet<String> outbox = new LinkedHashSet<>();

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
    public synchronized Optional<JobStatus> findByIdempotencyKey(String key) {
        return Optional.ofNullable(byIdempotencyKey.get(key)).map(jobs::get);
    }

    @Override
    public synchronized List<JobStatus> list(int limit) {
        List<JobStatus> newestFirst = new ArrayList<>(jobs.values());
        Collections.reverse(newestFirst);
        return List.copyOf(newestFirst.subList(0, Math.min(limit, newestFirst.size())));
    }

    @Override
    public synchronized Optional<JobStatus> start(String id) {
        JobStatus job = require(id);
        if (job.state() != JobState.QUEUED) {
            return Optional.empty();
        }
        JobStatus started = job.withState(JobState.PLANNING);
        jobs.put(id, started);
        return Optional.of(started);
    }

    @Override
    public synchronized JobStatus planned(String id, long tasksPlanned, boolean planningDone) {
        JobStatus updated = require(id).withPlanned(tasksPlanned, planningDone, clock.instant());
        jobs.put(id, updated);
        return updated;
    }

    @Override
    public synchronized boolean record(TaskResult result) {
        JobStatus job = jobs.get(result.jobId());
        BitSet bits = recorded.get(result.jobId());
        if (job == null || bits == null || bits.get(Math.toIntExact(result.seq()))) {
            return false;
        }
        bits.set((int) result.seq());
        Map<Long, String> failures = job.failedTasks();
        if (!result.succeeded() && failures.size() < MAX_FAILURES_KEPT) {
            failures = new HashMap<>(failures);
            failures.put(result.seq(), result.error());
        }
        jobs.put(job.id(), job.withResult(result.succeeded(), result.counts(), failures));
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
        JobStatus finished = job.withFinalState(state, reason, clock.instant());
        jobs.put(id, finished);
        recorded.remove(id);
        outbox.add(id);
        forgetOldFinishedJobs();
        return Optional.of(finished);
    }

    @Override
    public synchronized Optional<JobStatus> recordLost(JobStatus lastSeen, String reason) {
        if (jobs.containsKey(lastSeen.id())) {
            return Optional.empty();
        }
        JobStatus lost = lastSeen.lost(reason, clock.instant());
        jobs.put(lost.id(), lost);
        outbox.add(lost.id());
        forgetOldFinishedJobs();
        return Optional.of(lost);
    }

    @Override
    public synchronized List<JobStatus> unfinished() {
        return jobs.values().stream().filter(job -> !job.state().isFinal()).toList();
    }

    @Override
    public synchronized Map<JobState, Long> countByState() {
        Map<JobState, Long> counts = new EnumMap<>(JobState.class);
        jobs.values().forEach(job -> counts.merge(job.state(), 1L, Long::sum));
        return counts;
    }

    @Override
    public synchronized List<String> pendingEvents() {
        return List.copyOf(outbox);
    }

    @Override
    public synchronized void eventSent(String id) {
        outbox.remove(id);
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
                outbox.remove(job.id());
                if (job.idempotencyKey() != null) {
                    byIdempotencyKey.remove(job.idempotencyKey());
                }
                finished--;
            }
        }
    }
}
