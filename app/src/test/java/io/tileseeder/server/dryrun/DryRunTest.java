package io.tileseeder.server.dryrun;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import io.tileseeder.app.Embedded;
import io.tileseeder.job.JobLimits;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.layer.LayerCatalogConfig;
import io.tileseeder.layer.LayerCatalogFile;
import io.tileseeder.plan.JobSpecValidator;
import io.tileseeder.plan.MetatilePlan;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.server.Engine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
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
        DryRun dryRun = new DryRun(LAYERS, 4, 256, 4);
        JobSpec spec = VALIDATOR.validate(world(4, null)); // 23 metatiles: all sampled

        DryRun.Estimate estimate = dryRun.estimate(spec);

        assertThat(estimate.zooms()).extracting(DryRun.Zoom::tiles).containsExactly(1L, 4L, 16L, 64L, 256L);
        assertThat(estimate.zooms()).extracting(DryRun.Zoom::metatiles).containsExactly(1L, 1L, 1L, 4L, 16L);
        assertThat(estimate.sampledMetatiles()).isEqualTo(23);
        assertThat(estimate.tiles()).isEqualTo(341);

        Settings settings = Settings.from(Settings.config(Map.of("seeder.store.path", temp.resolve("seeded")
                .toString())));
        try (Engine engine = Embedded.engine(settings)) {
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
        DryRun dryRun = new DryRun(LAYERS, 4, 256, 4);

        DryRun.Estimate estimate = dryRun.estimate(spec);

        MetatilePlan plan = MetatilePlan.of(spec);
        assertThat(estimate.zooms()).extracting(DryRun.Zoom::tiles)
                .containsExactlyElementsOf(IntStream.rangeClosed(0, 5).mapToObj(z -> plan.tileCount(z)).toList());
        assertThat(estimate.metatiles()).isEqualTo(plan.taskCount()).isEqualTo(estimate.sampledMetatiles());
        Settings settings = Settings.from(Settings.config(Map.of("seeder.store.path", temp.resolve("seeded")
                .toString())));
        try (Engine engine = Embedded.engine(settings)) {
            String id = engine.jobs().submit(africa, null).id();
            JobStatus seeded = engine.jobs().awaitFinal(id, Duration.ofSeconds(60)).orElseThrow()
                    .get(90, TimeUnit.SECONDS);
            assertThat(seeded.state()).isEqualTo(JobState.SUCCEEDED);
            assertThat(seeded.tilesPlanned()).isEqualTo(estimate.tiles());
            assertThat(estimate.tilesWritten()).isEqualTo(seeded.counts().written());
            assertThat(estimate.bytes()).isEqualTo(seeded.counts().bytes());
        }
    }

    /**
     * README, "Dry run": a seed is estimated as if none of its tiles existed. The engine's dry run over a store that
     * already holds every tile of the job estimates what seeding it into an empty store does, and leaves the store as
     * it was.
     */
    @Test
    void aStoreHoldingTheJobsTilesChangesNothingOfTheEstimateAndIsLeftAlone() throws Exception {
        Path seeded = temp.resolve("seeded");
        Settings settings = Settings.from(Settings.config(Map.of("seeder.store.path", seeded.toString())));
        JobSpec spec = VALIDATOR.validate(world(3, null)); // 6 metatiles: all sampled
        try (Engine engine = Embedded.engine(settings)) {
            DryRun.Estimate before = engine.dryRun().estimate(spec);
            String id = engine.jobs().submit(world(3, null), null).id();
            JobStatus job = engine.jobs().awaitFinal(id, Duration.ofSeconds(60)).orElseThrow()
                    .get(90, TimeUnit.SECONDS);
            assertThat(job.state()).isEqualTo(JobState.SUCCEEDED);
            assertThat(job.counts().written()).isPositive();
            Map<Path, FileTime> stored = files(seeded);

            DryRun.Estimate after = engine.dryRun().estimate(spec);

            assertThat(after.tilesWritten()).as("stored tiles, estimated over a store holding all of them")
                    .isEqualTo(before.tilesWritten()).isEqualTo(job.counts().written());
            assertThat(after.bytes()).isEqualTo(before.bytes()).isEqualTo(job.counts().bytes());
            assertThat(after.zooms()).extracting(DryRun.Zoom::tilesWritten)
                    .isEqualTo(before.zooms().stream().map(DryRun.Zoom::tilesWritten).toList());
            assertThat(files(seeded)).as("the store's files and their times after the dry run").isEqualTo(stored);
        }
    }

    /** Every regular file below {@code root}, with when it was last written. */
    private static Map<Path, FileTime> files(Path root) throws IOException {
        Map<Path, FileTime> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.filter(Files::isRegularFile).toList()) {
                files.put(root.relativize(path), Files.getLastModifiedTime(path));
            }
        }
        return files;
    }

    @Test
    void aSampleSpreadsOverEveryZoomAndStaysWithinItsSize() throws Exception {
        DryRun dryRun = new DryRun(LAYERS, 4, 16, 4);

        DryRun.Estimate estimate = dryRun.estimate(VALIDATOR.validate(world(8, null))); // 5 463 metatiles

        assertThat(estimate.zooms()).allSatisfy(zoom -> assertThat(zoom.sampledMetatiles()).isPositive());
        assertThat(estimate.sampledMetatiles()).isBetween(16, 16 + 9);
        assertThat(estimate.metatiles()).isEqualTo(5463);
        assertThat(estimate.bytes()).isPositive();
        assertThat(estimate.renderSeconds()).isPositive();
    }

    @Test
    void aTruncateRendersNothing() throws Exception {
        DryRun dryRun = new DryRun(LAYERS, 4, 256, 4);

        DryRun.Estimate estimate = dryRun.estimate(VALIDATOR.validate(world(3, "truncate")));

        assertThat(estimate.sampledMetatiles()).isZero();
        assertThat(estimate.bytes()).isZero();
        assertThat(estimate.tiles()).isEqualTo(85);
    }
}
