package io.tileseeder.coordinator.job;

import static io.tileseeder.coordinator.job.JobFixtures.LAYERS;
import static io.tileseeder.coordinator.job.JobFixtures.fixedShares;
import static io.tileseeder.coordinator.job.JobFixtures.VALIDATOR;
import static io.tileseeder.coordinator.job.JobFixtures.world;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.adapters.memory.InMemoryJobStore;
import io.tileseeder.adapters.memory.InMemoryTaskQueue;
import io.tileseeder.adapters.memory.LocalJobGate;
import io.tileseeder.adapters.memory.LocalMetatileLock;
import io.tileseeder.job.IdempotencyConflictException;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.TooManyJobsException;
import io.tileseeder.outage.Outages;
import io.tileseeder.plan.MetatilePlans;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdmissionTest {

    @TempDir
    Path tiles;

    private final InMemoryJobStore store = new InMemoryJobStore(Clock.systemUTC(), 100);
    private Planner planner;
    private Finisher finisher;
    private JobQueue queue;

    @BeforeEach
    void parts() {
        Outages outages = new Outages(Duration.ofMinutes(10), Clock.systemUTC());
        LocalJobGate gate = new LocalJobGate(store);
        finisher = new Finisher(store, LAYERS, new FileTileStore(tiles), gate, outages,
                new JobMetrics(new SimpleMeterRegistry(), store), new Waiters(store, gate, 1), () -> { });
        // One planner thread and a queue of one task: planners stay busy for as long as the test runs.
        planner = new Planner(store, new InMemoryTaskQueue(1, 1), new LocalMetatileLock(), outages, finisher, 1,
                fixedShares(store, 1000), new MetatilePlans(4));
    }

    @AfterEach
    void close() {
        planner.close();
    }

    private Admission admission(int maxRunningJobs, int maxQueuedJobs) {
        JobMetrics metrics = new JobMetrics(new SimpleMeterRegistry(), store);
        queue = new JobQueue(store, new LocalMetatileLock(), planner, metrics, maxRunningJobs);
        return new Admission(VALIDATOR, store, Clock.systemUTC(), maxRunningJobs, maxQueuedJobs, metrics, planner,
                queue);
    }

    @Test
    void aKeyUsedAgainReturnsItsJobForTheSameSpecAndIsRefusedForAnother() {
        Admission admission = admission(10, 0);
        JobStatus first = admission.submit(world(3), "key-1");

        assertThat(admission.submit(world(3), "key-1").id()).isEqualTo(first.id());
        assertThatThrownBy(() -> admission.submit(world(4), "key-1"))
                .isInstanceOf(IdempotencyConflictException.class);
        assertThat(store.list(10)).hasSize(1);
    }

    @Test
    void jobsBeyondTheRunningLimitAreQueuedAndBeyondTheQueueRefusedWithTheCounts() {
        Admission admission = admission(1, 2);
        assertThat(admission.submit(world(3), null).state()).isEqualTo(JobState.PLANNING);
        assertThat(admission.submit(world(3), null).state()).isEqualTo(JobState.QUEUED);
        assertThat(admission.submit(world(3), null).state()).isEqualTo(JobState.QUEUED);

        assertThatThrownBy(() -> admission.submit(world(3), null)).isInstanceOf(TooManyJobsException.class)
                .hasMessage("3 jobs are running or queued, the limits are 1 running and 2 queued; wait for one to "
                        + "finish or cancel one");
        assertThat(store.list(10)).hasSize(3);
    }

    @Test
    void queuedJobsStartHighestPriorityFirstThenInTheOrderTheyCameAsPlacesFree() {
        Admission admission = admission(1, 10);
        String running = admission.submit(world(3, 0), null).id();
        String low = admission.submit(world(3, -1), null).id();
        String first = admission.submit(world(3, 0), null).id();
        String high = admission.submit(world(3, 5), null).id();
        String second = admission.submit(world(3, 0), null).id();
        assertThat(JobQueue.positions(store.unfinished()))
                .containsExactlyInAnyOrderEntriesOf(Map.of(high, 1, first, 2, second, 3, low, 4));

        List<String> startOrder = new ArrayList<>();
        String current = running;
        for (int i = 0; i < 4; i++) {
            store.finish(current, JobState.CANCELLED, "cancelled");
            queue.startWhatFits();
            List<JobStatus> started = store.unfinished().stream().filter(job -> job.state() != JobState.QUEUED)
                    .toList();
            assertThat(started).as("one place: one job started").hasSize(1);
            current = started.getFirst().id();
            startOrder.add(current);
        }
        assertThat(startOrder).containsExactly(high, first, second, low);
    }

    @Test
    void aCancelledQueuedJobNeverStartsAndLeavesTheQueue() {
        Admission admission = admission(1, 10);
        String running = admission.submit(world(3), null).id();
        String cancelled = admission.submit(world(3), null).id();
        String next = admission.submit(world(3), null).id();

        store.finish(cancelled, JobState.CANCELLED, "cancelled");
        assertThat(JobQueue.positions(store.unfinished())).containsExactly(Map.entry(next, 1));
        store.finish(running, JobState.CANCELLED, "cancelled");
        queue.startWhatFits();

        assertThat(store.get(cancelled).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
        assertThat(store.get(next).orElseThrow().state()).isEqualTo(JobState.PLANNING);
    }

    @Test
    void aJobStartedWhileEveryPlannerIsBusyStaysPlanningForTheRecoveryInsteadOfFailing() {
        Admission admission = admission(10, 0);
        admission.submit(world(3), null);
        admission.submit(world(3), null);

        JobStatus waiting = admission.submit(world(3), null);

        assertThat(waiting.state()).isEqualTo(JobState.PLANNING);
        assertThat(waiting.reason()).isNull();
    }
}
