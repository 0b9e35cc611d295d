package io.tileseeder.coordinator.job;

import static io.tileseeder.coordinator.job.JobFixtures.submitted;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.adapters.memory.InMemoryJobStore;
import io.tileseeder.adapters.memory.LocalJobGate;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.TooManyJobsException;
import io.tileseeder.port.JobGate;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class WaitersTest {

    private final InMemoryJobStore store = new InMemoryJobStore(Clock.systemUTC(), 100);
    private final LocalJobGate gate = new LocalJobGate(store);
    private final Waiters waiters = new Waiters(store, gate, 2);

    @Test
    void aWaiterIsReleasedOnlyOnceTheLastPassOfItsFinalJobIsClosed() {
        String id = submitted(store, 1).id();
        JobGate.Pass pass = gate.enter(id).orElseThrow();
        CompletableFuture<JobStatus> waiting = waiters.awaitFinal(id, Duration.ofMinutes(1)).orElseThrow();
        store.finish(id, JobState.CANCELLED, "cancelled");

        waiters.releaseSettled();
        assertThat(waiting).as("a worker is still storing a tile of the job").isNotDone();

        pass.close();
        waiters.releaseSettled();
        assertThat(waiting).isCompletedWithValueMatching(job -> job.state() == JobState.CANCELLED);
    }

    @Test
    void aSettledJobOrAZeroTimeoutAnswersAtOnceWithoutTakingAPlace() {
        String running = submitted(store, 1).id();
        String cancelled = submitted(store, 1).id();
        store.finish(cancelled, JobState.CANCELLED, "cancelled");

        for (int i = 0; i < 5; i++) {
            assertThat(waiters.awaitFinal(running, Duration.ZERO).orElseThrow()).isCompleted();
            assertThat(waiters.awaitFinal(cancelled, Duration.ofMinutes(1)).orElseThrow()).isCompleted();
        }
        assertThat(waiters.awaitFinal("nobody", Duration.ofMinutes(1))).isEmpty();
    }

    @Test
    void waitersBeyondTheLimitAreRefusedUntilOneTimesOut() {
        String id = submitted(store, 1).id();
        waiters.awaitFinal(id, Duration.ofMinutes(1)).orElseThrow();
        // Long enough that it still holds its place when the next waiter comes, however slow the machine.
        CompletableFuture<JobStatus> brief = waiters.awaitFinal(id, Duration.ofSeconds(2)).orElseThrow();

        assertThatThrownBy(() -> waiters.awaitFinal(id, Duration.ofMinutes(1)))
                .isInstanceOf(TooManyJobsException.class);

        assertThat(brief.join().state()).as("as it is when the timeout runs out").isEqualTo(JobState.PLANNING);
        assertThat(waiters.awaitFinal(id, Duration.ofMinutes(1))).isPresent();
    }
}
