package io.tileseeder.server.api;

import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.message.TileCounts;
import io.tileseeder.outage.Outages;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A job as the API shows it: its spec with defaults filled in, its state and its progress, its place in the queue
 * while it is QUEUED (1 starts next; null otherwise), and while it is not final, what it is waiting for
 * (dependencies the coordinator finds unreachable now; empty when none).
 */
public record JobView(String id, JobState state, Integer queuePosition, JobRequest spec, Instant created,
                      Instant started, Instant finished, Progress progress, List<FailedTask> failedTasks,
                      String reason, List<Waiting> waitingFor) {

    /**
     * @param tilesDone      tiles with an outcome (written, empty, skipped, deleted, failed or unchanged)
     * @param tilesUnchanged tiles a reseed encoded to the bytes the store held, so did not write again
     * @param tilesPerSecond average since the job started
     * @param etaSeconds     at that rate; null when unknown or finished
     */
    public record Progress(long tilesPlanned, long tilesDone, long tilesWritten, long tilesEmpty,
                           long tilesSkipped, long tilesDeleted, long tilesFailed, long bytes, long tasksPlanned,
                           boolean planningDone, long tasksDone, long tasksFailed, double percent,
                           double tilesPerSecond, Long etaSeconds, long tilesUnchanged) {
    }

    public record FailedTask(long task, String reason) {
    }

    /** A dependency unreachable {@code since}, with the last error met. */
    public record Waiting(String dependency, Instant since, String reason) {
    }

    public static JobView of(JobStatus job, Instant now) {
        return of(job, now, List.of(), Map.of());
    }

    /**
     * The job, waiting for {@code outages} unless it is final, at its place among {@code queuePositions} (by job id)
     * while it is queued.
     */
    public static JobView of(JobStatus job, Instant now, List<Outages.Outage> outages,
                             Map<String, Integer> queuePositions) {
        TileCounts counts = job.counts();
        long done = counts.tiles();
        Instant end = job.finished() != null ? job.finished() : now;
        double seconds = job.started() == null ? 0 : Duration.between(job.started(), end).toNanos() / 1e9;
        double rate = seconds > 0 ? done / seconds : 0;
        Long eta = job.state().isFinal() || rate <= 0 ? null
                : (long) Math.ceil(Math.max(0, job.tilesPlanned() - done) / rate);
        double percent = job.tilesPlanned() == 0 ? 100 : Math.min(100, 100.0 * done / job.tilesPlanned());
        Progress progress = new Progress(job.tilesPlanned(), done, counts.written(), counts.empty(), counts.skipped(),
                counts.deleted(), counts.failed(), counts.bytes(), job.tasksPlanned(), job.planningDone(),
                job.tasksDone(), job.tasksFailed(), Math.round(percent * 10) / 10.0, Math.round(rate * 10) / 10.0,
                eta, counts.unchanged());
        List<FailedTask> failed = job.failedTasks().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> new FailedTask(e.getKey(), e.getValue())).toList();
        List<Waiting> waiting = job.state().isFinal() ? List.of() : outages.stream()
                .map(outage -> new Waiting(outage.dependency(), outage.since(), outage.message())).toList();
        Integer position = job.state() == JobState.QUEUED ? queuePositions.get(job.id()) : null;
        return new JobView(job.id(), job.state(), position, job.spec().toRequest(), job.created(), job.started(),
                job.finished(), progress, failed, job.reason(), waiting);
    }
}
