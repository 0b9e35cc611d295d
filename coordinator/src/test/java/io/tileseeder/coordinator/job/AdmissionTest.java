package io.tileseeder.coordinator.job;

import static io.tileseeder.coordinator.job.JobFixtures.LAYERS;
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
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
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

    @BeforeEach
    void parts() {
        Outages outages = new Outages(Duration.ofMinutes(10), Clock.systemUTC());
        finisher = new Finisher(store, LAYERS, new FileTileStore(tiles), outages,
                new JobMetrics(new SimpleMeterRegistry(), store), new Waiters(store, new LocalJobGate(store), 1));
        // One planner thread and a queue of one task: planners stay busy for as long as the test runs.
        planner = new Planner(store, new InMemoryTaskQueue(1, 1), new LocalMetatileLock(), outages, finisher, 1, 1000);
    }

    @AfterEach
    void close() {
        planner.close();
    }

    private Admission admission(int maxRunningJobs) {
        return new Admission(VALIDATOR, store, Clock.systemUTC(), maxRunningJobs,
                new JobMetrics(new SimpleMeterRegistry(), store), planner, finisher);
    }

    @Test
    void aKeyUsedAgainReturnsItsJobForTheSameSpecAndIsRefusedForAnother() {
        Admission admission = admission(10);
        JobStatus first = admission.submit(world(3), "key-1");

        assertThat(admission.submit(world(3), "key-1").id()).isEqualTo(first.id());
        assertThatThrownBy(() -> admission.submit(world(4), "key-1"))
                .isInstanceOf(IdempotencyConflictException.class);
        assertThat(store.list(10)).hasSize(1);
    }

    @Test
    void aJobBeyondTheRunningLimitIsRefusedWithTheCount() {
        Admission admission = admission(1);
        admission.submit(world(3), null);

        assertThatThrownBy(() -> admission.submit(world(3), null)).isInstanceOf(TooManyJobsException.class)
                .hasMessage("1 jobs are running, the limit is 1; wait for one to finish or cancel one");
        assertThat(store.list(10)).hasSize(1);
    }

    @Test
    void aJobNoPlannerCanTakeIsRefusedAndRecordedFailedRatherThanOrphaned() {
        Admission admission = admission(10);
        admission.submit(world(3), null);
        admission.submit(world(3), null);

        assertThatThrownBy(() -> admission.submit(world(3), null)).isInstanceOf(TooManyJobsException.class)
                .hasMessage("every planner is busy (10); try again shortly");
        JobStatus refused = store.list(1).getFirst();
        assertThat(refused.state()).isEqualTo(JobState.FAILED);
        assertThat(refused.reason()).isEqualTo("refused: every planner is busy");
    }
}
