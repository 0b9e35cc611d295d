package io.tileseeder.coordinator.job;

import static io.tileseeder.coordinator.job.JobFixtures.VALIDATOR;
import static io.tileseeder.coordinator.job.JobFixtures.submitted;
import static io.tileseeder.coordinator.job.JobFixtures.succeeded;
import static io.tileseeder.coordinator.job.JobFixtures.world;
import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.adapters.memory.InMemoryJobStore;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SharesTest {

    private final InMemoryJobStore store = new InMemoryJobStore(Clock.systemUTC(), 100);
    private final AtomicLong nanos = new AtomicLong();
    private long nextSeq;

    private Shares shares(int minAhead, int maxAhead) {
        return new Shares(store, Duration.ofSeconds(2), minAhead, maxAhead, nanos::get);
    }

    private JobStatus planning(int maxZoom, int priority) {
        String id = submitted(store, maxZoom, priority).id();
        return store.planned(id, 1, false);
    }

    /** Advances the clock past the snapshot's age, with {@code results} results of the job recorded meanwhile. */
    private void results(JobStatus job, int results, Duration over) {
        for (int i = 0; i < results; i++) {
            store.record(succeeded(job.id(), nextSeq++));
        }
        nanos.addAndGet(over.toNanos());
    }

    @Test
    void beforeAnyRateIsKnownAJobGetsTheLeastShare() {
        Shares shares = shares(16, 1000);
        JobStatus job = planning(6, 0);

        assertThat(shares.allowance(job)).isEqualTo(16);
    }

    @Test
    void theQueueHoldsTheLeadAtTheMeasuredRateSplitEvenlyAmongJobsOfEqualPriority() {
        Shares shares = shares(16, 1000);
        JobStatus first = planning(6, 0);
        shares.allowance(first);
        for (int second = 0; second < 5; second++) {
            results(first, 20, Duration.ofMillis(250)); // 80 results a second
            shares.allowance(first);
        }
        assertThat(shares.rate()).isEqualTo(80.0);
        assertThat(shares.allowance(first)).as("2 s at 80/s").isEqualTo(160);

        JobStatus second = planning(6, 0);
        results(first, 20, Duration.ofMillis(250)); // still 80 a second
        assertThat(shares.allowance(first)).as("half of 160 each").isEqualTo(80);
        assertThat(shares.allowance(second)).isEqualTo(80);
    }

    @Test
    void aShareStaysWithinTheLeastAndTheMost() {
        Shares shares = shares(16, 100);
        JobStatus job = planning(6, 0);
        shares.allowance(job);
        for (int i = 0; i < 5; i++) {
            results(job, 1000, Duration.ofMillis(250));
            shares.allowance(job);
        }
        assertThat(shares.allowance(job)).isEqualTo(100);

        for (int i = 0; i < 30; i++) {
            results(job, 1, Duration.ofMillis(250)); // 4 a second: 8 tasks of lead, below the least share
            shares.allowance(job);
        }
        assertThat(shares.allowance(job)).isEqualTo(16);
    }

    @Test
    void aJobQueuesNothingWhileAJobOfHigherPriorityPlansAndItsShareOnceThatOneIsPlanned() {
        Shares shares = shares(16, 1000);
        JobStatus low = planning(6, -1);
        JobStatus normal = planning(6, 0);
        JobStatus high = planning(6, 3);

        assertThat(shares.allowance(high)).isEqualTo(16);
        assertThat(shares.allowance(normal)).isZero();
        assertThat(shares.allowance(low)).isZero();

        store.planned(high.id(), 5, true);
        nanos.addAndGet(Shares.REFRESH.toNanos() + 1);
        assertThat(shares.allowance(normal)).isEqualTo(16);
        assertThat(shares.allowance(low)).isZero();

        store.finish(normal.id(), JobState.CANCELLED, "cancelled");
        nanos.addAndGet(Shares.REFRESH.toNanos() + 1);
        assertThat(shares.allowance(low)).isEqualTo(16);
    }

    @Test
    void queuedJobsTakeNoShare() {
        Shares shares = shares(16, 1000);
        JobStatus running = planning(6, 0);
        store.create(JobStatus.queued("queued", VALIDATOR.validate(world(6, 9)), 1, running.created(), null));

        assertThat(shares.allowance(running)).isEqualTo(16);
    }
}
