package io.tileseeder.coordinator.job;

import static io.tileseeder.coordinator.job.JobFixtures.LAYERS;
import static io.tileseeder.coordinator.job.JobFixtures.submitted;
import static io.tileseeder.coordinator.job.JobFixtures.succeeded;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.adapters.memory.InMemoryJobStore;
import io.tileseeder.adapters.memory.InMemoryTaskQueue;
import io.tileseeder.adapters.memory.LocalJobGate;
import io.tileseeder.adapters.memory.LocalMetatileLock;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.outage.Outages;
import io.tileseeder.port.MetatileLock;
import io.tileseeder.port.TaskDelivery;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PlannerTest {

    @TempDir
    Path tiles;

    private final InMemoryJobStore store = new InMemoryJobStore(Clock.systemUTC(), 100);
    private final LocalMetatileLock planLocks = new LocalMetatileLock();
    private Planner planner;

    private Planner planner(InMemoryTaskQueue queue, int threads, int maxAhead) {
        Outages outages = new Outages(Duration.ofMinutes(10), Clock.systemUTC());
        Finisher finisher = new Finisher(store, LAYERS, new FileTileStore(tiles), outages,
                new JobMetrics(new SimpleMeterRegistry(), store), new Waiters(store, new LocalJobGate(store), 1));
        planner = new Planner(store, queue, planLocks, outages, finisher, threads, maxAhead);
        return planner;
    }

    @AfterEach
    void close() {
        planner.close();
    }

    @Test
    void thePlannerStaysAtMostMaxAheadTasksAheadOfTheResults() throws InterruptedException {
        InMemoryTaskQueue queue = new InMemoryTaskQueue(10_000, 1);
        String id = submitted(store, 5).id(); // 1 365 tasks
        planner(queue, 1, 8).start(id);

        eventually(() -> store.get(id).orElseThrow().tasksPlanned() == 8);
        Thread.sleep(500);
        assertThat(queue.size()).as("no result yet: the planner waits").isEqualTo(8);

        store.record(succeeded(id, 0));
        store.record(succeeded(id, 1));
        eventually(() -> store.get(id).orElseThrow().tasksPlanned() == 10);
        Thread.sleep(500);
        assertThat(queue.size()).isEqualTo(10);
    }

    @Test
    void aPlanResumesFromTheRecordedCursor() throws InterruptedException {
        InMemoryTaskQueue queue = new InMemoryTaskQueue(10_000, 1);
        String id = submitted(store, 2).id(); // 21 tasks
        store.planned(id, 5, false);

        planner(queue, 1, 1000).start(id);

        eventually(() -> store.get(id).orElseThrow().planningDone());
        JobStatus job = store.get(id).orElseThrow();
        assertThat(job.tasksPlanned()).isEqualTo(21);
        assertThat(job.state()).as("no result yet").isEqualTo(JobState.RUNNING);
        assertThat(queue.size()).isEqualTo(16);
        assertThat(queue.poll(Duration.ZERO).map(TaskDelivery::task).orElseThrow().seq()).isEqualTo(5);
    }

    @Test
    void aJobWhosePlanningLockIsHeldElsewhereIsLeftToThatPlanner() throws InterruptedException {
        InMemoryTaskQueue queue = new InMemoryTaskQueue(10_000, 1);
        String id = submitted(store, 1).id();
        Planner planner = planner(queue, 1, 1000);
        MetatileLock.Lease other = planLocks.tryLock("plan/" + id, Duration.ZERO).orElseThrow();

        planner.start(id);
        Thread.sleep(300);
        assertThat(queue.size()).isZero();

        other.close();
        eventually(() -> planner.start(id) && store.get(id).orElseThrow().planningDone());
        assertThat(queue.size()).as("planned once").isEqualTo(5);
    }

    @Test
    void plannersAreBoundedAndOneWaitingOnAFullQueueStopsWhenItsJobIsCancelled() throws InterruptedException {
        InMemoryTaskQueue queue = new InMemoryTaskQueue(1, 1);
        Planner planner = planner(queue, 1, 1000);
        String cancelled = submitted(store, 2).id();
        String next = submitted(store, 0).id();

        assertThat(planner.start(cancelled)).isTrue();
        assertThat(planner.start(next)).as("waits for the planner thread").isTrue();
        assertThat(planner.start(submitted(store, 0).id())).as("every planner busy").isFalse();
        assertThat(planner.start(cancelled)).as("planned already: no second planner").isTrue();

        eventually(() -> queue.size() == 1);
        store.finish(cancelled, JobState.CANCELLED, "cancelled");
        Thread.sleep(500); // past the planner's next look at its job, so the freed place goes to the next job
        assertThat(queue.poll(Duration.ZERO).map(TaskDelivery::task).orElseThrow().jobId()).isEqualTo(cancelled);

        eventually(() -> store.get(next).orElseThrow().planningDone());
        assertThat(queue.poll(Duration.ZERO).map(TaskDelivery::task).orElseThrow().jobId()).isEqualTo(next);
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            Thread.sleep(20);
        }
    }
}
