package io.tileseeder.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.app.api.JobView;
import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import io.tileseeder.outage.Outages;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a job shows while a dependency is unreachable: in the API's view and in the progress line. */
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
}
