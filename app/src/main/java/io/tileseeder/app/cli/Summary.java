package io.tileseeder.app.cli;

import io.tileseeder.job.JobStatus;
import io.tileseeder.job.Mode;
import io.tileseeder.server.api.JobView;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.stream.Collectors;

/** The progress line and the closing summary of a seed run. */
final class Summary {

    private Summary() {
    }

    static String progressLine(JobView job) {
        if (job.queuePosition() != null) {
            return String.format(Locale.ROOT, "%-8s position %d, %,d tiles", job.state(), job.queuePosition(),
                    job.progress().tilesPlanned());
        }
        JobView.Progress p = job.progress();
        String eta = p.etaSeconds() == null ? "--:--" : clock(p.etaSeconds());
        String line = String.format(Locale.ROOT, "%-8s %,d / %,d tiles (%.1f%%)  %,.0f tiles/s  ETA %s",
                job.state(), p.tilesDone(), p.tilesPlanned(), p.percent(), p.tilesPerSecond(), eta);
        if (job.waitingFor() == null || job.waitingFor().isEmpty()) {
            return line;
        }
        return line + "  waiting for " + job.waitingFor().stream()
                .map(w -> w.dependency() + " (" + Duration.between(w.since(), Instant.now()).toSeconds() + " s)")
                .collect(Collectors.joining(", "));
    }

    static void print(PrintWriter out, JobStatus job, String where) {
        JobView view = JobView.of(job, Instant.now());
        JobView.Progress p = view.progress();
        double seconds = job.started() == null || job.finished() == null ? 0
                : Duration.between(job.started(), job.finished()).toNanos() / 1e9;
        out.printf(Locale.ROOT, "%s %s z%d-%d (%s, %s, %s) into %s%n", job.state(), job.spec().layer(),
                job.spec().minZoom(), job.spec().maxZoom(), job.spec().tileMatrixSet().id(), job.spec().format().id(),
                job.spec().mode().id(), where);
        Mode mode = job.spec().mode();
        out.printf(Locale.ROOT, "  tiles written      %,12d%n", p.tilesWritten());
        out.printf(Locale.ROOT, "  empty, skipped     %,12d%n", p.tilesEmpty());
        out.printf(Locale.ROOT, "  %-19s%,12d%n", skipped(mode), p.tilesSkipped());
        if (p.tilesUnchanged() > 0) {
            out.printf(Locale.ROOT, "  unchanged          %,12d%n", p.tilesUnchanged());
        }
        if (p.tilesDeleted() > 0 || mode == Mode.TRUNCATE) {
            out.printf(Locale.ROOT, "  deleted            %,12d%n", p.tilesDeleted());
        }
        out.printf(Locale.ROOT, "  failed             %,12d%n", p.tilesFailed());
        out.printf(Locale.ROOT, "  bytes              %,12d%n", p.bytes());
        out.printf(Locale.ROOT, "  seconds            %12.2f%n", seconds);
        out.printf(Locale.ROOT, "  tiles/s            %,12.0f%n", seconds > 0 ? p.tilesDone() / seconds : 0.0);
        out.flush();
    }

    /**
     * What the tiles a job skipped were, by its mode: already there (seed), written since {@code --refresh-before}
     * (reseed), or not there to delete (truncate).
     */
    static String skipped(Mode mode) {
        return switch (mode) {
            case SEED -> "already there";
            case RESEED -> "fresh enough";
            case TRUNCATE -> "not there";
            case PACK -> "skipped";
        };
    }

    private static String clock(long seconds) {
        return seconds >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
                : String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
    }
}
