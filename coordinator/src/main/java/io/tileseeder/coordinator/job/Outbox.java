package io.tileseeder.coordinator.job;

import io.tileseeder.job.JobStatus;
import io.tileseeder.job.Mode;
import io.tileseeder.message.JobEvent;
import io.tileseeder.port.ChangeLists;
import io.tileseeder.port.JobEventSink;
import io.tileseeder.port.JobGate;
import io.tileseeder.port.JobStore;
import io.tileseeder.port.Layout;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * Sends the final events of the store's outbox ({@link JobStore#pendingEvents}): a job's event goes out only when no
 * job-gate pass of it is open (a worker writing its tiles, a finisher its documents), so nothing of the job is
 * written after its event, and leaves the outbox only once sent. The event's time is when it was sent: the job
 * became final earlier ({@link JobStatus#finished}), and what was being written then has been written since, so no
 * object of the job is newer than its event. Since the outbox is recorded state, a coordinator that restarts re-sends what was not acknowledged:
 * consumers may see an event twice, never miss one. Runs on the {@link Housekeeping} thread.
 */
final class Outbox {

    private final JobStore store;
    private final JobGate gate;
    private final JobEventSink events;
    private final Clock clock;
    /** The tile store's layout, which says where the change lists an event names are. */
    private final Layout layout;

    Outbox(JobStore store, JobGate gate, JobEventSink events, Clock clock, Layout layout) {
        this.store = store;
        this.gate = gate;
        this.events = events;
        this.clock = clock;
        this.layout = layout;
    }

    void sendPending() {
        for (String id : store.pendingEvents()) {
            if (gate.passesOpen(id) > 0) {
                continue; // a worker is still writing tiles of the job: its final event waits for them
            }
            Optional<JobStatus> job = store.get(id);
            if (job.isPresent()) {
                try {
                    events.send(event(job.get(), clock.instant(), layout));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            store.eventSent(id);
        }
    }

    private static JobEvent event(JobStatus job, Instant now, Layout layout) {
        String changes = job.spec().mode() == Mode.RESEED
                ? ChangeLists.folder(layout, job.spec().layer(), job.spec().tileMatrixSet(), job.id()) : null;
        return new JobEvent(JobEvent.VERSION, job.id(), job.state(),
                now.isBefore(job.finished()) ? job.finished() : now, job.counts(), job.tasksFailed(),
                job.failedTasks(), job.reason(), job.spec().labels(), changes);
    }
}
