package io.tileseeder.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import io.tileseeder.message.TileCounts;
import io.tileseeder.outage.Outages;
import io.tileseeder.server.api.JobView;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a job shows while a dependency is unreachable: in the API's view and in the progress line; and the closing
 * summary of each mode.
 */
class SummaryTest {

    private static final JobSpec SPEC = new JobSpec("world", TileMatrixSet.WEB_MERCATOR_QUAD, 0, 2,
            new Bounds(-180, -85, 180, 85), TileFormat.PNG, Mode.SEED, MetatileSize.DEFAULT, null, 0, Map.of());
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
    private static final List<Outages.Outage> REDIS_DOWN = List.of(
            new Outages.Outage("Redis", NOW.minusSeconds(12), "Redis is unavailable: connection refused"));

    @Test
    void aRunningJobSaysWhatItIsWaitingForAndTheProgressLineShowsIt() {
        JobStatus running = JobStatus.submitted("job-1", SPEC, 21, NOW.minusSeconds(60), null);

        JobView view = JobView.of(running, NOW, REDIS_DOWN, Map.of());

        assertThat(view.waitingFor()).singleElement().satisfies(waiting -> {
            assertThat(waiting.dependency()).isEqualTo("Redis");
            assertThat(waiting.since()).isEqualTo(NOW.minusSeconds(12));
            assertThat(waiting.reason()).contains("connection refused");
        });
        assertThat(Summary.progressLine(view)).contains("waiting for Redis (");
    }

    @Test
    void aFinalJobWaitsForNothing() {
        JobStatus submitted = JobStatus.submitted("job-2", SPEC, 21, NOW.minusSeconds(60), null);
        JobStatus cancelled = new JobStatus(submitted.id(), submitted.spec(), JobState.CANCELLED, submitted.created(),
                null, NOW, 0, false, 0, 0, 21, submitted.counts(), Map.of(), "cancelled", null);

        JobView view = JobView.of(cancelled, NOW, REDIS_DOWN, Map.of());

        assertThat(view.waitingFor()).isEmpty();
        assertThat(Summary.progressLine(view)).doesNotContain("waiting");
    }

    @Test
    void aQueuedJobShowsItsPlaceInTheQueue() {
        JobStatus queued = JobStatus.queued("job-3", SPEC, 21, NOW.minusSeconds(5), null);

        JobView view = JobView.of(queued, NOW, List.of(), Map.of("job-3", 2, "job-4", 1));

        assertThat(view.queuePosition()).isEqualTo(2);
        assertThat(Summary.progressLine(view)).isEqualTo("QUEUED   position 2, 21 tiles");
        assertThat(JobView.of(JobStatus.submitted("job-4", SPEC, 21, NOW, null), NOW, List.of(),
                Map.of("job-4", 1)).queuePosition()).as("only a queued job has a place").isNull();
    }

    /** A reseed that deleted tiles that have become empty says so; its skipped tiles were fresh enough. */
    @Test
    void theSummaryOfAReseedHasItsDeletedTiles() {
        String summary = summary(Mode.RESEED, new TileCounts(3, 10, 4, 2, 0, 300, 6));

        assertThat(summary).containsPattern("(?m)^  deleted +2$").containsPattern("(?m)^  fresh enough +4$")
                .containsPattern("(?m)^  unchanged +6$").containsPattern("(?m)^  empty, skipped +10$")
                .doesNotContain("already there");
    }

    /** A truncate counts the tiles it deleted as deleted and those that were not there as not there. */
    @Test
    void theSummaryOfATruncateSaysWhatWasDeletedAndWhatWasNotThere() {
        String summary = summary(Mode.TRUNCATE, new TileCounts(0, 0, 8, 13, 0, 0, 0));

        assertThat(summary).containsPattern("(?m)^  deleted +13$").containsPattern("(?m)^  not there +8$")
                .doesNotContain("already there");
        assertThat(summary(Mode.TRUNCATE, new TileCounts(0, 0, 21, 0, 0, 0, 0))).as("nothing was there")
                .containsPattern("(?m)^  deleted +0$").containsPattern("(?m)^  not there +21$");
    }

    @Test
    void theSummaryOfASeedCountsTheTilesAlreadyThere() {
        String summary = summary(Mode.SEED, new TileCounts(5, 10, 6, 0, 0, 500, 0));

        assertThat(summary).containsPattern("(?m)^  already there +6$").doesNotContain("deleted")
                .doesNotContain("not there");
    }

    private static String summary(Mode mode, TileCounts counts) {
        JobSpec spec = new JobSpec("world", TileMatrixSet.WEB_MERCATOR_QUAD, 0, 2, new Bounds(-180, -85, 180, 85),
                TileFormat.PNG, mode, MetatileSize.DEFAULT, null, 0, Map.of());
        JobStatus done = new JobStatus("job-5", spec, JobState.SUCCEEDED, NOW.minusSeconds(60), NOW.minusSeconds(50),
                NOW, 3, true, 3, 0, 21, counts, Map.of(), null, null);
        StringWriter out = new StringWriter();
        Summary.print(new PrintWriter(out), done, "/srv/tiles");
        return out.toString().replace(System.lineSeparator(), "\n");
    }
}
