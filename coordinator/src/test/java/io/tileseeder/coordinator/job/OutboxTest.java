package io.tileseeder.coordinator.job;

import static io.tileseeder.coordinator.job.JobFixtures.submitted;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.adapters.memory.InMemoryJobStore;
import io.tileseeder.adapters.memory.LocalJobGate;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.message.JobEvent;
import io.tileseeder.plan.MetatilePlan;
import io.tileseeder.port.JobGate;
import io.tileseeder.port.Layout;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutboxTest {

    private final InMemoryJobStore store = new InMemoryJobStore(Clock.systemUTC(), 100);
    private final LocalJobGate gate = new LocalJobGate(store);
    private final List<JobEvent> sent = new ArrayList<>();

    @Test
    void aFinalEventWaitsForTheJobsLastPassAndIsSentOnce() {
        String id = submitted(store, 1).id();
        JobGate.Pass pass = gate.enter(id).orElseThrow();
        store.finish(id, JobState.FAILED, "planning failed");
        Instant finished = store.get(id).orElseThrow().finished();
        Instant passClosed = finished.plusSeconds(3);
        Outbox outbox = new Outbox(store, gate, sent::add, Clock.fixed(passClosed, ZoneOffset.UTC), Layout.XYZ);

        outbox.sendPending();
        assertThat(sent).as("a worker is still storing a tile of the job").isEmpty();
        assertThat(store.pendingEvents()).containsExactly(id);

        pass.close();
        outbox.sendPending();
        outbox.sendPending();
        assertThat(sent).singleElement().satisfies(event -> {
            assertThat(event.jobId()).isEqualTo(id);
            assertThat(event.time()).as("sent once the last pass closed, so newer than what it wrote")
                    .isEqualTo(passClosed);
            assertThat(event.state()).isEqualTo(JobState.FAILED);
            assertThat(event.reason()).isEqualTo("planning failed");
            assertThat(event.changes()).as("a seed changes no tile").isNull();
        });
        assertThat(store.pendingEvents()).isEmpty();
    }

    @Test
    void anEventIsNeverOlderThanItsJobsEnd() {
        String id = submitted(store, 1).id();
        store.finish(id, JobState.SUCCEEDED, null);
        Instant finished = store.get(id).orElseThrow().finished();

        new Outbox(store, gate, sent::add, Clock.fixed(finished.minusMillis(5), ZoneOffset.UTC), Layout.XYZ)
                .sendPending();

        assertThat(sent).singleElement().extracting(JobEvent::time).as("a clock behind the store's").isEqualTo(finished);
    }

    @Test
    void aReseedsEventSaysWhereTheListsOfTheTilesItChangedAre() {
        JobSpec reseed = JobFixtures.VALIDATOR.validate(new JobRequest("world", null,
                new JobRequest.Zoom(0, 1), null, null, "reseed", null, null, null, null));
        String id = store.create(JobStatus.submitted("job-r", reseed, MetatilePlan.of(reseed).tileCount(), Instant.now(), null)).id();
        store.finish(id, JobState.SUCCEEDED, null);

        new Outbox(store, gate, sent::add, Clock.systemUTC(), Layout.XYZ).sendPending();

        assertThat(sent).singleElement().extracting(JobEvent::changes)
                .isEqualTo("world/WebMercatorQuad/changes/job-r/");
    }

    @Test
    void anEventWhoseSendingFailedStaysInTheOutboxForTheNextSweep() {
        String id = submitted(store, 1).id();
        store.finish(id, JobState.CANCELLED, "cancelled");

        Outbox failing = new Outbox(store, gate, event -> {
            throw new IllegalStateException("broker gone");
        }, Clock.systemUTC(), Layout.XYZ);

        assertThatThrownBy(failing::sendPending).hasMessage("broker gone");
        assertThat(store.pendingEvents()).containsExactly(id);

        new Outbox(store, gate, sent::add, Clock.systemUTC(), Layout.XYZ).sendPending();
        assertThat(sent).extracting(JobEvent::jobId).containsExactly(id);
        assertThat(store.pendingEvents()).isEmpty();
    }
}
