package io.tileseeder.app.dryrun;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.app.Engine;
import io.tileseeder.app.settings.Settings;
import io.tileseeder.job.JobLimits;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.layer.LayerCatalogConfig;
import io.tileseeder.layer.LayerCatalogFile;
import io.tileseeder.plan.JobSpecValidator;
import io.tileseeder.plan.MetatilePlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class DryRunTest {

    private static final LayerCatalogConfig LAYERS = LayerCatalogFile.bundled();
    private static final JobSpecValidator VALIDATOR = new JobSpecValidator(LAYERS, new JobLimits(100_000_000L, 32, 100_000, 100_000));

    @TempDir
    Path temp;

    private static JobRequest world(int maxZoom, String mode) {
        return new JobRequest("world", null, new JobRequest.Zoom(0, maxZoom), null, null, mode, null, null, null,
                Map.of());
    }

    @Test
    void aSampleOfEveryMetatileEstimatesExactlyWhatSeedingStores() throws Exception {
        Path untouched = Files.createDirectory(temp.resolve("dry"));
        DryRun dryRun = new DryRun(LAYERS, new FileTileStore(untouched), 4, 256, 4);
        JobSpec spec = VALIDATOR.validate(world(4, null)); // 23 metatiles: all sampled

        DryRun.Estimate estimate = dryRun.estimate(spec);

        assertThat(estimate.zooms()).extracting(DryRun.Zoom::tiles).containsExactly(1L, 4L, 16L, 64L, 256L);
        assertThat(estimate.zooms()).extracting(DryRun.Zoom::metatiles).containsExactly(1L, 1L, 1L, 4L, 16L);
        assertThat(estimate.sampledMetatiles()).isEqualTo(23);
        assertThat(estimate.tiles()).isEqualTo(341);
        try (Stream<Path> files = Files.walk(untouched)) {
            assertThat(files.filter(Files::isRegularFile)).as("a dry run stores nothing").isEmpty();
        }

        Settings settings = Settings.from(Settings.config(Map.of("seeder.store.path", temp.resolve("seeded")
                .toString())));
        try (Engine engine = Engine.embedded(settings)) {
            String id = engine.jobs().submit(world(4, null), null).id();
            JobStatus seeded = engine.jobs().awaitFinal(id, Duration.ofSeconds(60)).orElseThrow()
                    .get(90, TimeUnit.SECONDS);
            assertThat(seeded.state()).isEqualTo(JobState.SUCCEEDED);
            assertThat(estimate.tilesWritten()).isEqualTo(seeded.counts().written());
            assertThat(estimate.bytes()).isEqualTo(seeded.counts().bytes());
        }
    }

    /** Over a coverage, whose metatiles store only some of their tiles, the estimate is exact as well. */
    @Test
    void aSampleOfEveryMetatileOfACoverageJobEstimatesExactlyWhatSeedingStores() throws Exception {
        JobRequest africa = new JobRequest("world", null, new JobRequest.Zoom(0, 5), null, null, null, null, null,
                null, Map.of(), TextNode.valueOf("africa"), null);
        JobSpec spec = VALIDATOR.validate(africa);
        DryRun dryRun = new DryRun(LAYERS, new FileTileStore(Files.createDirectory(temp.resolve("dry"))), 4, 256, 4);

        DryRun.Estimate estimate = dryRun.estimate(spec);

        MetatilePlan plan = MetatilePlan.of(spec);
        assertThat(estimate.zooms()).extracting(DryRun.Zoom::tiles)
                .containsExactlyElementsOf(IntStream.rangeClosed(0, 5).mapToObj(z -> plan.tileCount(z)).toList());
        assertThat(estimate.metatiles()).isEqualTo(plan.taskCount()).isEqualTo(estimate.sampledMetatiles());
        Settings settings = Settings.from(Settings.config(Map.of("seeder.store.path", temp.resolve("seeded")
                .toString())));
        try (Engine engine = Engine.embedded(settings)) {
            String id = engine.jobs().submit(africa, null).id();
            JobStatus seeded = engine.jobs().awaitFinal(id, Duration.ofSeconds(60)).orElseThrow()
                    .get(90, TimeUnit.SECONDS);
            assertThat(seeded.state()).isEqualTo(JobState.SUCCEEDED);
            assertThat(seeded.tilesPlanned()).isEqualTo(estimate.tiles());
            assertThat(estimate.tilesWritten()).isEqualTo(seeded.counts().written());
            assertThat(estimate.bytes()).isEqualTo(seeded.counts().bytes());
        }
    }

    @Test
    void aSampleSpreadsOverEveryZoomAndStaysWithinItsSize() throws Exception {
        DryRun dryRun = new DryRun(LAYERS, new FileTileStore(temp), 4, 16, 4);

        DryRun.Estimate estimate = dryRun.estimate(VALIDATOR.validate(world(8, null))); // 5 463 metatiles

        assertThat(estimate.zooms()).allSatisfy(zoom -> assertThat(zoom.sampledMetatiles()).isPositive());
        assertThat(estimate.sampledMetatiles()).isBetween(16, 16 + 9);
        assertThat(estimate.metatiles()).isEqualTo(5463);
        assertThat(estimate.bytes()).isPositive();
        assertThat(estimate.renderSeconds()).isPositive();
    }

    @Test
    void aTruncateRendersNothing() throws Exception {
        DryRun dryRun = new DryRun(LAYERS, new FileTileStore(temp), 4, 256, 4);

        DryRun.Estimate estimate = dryRun.estimate(VALIDATOR.validate(world(3, "truncate")));

        assertThat(estimate.sampledMetatiles()).isZero();
        assertThat(estimate.bytes()).isZero();
        assertThat(estimate.tiles()).isEqualTo(85);
    }
}
