package io.tileseeder.adapters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.adapters.memory.InMemoryJobStore;
import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import io.tileseeder.message.TaskResult;
import io.tileseeder.message.TileCounts;
import io.tileseeder.port.JobStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link JobStore} promises. A subclass supplies a fresh, empty store on the given clock; nothing
 * here knows how the store is implemented.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class JobStoreContract {

    protected static final Instant T0 = Instant.parse("2026-03-04T05:06:07.123456789Z");
    public static final JobSpec SPEC = new JobSpec("world", TileMatrixSet.WEB_MERCATOR_QUAD, 0, 6,
            new Bounds(-10.5, 40, 20, 60.25), TileFormat.PNG, Mode.RESEED, MetatileSize.DEFAULT,
            Instant.parse("2026-01-01T00:00:00Z"), 3, Map.of("team", "maps", "run", "nightly"));

    protected final TickingClock clock = new TickingClock();
    protected JobStore store;
    private int jobs;

    /** A fresh, empty store that reads the time from {@code clock}. */
    protected abstract JobStore newStore(Clock clock) throws Exception;

    @BeforeEach
    void setUpContract() throws Exception {
        store = newStore(clock);
    }

    /** A new job created a second after the previous one. */
    protected JobStatus submitted(String idempotencyKey) {
        jobs++;
        return JobStatus.submitted("job-" + UUID.randomUUID(), SPEC, 5_000, T0.plusSeconds(jobs), idempotencyKey);
    }

    protected JobStatus created() {
        return store.create(submitted(null));
    }

    protected static TaskResult ok(JobStatus job, long seq, TileCounts counts) {
        return new TaskResult(TaskResult.VERSION, job.id(), seq, true, counts, null);
    }

    protected static TaskResult failed(JobStatus job, long seq) {
        return new TaskResult(TaskResult.VERSION, job.id(), seq, false, new TileCounts(0, 0, 0, 0, 16, 0, 0),
                "render failed for task " + seq);
    }

    protected static TileCounts counts(long seq) {
        return new TileCounts(seq % 16, seq % 3, seq % 5, 0, 0, 3_000_000_000L + seq, seq % 7);
    }

    protected JobStatus job(String id) {
        return store.get(id).orElseThrow();
    }

    @Test
    void aCreatedJobReadsBackAsItWasAndAnUnknownOneIsAbsent() {
        JobStatus job = submitted("key-1");

        assertThat(store.create(job)).isEqualTo(job);

        assertThat(store.get(job.id())).contains(job);
        assertThat(store.findByIdempotencyKey("key-1")).contains(job);
        assertThat(store.get("no-such-job")).isEmpty();
        assertThat(store.findByIdempotencyKey("no-such-key")).isEmpty();
    }

    @Test
    void aRetriedSubmissionWithTheSameIdempotencyKeyGetsTheFirstJob() {
        JobStatus first = store.create(submitted("retry-me"));

        JobStatus again = store.create(submitted("retry-me"));

        assertThat(again).isEqualTo(first);
        assertThat(store.findByIdempotencyKey("retry-me")).contains(first);
        assertThat(store.list(10)).containsExactly(first);
        assertThat(store.create(submitted("another-key")).id()).isNotEqualTo(first.id());
    }

    @Test
    void listShowsTheNewestJobsFirstUpToTheLimit() {
        List<JobStatus> oldestFirst = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            oldestFirst.add(created());
        }

        assertThat(store.list(3)).containsExactly(oldestFirst.get(4), oldestFirst.get(3), oldestFirst.get(2));
        assertThat(store.list(10)).containsExactlyElementsOf(oldestFirst.reversed());
    }

    @Test
    void thePlanningCursorOnlyMovesForward() {
        JobStatus job = created();
        store.planned(job.id(), 40, false);

        // A planner that lost its lock during an outage records where it had got to, behind the other one.
        JobStatus behind = store.planned(job.id(), 16, false);
        store.planned(job.id(), 64, true);
        JobStatus late = store.planned(job.id(), 48, false);

        assertThat(behind.tasksPlanned()).isEqualTo(40);
        assertThat(late.tasksPlanned()).isEqualTo(64);
        assertThat(late.planningDone()).isTrue();
        assertThat(job(job.id())).isEqualTo(late);
    }

    @Test
    void planningMovesAJobToRunningAndStartsItOnce() {
        JobStatus job = created();

        Instant firstPlanned = clock.peek();
        JobStatus running = store.planned(job.id(), 10, false);
        JobStatus planned = store.planned(job.id(), 25, true);

        assertThat(running.state()).isEqualTo(JobState.RUNNING);
        assertThat(running.started()).isEqualTo(firstPlanned);
        assertThat(running.tasksPlanned()).isEqualTo(10);
        assertThat(running.planningDone()).isFalse();
        assertThat(planned.state()).isEqualTo(JobState.RUNNING);
        assertThat(planned.started()).isEqualTo(firstPlanned);
        assertThat(planned.tasksPlanned()).isEqualTo(25);
        assertThat(planned.planningDone()).isTrue();
        assertThat(planned.allTasksDone()).isFalse();
        assertThat(job(job.id())).isEqualTo(planned);
        assertThatThrownBy(() -> store.planned("no-such-job", 1, true)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aQueuedJobStartsOnceAndOnlyWhileQueued() throws Exception {
        JobStatus queued = store.create(JobStatus.queued("job-" + UUID.randomUUID(), SPEC, 5_000, T0, null));
        assertThat(job(queued.id()).state()).isEqualTo(JobState.QUEUED);
        assertThat(store.unfinished()).extracting(JobStatus::id).containsExactly(queued.id());

        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Optional<JobStatus>>> tries = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                tries.add(threads.submit(() -> {
                    go.await();
                    return store.start(queued.id());
                }));
            }
            go.countDown();
            List<JobStatus> started = new ArrayList<>();
            for (Future<Optional<JobStatus>> attempt : tries) {
                attempt.get().ifPresent(started::add);
            }
            assertThat(started).hasSize(1);
            assertThat(started.getFirst()).isEqualTo(queued.withState(JobState.PLANNING));
        } finally {
            threads.shutdownNow();
        }
        assertThat(job(queued.id()).state()).isEqualTo(JobState.PLANNING);

        JobStatus cancelled = store.create(JobStatus.queued("job-" + UUID.randomUUID(), SPEC, 5_000, T0, null));
        store.finish(cancelled.id(), JobState.CANCELLED, "cancelled");
        assertThat(store.start(cancelled.id())).isEmpty();
        assertThat(job(cancelled.id()).state()).isEqualTo(JobState.CANCELLED);
        assertThatThrownBy(() -> store.start("no-such-job")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRedeliveredResultIsCountedOnce() {
        JobStatus job = created();
        TaskResult result = ok(job, 7, counts(7));

        assertThat(store.record(result)).isTrue();
        assertThat(store.record(result)).isFalse();
        assertThat(store.recordAll(List.of(result, result))).isEmpty();

        JobStatus recorded = job(job.id());
        assertThat(recorded.tasksDone()).isEqualTo(1);
        assertThat(recorded.counts()).isEqualTo(counts(7));
    }

    @Test
    void countersAreTheExactSumOfTheRecordedResults() {
        JobStatus job = created();
        store.planned(job.id(), 1_000, true);
        TileCounts expected = TileCounts.ZERO;
        List<TaskResult> batch = new ArrayList<>();
        for (long seq = 0; seq < 1_000; seq++) {
            TaskResult result = seq % 10 == 9 ? failed(job, seq) : ok(job, seq, counts(seq));
            expected = expected.plus(result.counts());
            if (seq < 100) {
                store.record(result);
            } else {
                batch.add(result);
            }
        }
        store.recordAll(batch);

        JobStatus recorded = job(job.id());
        assertThat(recorded.counts()).isEqualTo(expected);
        assertThat(recorded.tasksDone()).isEqualTo(1_000);
        assertThat(recorded.tasksFailed()).isEqualTo(100);
        assertThat(recorded.allTasksDone()).isTrue();
    }

    @Test
    void failedTasksKeepABoundedSampleOfReasonsButAnExactCount() {
        JobStatus job = created();
        List<TaskResult> failures = new ArrayList<>();
        for (long seq = 0; seq < 30; seq++) {
            failures.add(failed(job, seq));
        }
        store.recordAll(failures.subList(0, 10));
        store.recordAll(failures);

        JobStatus recorded = job(job.id());
        assertThat(recorded.tasksFailed()).isEqualTo(30);
        assertThat(recorded.tasksDone()).isEqualTo(30);
        assertThat(recorded.failedTasks()).hasSize(InMemoryJobStore.MAX_FAILURES_KEPT);
        recorded.failedTasks().forEach((seq, reason) -> {
            assertThat(seq).isBetween(0L, 29L);
            assertThat(reason).isEqualTo("render failed for task " + seq);
        });
    }

    @Test
    void resultsForFinalOrUnknownJobsAreIgnored() {
        JobStatus job = created();
        store.record(ok(job, 0, counts(0)));
        JobStatus finished = store.finish(job.id(), JobState.CANCELLED, "cancelled by the user").orElseThrow();
        TaskResult unknown = new TaskResult(TaskResult.VERSION, "no-such-job", 0, true, counts(0), null);

        assertThat(store.record(ok(job, 1, counts(1)))).isFalse();
        assertThat(store.record(unknown)).isFalse();
        assertThat(store.recordAll(List.of(ok(job, 2, counts(2)), failed(job, 3), unknown))).isEmpty();

        assertThat(job(job.id())).isEqualTo(finished);
        assertThat(store.get("no-such-job")).isEmpty();
    }

    /**
     * A job the store lost (a Redis that came back empty) is recorded again from what a coordinator last saw of it:
     * LOST, final, without its idempotency key, in the outbox once; a second coordinator's attempt, or one for a job
     * the store has, changes nothing.
     */
    @Test
    void aLostJobIsRecordedOnceFromWhatWasLastSeenOfIt() {
        // What a coordinator read of the job before the store lost it.
        JobStatus lastSeen = submitted("key-lost").withState(JobState.RUNNING).withPlanned(3, true, T0)
                .withResult(true, counts(0), Map.of());
        JobStatus seen = lastSeen;
        JobStore empty = store;
        JobStatus running = created();

        Instant lostAt = clock.peek();
        JobStatus lost = empty.recordLost(lastSeen, "record lost").orElseThrow();

        assertThat(lost).isEqualTo(lastSeen.lost("record lost", lostAt));
        assertThat(lost.state()).isEqualTo(JobState.LOST);
        assertThat(lost.idempotencyKey()).isNull();
        assertThat(lost.tasksDone()).isEqualTo(1);
        assertThat(empty.get(seen.id())).contains(lost);
        assertThat(empty.findByIdempotencyKey("key-lost")).isEmpty();
        assertThat(empty.unfinished()).containsExactly(running);
        assertThat(empty.pendingEvents()).containsExactly(seen.id());
        assertThat(empty.recordLost(lastSeen, "again")).as("recorded already").isEmpty();
        assertThat(empty.recordLost(running, "not lost")).as("a job the store has").isEmpty();
        assertThat(empty.get(running.id())).contains(running);
        assertThat(empty.record(ok(seen, 1, counts(1)))).as("a late result").isFalse();
        assertThat(empty.pendingEvents()).containsExactly(seen.id());
    }

    @Test
    void recordAllReturnsExactlyTheJobsThatGotANewResult() {
        JobStatus seen = created();
        JobStatus fresh = created();
        JobStatus other = created();
        JobStatus done = created();
        store.record(ok(seen, 0, counts(0)));
        store.finish(done.id(), JobState.SUCCEEDED, null);

        assertThat(store.recordAll(List.of())).isEmpty();
        assertThat(store.recordAll(List.of(ok(seen, 0, counts(0)), ok(fresh, 0, counts(0)), failed(other, 4),
                ok(fresh, 1, counts(1)), ok(done, 0, counts(0)), ok(fresh, 0, counts(0)))))
                .containsExactlyInAnyOrder(fresh.id(), other.id());

        assertThat(job(seen.id()).tasksDone()).isEqualTo(1);
        assertThat(job(fresh.id()).tasksDone()).isEqualTo(2);
        assertThat(job(fresh.id()).counts()).isEqualTo(counts(0).plus(counts(1)));
        assertThat(job(other.id()).tasksFailed()).isEqualTo(1);
        assertThat(job(done.id()).tasksDone()).isZero();
    }

    @Test
    void finishMakesAJobFinalAndKeepsItsProgress() {
        JobStatus job = created();
        store.planned(job.id(), 2, true);
        store.recordAll(List.of(ok(job, 0, counts(0)), failed(job, 1)));
        JobStatus before = job(job.id());

        Instant finishedAt = clock.peek();
        JobStatus finished = store.finish(job.id(), JobState.FAILED, "1 task failed").orElseThrow();

        assertThat(finished).isEqualTo(before.withFinalState(JobState.FAILED, "1 task failed", finishedAt));
        assertThat(job(job.id())).isEqualTo(finished);
        assertThat(store.finish(job.id(), JobState.SUCCEEDED, null)).isEmpty();
        assertThat(job(job.id())).isEqualTo(finished);
    }

    @Test
    void finishRefusesANonFinalStateAndAnUnknownJob() {
        JobStatus job = created();

        assertThatThrownBy(() -> store.finish(job.id(), JobState.RUNNING, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.finish("no-such-job", JobState.CANCELLED, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(job(job.id())).isEqualTo(job);
    }

    @Test
    void whenEightThreadsRaceToFinishAJobExactlyOneMakesItFinal() throws Exception {
        JobStatus job = created();
        JobState[] states = {JobState.SUCCEEDED, JobState.FAILED, JobState.CANCELLED};
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<Optional<JobStatus>>> attempts = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                JobState state = states[i % states.length];
                attempts.add(threads.submit(() -> {
                    start.await();
                    return store.finish(job.id(), state, "by " + state);
                }));
            }
            start.countDown();
            List<JobStatus> winners = new ArrayList<>();
            for (Future<Optional<JobStatus>> attempt : attempts) {
                attempt.get(30, TimeUnit.SECONDS).ifPresent(winners::add);
            }

            assertThat(winners).hasSize(1);
            assertThat(job(job.id())).isEqualTo(winners.getFirst());
            assertThat(winners.getFirst().reason()).isEqualTo("by " + winners.getFirst().state());
            assertThat(store.pendingEvents()).containsExactly(job.id());
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void theOutboxHoldsFinishedJobsOldestFirstUntilTheirEventIsSent() {
        JobStatus first = created();
        JobStatus second = created();
        JobStatus third = created();
        created();
        assertThat(store.pendingEvents()).isEmpty();

        store.finish(second.id(), JobState.SUCCEEDED, null);
        store.finish(first.id(), JobState.FAILED, "broken");
        store.finish(third.id(), JobState.CANCELLED, "cancelled");

        assertThat(store.pendingEvents()).containsExactly(second.id(), first.id(), third.id());
        store.eventSent(first.id());
        store.eventSent("no-such-job");
        assertThat(store.pendingEvents()).containsExactly(second.id(), third.id());
    }

    @Test
    void unfinishedListsOnlyTheJobsNotFinalYet() {
        assertThat(store.unfinished()).isEmpty();
        JobStatus planning = created();
        JobStatus running = created();
        JobStatus finished = created();
        store.planned(running.id(), 4, false);
        store.finish(finished.id(), JobState.SUCCEEDED, null);

        assertThat(store.unfinished()).extracting(JobStatus::id)
                .containsExactlyInAnyOrder(planning.id(), running.id());
        assertThat(store.unfinished()).contains(job(running.id()));
        assertThat(store.countUnfinished()).isEqualTo(2);
    }

    @Test
    void countByStateCountsEveryKnownJobInItsState() {
        assertThat(store.countByState().values()).allMatch(count -> count == 0);
        created();
        store.planned(created().id(), 4, false);
        store.planned(created().id(), 4, false);
        store.finish(created().id(), JobState.SUCCEEDED, null);
        store.finish(created().id(), JobState.CANCELLED, "cancelled");

        assertThat(store.countByState()).containsOnly(Map.entry(JobState.PLANNING, 1L),
                Map.entry(JobState.RUNNING, 2L), Map.entry(JobState.SUCCEEDED, 1L), Map.entry(JobState.CANCELLED, 1L));
    }

    /** A clock that moves one millisecond forward each time it is read, so successive events never tie. */
    protected static final class TickingClock extends Clock {
        private final AtomicLong millis = new AtomicLong(T0.plus(Duration.ofDays(1)).toEpochMilli());

        /** The instant the next read returns. */
        public Instant peek() {
            return Instant.ofEpochMilli(millis.get());
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.getAndIncrement());
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }
}
