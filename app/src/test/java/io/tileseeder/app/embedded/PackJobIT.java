package io.tileseeder.app.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.app.Embedded;
import io.tileseeder.app.testing.WorldTiles;
import io.tileseeder.job.InvalidJobException;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.server.Engine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pack job on the embedded engine, as {@code POST /api/v1/jobs} submits it: the archive of a finished folder cache,
 * read back tile by tile by go-pmtiles ({@code SEEDER_PMTILES}) equal to the cache; and the jobs that cannot be packed,
 * refused at submission or failed with what is wrong, leaving nothing under the archive's name.
 */
class PackJobIT {

    @TempDir
    Path temp;

    @Test
    @Timeout(180)
    void aFinishedCacheIsPackedByAJobWhoseArchiveHoldsEveryTileOfIt() throws Exception {
        Path tiles = temp.resolve("tiles");
        Path archive = temp.resolve("world.pmtiles");
        try (Engine engine = engine(tiles)) {
            run(engine, EmbeddedJobs.zooms("world", null, 3, null), JobState.SUCCEEDED);

            JobStatus packed = run(engine, pack(archive.toString()), JobState.SUCCEEDED);

            assertThat(packed.tilesPlanned()).isEqualTo(1);
            assertThat(packed.counts().written()).as("one archive").isEqualTo(1);
            assertThat(packed.counts().bytes()).isEqualTo(Files.size(archive));
        }
        assertThat(reader("verify", archive.toString())).contains("Completed verify");
        Path cache = tiles.resolve("world/WebMercatorQuad");
        List<Path> pngs;
        try (Stream<Path> files = Files.walk(cache)) {
            pngs = files.filter(f -> f.toString().endsWith(".png")).toList();
        }
        assertThat(pngs).as("the non-empty tiles of z0-3").hasSize(WorldTiles.upTo(3).size());
        for (Path png : pngs) {
            Path rel = cache.relativize(png);
            String y = rel.getFileName().toString().replace(".png", "");
            byte[] read = readerBytes("tile", archive.toString(), rel.getName(0).toString(), rel.getName(1).toString(),
                    y);
            assertThat(read).as("tile %s", rel).isEqualTo(Files.readAllBytes(png));
        }
    }

    @Test
    @Timeout(180)
    void aCacheNoJobFinishedOrAnArchiveInNoFolderFailsTheJobWithWhatIsWrong() throws Exception {
        Path tiles = temp.resolve("tiles");
        try (Engine engine = engine(tiles)) {
            JobStatus unfinished = run(engine, pack(temp.resolve("a.pmtiles").toString()), JobState.FAILED);
            assertThat(unfinished.reason()).contains(tiles.toAbsolutePath() + "/world/WebMercatorQuad holds no "
                    + "finished png tiles (no manifest-png.json");

            run(engine, EmbeddedJobs.zooms("world", null, 1, null), JobState.SUCCEEDED);
            Path nowhere = temp.resolve("missing/b.pmtiles");
            JobStatus noFolder = run(engine, pack(nowhere.toString()), JobState.FAILED);
            assertThat(noFolder.reason()).contains("archive: the folder " + nowhere.getParent() + " does not exist");

            InvalidJobException refused = Assertions.catchThrowableOfType(InvalidJobException.class,
                    () -> engine.jobs().submit(new JobRequest("world", "WorldCRS84Quad", null, null, null, "pack",
                            null, null, null, null, null, null, null, null, "c.pmtiles"), null));
            assertThat(refused.getMessage()).contains("a PMTiles archive holds tiles of WebMercatorQuad only");
        }
        try (Stream<Path> files = Files.list(temp)) {
            assertThat(files.map(f -> f.getFileName().toString())).as("nothing under an archive's name")
                    .containsExactly("tiles");
        }
    }

    private static Engine engine(Path tiles) {
        return Embedded.engine(Settings.from(Settings.config(Map.of("seeder.store.path", tiles.toString(),
                "seeder.workers.threads", "2", "seeder.workers.max-deliveries", "2"))));
    }

    private static JobRequest pack(String archive) {
        return new JobRequest("world", null, null, null, "png", "pack", null, null, null, null, null, null, null, null,
                archive);
    }

    private static JobStatus run(Engine engine, JobRequest request, JobState expected) throws Exception {
        JobStatus job = engine.jobs().submit(request, null);
        JobStatus done = engine.jobs().awaitFinal(job.id(), Duration.ofSeconds(120)).orElseThrow()
                .get(130, TimeUnit.SECONDS);
        assertThat(done.state()).as(String.valueOf(done.reason())).isEqualTo(expected);
        return done;
    }

    private static String reader(String... args) throws IOException, InterruptedException {
        return new String(readerBytes(args));
    }

    /** What the PMTiles reference reader writes on its standard output, once it exited 0. */
    private static byte[] readerBytes(String... args) throws IOException, InterruptedException {
        List<String> command = Stream.concat(Stream.of(Objects.requireNonNull(System.getenv("SEEDER_PMTILES"),
                "SEEDER_PMTILES (from .dev/services.env: dev/services up)")), Stream.of(args)).toList();
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] out = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("%s ends", command).isTrue();
        assertThat(process.exitValue()).as("%s exits 0", command).isZero();
        return out;
    }
}
