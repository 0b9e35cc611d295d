package io.tileseeder.coordinator.job;

import static io.tileseeder.coordinator.job.JobFixtures.LAYERS;
import static io.tileseeder.coordinator.job.JobFixtures.fixedShares;
import static io.tileseeder.coordinator.job.JobFixtures.submitted;
import static io.tileseeder.coordinator.job.JobFixtures.succeeded;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tileseeder.adapters.LoggedRecords;
import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.adapters.memory.InMemoryJobStore;
import io.tileseeder.adapters.memory.InMemoryTaskQueue;
import io.tileseeder.adapters.memory.LocalJobGate;
import io.tileseeder.adapters.memory.LocalMetatileLock;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.message.JobEvent;
import io.tileseeder.outage.Outages;
import io.tileseeder.plan.MetatilePlans;
import io.tileseeder.port.JobStore;
import io.tileseeder.port.Layout;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job store that comes back without its data (a Redis restarted without AOF) while a job runs: the coordinators
 * that knew the job record it as LOST and announce it once, so nobody waits forever for its event.
 */
class RecoveryTest {

    @TempDir
    Path tiles;

    /** The store the coordinators see: the one before the loss, then an empty one. */
    private final AtomicReference<JobStore> redis = new AtomicReference<>(new InMemoryJobStore(Clock.systemUTC(), 100));
    private final JobStore store = (JobStore) Proxy.newProxyInstance(JobStore.class.getClassLoader(),
            new Class<?>[] {JobStore.class}, (proxy, method, args) -> {
                try {
                    return method.invoke(redis.get(), args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });
    private final List<Planner> planners = new ArrayList<>();
    private Waiters waiters;

    /** One coordinator's recovery over the store. */
    private Recovery coordinator() {
        Outages outages = new Outages(Duration.ofMinutes(10), Clock.systemUTC());
        LocalJobGate gate = new LocalJobGate(store);
        JobMetrics metrics = new JobMetrics(new SimpleMeterRegistry(), store);
        waiters = new Waiters(store, gate, 4);
        Finisher finisher = new Finisher(store, LAYERS, new FileTileStore(tiles), gate, outages, metrics, waiters,
                () -> { });
        Planner planner = new Planner(store, new InMemoryTaskQueue(10_000, 1), new LocalMetatileLock(), outages,
                finisher, 1, fixedShares(store, 1000), new MetatilePlans(4));
        planners.add(planner);
        return new Recovery(store, metrics, planner, finisher, new JobQueue(store, new LocalMetatileLock(), planner,
                metrics, 4));
    }

    @AfterEach
    void close() {
        planners.forEach(Planner::close);
    }

    /** A job planned (5 tasks), with a result for two of them: running, as the sweeps see it. */
    private JobStatus running() {
        JobStatus job = submitted(store, 1);
        store.start(job.id());
        store.planned(job.id(), 5, true);
        store.record(succeeded(job.id(), 0));
        store.record(succeeded(job.id(), 1));
        return store.get(job.id()).orElseThrow();
    }

    @Test
    void aRunningJobWhoseRecordIsLostIsRecordedLostAnnouncedOnceAndLoggedOnce() throws Exception {
        Recovery one = coordinator();
        Recovery two = coordinator();
        JobStatus job = running();
        one.run();
        two.run();
        CompletableFuture<JobStatus> waiting = waiters.awaitFinal(job.id(), Duration.ofMinutes(1)).orElseThrow();

        redis.set(new InMemoryJobStore(Clock.systemUTC(), 100));
        List<LogRecord> logged;
        try (LoggedRecords log = LoggedRecords.of(Finisher.class)) {
            one.run();
            two.run();
            one.run();
            logged = log.records();
        }

        JobStatus lost = store.get(job.id()).orElseThrow();
        assertThat(lost.state()).isEqualTo(JobState.LOST);
        assertThat(lost.state().isFinal()).isTrue();
        assertThat(lost.reason()).contains("lost the job's record while it was RUNNING")
                .contains("submit the job again");
        assertThat(lost.tasksDone()).as("what was last seen of it").isEqualTo(2);
        assertThat(lost.tasksPlanned()).isEqualTo(5);
        assertThat(lost.spec()).isEqualTo(job.spec());
        assertThat(logged).singleElement().satisfies(record -> {
            assertThat(record.getLevel()).isEqualTo(Level.WARNING);
            assertThat(record.getMessage()).startsWith("job " + job.id() + " LOST: ");
        });
        waiters.releaseSettled(); // the sweep of the coordinator that did not record it
        assertThat(waiting).as("a client waiting on the other coordinator").isCompletedWithValueMatching(
                finished -> finished.state() == JobState.LOST);

        List<JobEvent> sent = new ArrayList<>();
        new Outbox(store, new LocalJobGate(store), sent::add, Clock.systemUTC(), Layout.XYZ).sendPending();
        assertThat(sent).singleElement().satisfies(event -> {
            assertThat(event.jobId()).isEqualTo(job.id());
            assertThat(event.state()).isEqualTo(JobState.LOST);
            assertThat(event.reason()).isEqualTo(lost.reason());
        });
        assertThat(store.record(succeeded(job.id(), 2))).as("a late result is not counted").isFalse();
    }

    /**
     * A job this replica admitted is watched before any run: lost before the next one, the first read that misses it
     * records it as LOST (the API's read, a client's wait), so no client is told "no such job" meanwhile.
     */
    @Test
    void aReadThatMissesAWatchedJobRecordsItLostAtOnce() {
        Recovery coordinator = coordinator();
        JobStatus admitted = running();
        coordinator.watch(admitted);
        redis.set(new InMemoryJobStore(Clock.systemUTC(), 100));

        assertThat(coordinator.recordIfLost("never-seen")).isEmpty();
        assertThat(coordinator.recordIfLost(admitted.id())).hasValueSatisfying(job -> {
            assertThat(job.state()).isEqualTo(JobState.LOST);
            assertThat(job.tasksDone()).isEqualTo(2);
        });
        coordinator.run();
        assertThat(store.pendingEvents()).as("recorded once").containsExactly(admitted.id());
    }

    @Test
    void aJobThatFinishedOrWasNeverSeenIsNotLost() {
        Recovery coordinator = coordinator();
        JobStatus finished = running();
        coordinator.run();
        store.finish(finished.id(), JobState.CANCELLED, "cancelled");

        coordinator.run();
        JobStatus unseen = running();
        redis.set(new InMemoryJobStore(Clock.systemUTC(), 100));
        coordinator.run();

        assertThat(store.get(finished.id())).as("finished before the loss: only forgotten").isEmpty();
        assertThat(store.get(unseen.id())).as("lost before any sweep saw it: unknown").isEmpty();
        assertThat(store.pendingEvents()).isEmpty();
    }
}
