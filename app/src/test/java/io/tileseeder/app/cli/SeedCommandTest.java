package io.tileseeder.app.cli;

import static io.tileseeder.app.cli.Cli.describe;
import static io.tileseeder.app.cli.Cli.errLines;
import static io.tileseeder.app.cli.Cli.files;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;
import io.tileseeder.app.cli.Cli.Summary;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sun.misc.Signal;

/**
 * {@code seeder seed} end to end, each launch a fresh application writing to its own temporary folder: the
 * tiles and the TileJSON document it writes, the summary it prints, a second run finding every tile there, a
 * job that fails on a missing data file (exit 2), one that runs out of time (exit 4, with its summary) and one
 * interrupted by Ctrl-C (exit 3, with its summary).
 */
@QuarkusMainTest
class SeedCommandTest {

    private static final Pattern WEB_MERCATOR_PNG = Pattern.compile("world/WebMercatorQuad/(\\d+)/(\\d+)/(\\d+)\\.png");
    private static final Pattern CRS84_JPG = Pattern.compile("world/WorldCRS84Quad/(\\d+)/(\\d+)/(\\d+)\\.jpg");

    @TempDir
    Path out;

    @Test
    void seedsTheWorldAndASecondRunFindsEveryTileThere(QuarkusMainLauncher launcher) throws IOException {
        String[] seed = {"seed", "--layer", "world", "--zoom", "0-2", "--out", out.toString()};
        LaunchResult first = launcher.launch(seed);

        assertThat(first.exitCode()).as(describe(first)).isZero();
        Summary summary = Summary.of(first);
        assertThat(summary.header()).as(describe(first))
                .isEqualTo("SUCCEEDED world z0-2 (WebMercatorQuad, png, seed) into "
                        + out.toAbsolutePath().normalize());
        // 1 + 4 + 16 tiles, each either written or empty (transparent: skipped), none there before.
        assertThat(summary.written() + summary.empty()).as(describe(first)).isEqualTo(21);
        assertThat(summary.written()).as(describe(first)).isPositive();
        assertThat(summary.alreadyThere()).isZero();
        assertThat(summary.failed()).isZero();
        assertThat(summary.bytes()).isPositive();
        assertThat(errLines(first)).as(describe(first)).noneMatch(line -> line.startsWith("error:"));

        List<String> tiles = files(out).stream().filter(f -> f.endsWith(".png")).toList();
        assertThat(tiles).as("tile files").hasSize((int) summary.written());
        long bytes = 0;
        for (String tile : tiles) {
            Matcher m = WEB_MERCATOR_PNG.matcher(tile);
            assertThat(m.matches()).as(tile + " is at world/WebMercatorQuad/{z}/{x}/{y}.png").isTrue();
            int z = Integer.parseInt(m.group(1));
            int x = Integer.parseInt(m.group(2));
            int y = Integer.parseInt(m.group(3));
            assertThat(z).as(tile).isBetween(0, 2);
            assertThat(x).as(tile).isBetween(0, (1 << z) - 1);
            assertThat(y).as(tile).isBetween(0, (1 << z) - 1);
            BufferedImage image = ImageIO.read(out.resolve(tile).toFile());
            assertThat(image).as(tile + " is a PNG").isNotNull();
            assertThat(image.getWidth()).as(tile).isEqualTo(256);
            assertThat(image.getHeight()).as(tile).isEqualTo(256);
            bytes += Files.size(out.resolve(tile));
        }
        assertThat(tiles).as("the whole world at z0 has land").contains("world/WebMercatorQuad/0/0/0.png");
        assertThat(bytes).as("bytes in the summary").isEqualTo(summary.bytes());
        Path tileJson = out.resolve("world/WebMercatorQuad/tilejson-png.json");
        assertThat(tileJson).isRegularFile();
        assertThat(Files.readString(tileJson)).contains("\"tilejson\"").contains("{z}/{x}/{y}.png");
        assertThat(out.resolve("world/WebMercatorQuad/WMTSCapabilities-png.xml")).isRegularFile();
        assertThat(out.resolve("world/WebMercatorQuad/manifest-png.json")).isRegularFile();
        // z0-2 is one 4x4 metatile per zoom level, each marked done once its tiles are stored.
        assertThat(files(out).stream().filter(f -> f.contains("/done/")))
                .containsExactly("world/WebMercatorQuad/done/png-4x4-skip/0/0/0",
                        "world/WebMercatorQuad/done/png-4x4-skip/1/0/0",
                        "world/WebMercatorQuad/done/png-4x4-skip/2/0/0");
        assertThat(files(out)).as("nothing but the tiles, the done markers and the TileJSON, WMTS and manifest "
                + "documents").hasSize(tiles.size() + 3 + 3);

        LaunchResult second = launcher.launch(seed);

        assertThat(second.exitCode()).as(describe(second)).isZero();
        Summary again = Summary.of(second);
        assertThat(again.header()).startsWith("SUCCEEDED world z0-2 ");
        assertThat(again.written()).as(describe(second)).isZero();
        assertThat(again.alreadyThere()).as("every tile of the metatiles marked done, empty ones too: "
                + describe(second)).isEqualTo(21);
        assertThat(again.empty()).as(describe(second)).isZero();
        assertThat(again.failed()).isZero();
        assertThat(files(out).stream().filter(f -> f.endsWith(".png")).toList()).isEqualTo(tiles);
    }

    @Test
    void seedsWorldCrs84QuadAsJpeg(QuarkusMainLauncher launcher) throws IOException {
        LaunchResult result = launcher.launch("seed", "--layer", "world", "--tile-matrix-set", "WorldCRS84Quad",
                "--format", "jpeg", "--zoom", "0-1", "--out", out.toString());

        assertThat(result.exitCode()).as(describe(result)).isZero();
        Summary summary = Summary.of(result);
        assertThat(summary.header()).as(describe(result))
                .startsWith("SUCCEEDED world z0-1 (WorldCRS84Quad, jpeg, seed) into ");
        // z0 is 2x1 tiles, z1 4x2.
        assertThat(summary.written() + summary.empty()).as(describe(result)).isEqualTo(2 + 8);

        List<String> tiles = files(out).stream().filter(f -> f.endsWith(".jpg")).toList();
        assertThat(files(out)).as("tiles, a done marker per metatile (one per zoom) and two documents: no TileJSON, "
                + "which cannot describe WorldCRS84Quad").hasSize(tiles.size() + 2 + 2);
        assertThat(tiles).as("tile files").hasSize((int) summary.written());
        for (String tile : tiles) {
            Matcher m = CRS84_JPG.matcher(tile);
            assertThat(m.matches()).as(tile + " is at world/WorldCRS84Quad/{z}/{x}/{y}.jpg").isTrue();
            int z = Integer.parseInt(m.group(1));
            assertThat(z).as(tile).isBetween(0, 1);
            assertThat(Integer.parseInt(m.group(2))).as(tile).isBetween(0, (2 << z) - 1);
            assertThat(Integer.parseInt(m.group(3))).as(tile).isBetween(0, (1 << z) - 1);
            byte[] data = Files.readAllBytes(out.resolve(tile));
            assertThat(data).as(tile + " starts like a JPEG").startsWith((byte) 0xFF, (byte) 0xD8);
            BufferedImage image = ImageIO.read(out.resolve(tile).toFile());
            assertThat(image).as(tile).isNotNull();
            assertThat(image.getWidth()).as(tile).isEqualTo(256);
            assertThat(image.getHeight()).as(tile).isEqualTo(256);
        }
        // Both hemispheres have land, so both z0 tiles are drawn.
        assertThat(tiles).contains("world/WorldCRS84Quad/0/0/0.jpg", "world/WorldCRS84Quad/0/1/0.jpg")
                .noneMatch(tile -> tile.startsWith("world/WorldCRS84Quad/0/") && !tile.matches(".*/0/[01]/0\\.jpg"));
        assertThat(out.resolve("world/WorldCRS84Quad/tilejson-jpeg.json")).doesNotExist();
        assertThat(out.resolve("world/WorldCRS84Quad/WMTSCapabilities-jpeg.xml")).isRegularFile();
        assertThat(out.resolve("world/WebMercatorQuad")).doesNotExist();
    }

    @Test
    void aMissingDataFileFailsTheJobWithExitStatus2AndWritesNoTile(QuarkusMainLauncher launcher) throws IOException {
        Path layers = out.resolve("layers.yaml");
        Files.writeString(layers, """
                layers:
                  - name: broken
                    zoom: {min: 0, max: 5}
                    source:
                      type: vector
                      data: [missing.geojson]
                    style:
                      - fill: "#ff0000"
                        stroke: "#000000"
                """);
        Path tiles = out.resolve("tiles");

        LaunchResult result = launcher.launch("seed", "--layers", layers.toString(), "--layer", "broken",
                "--zoom", "0-1", "--out", tiles.toString());

        assertThat(result.exitCode()).as(describe(result)).isEqualTo(2);
        List<String> err = errLines(result);
        assertThat(err).as(describe(result)).isNotEmpty();
        assertThat(err.get(err.size() - 1)).as(describe(result))
                .startsWith("error: job FAILED: ")
                .contains("missing.geojson");
        assertThat(err.stream().filter(line -> line.startsWith("error:"))).as(describe(result)).hasSize(1);
        assertThat(Summary.of(result).header()).startsWith("FAILED broken z0-1 ");
        assertThat(files(tiles)).as("no tile and no TileJSON document for a failed job").isEmpty();
    }

    @Test
    void aTimeoutCancelsTheJobPrintsItsSummaryWithExitStatus4AndLeavesNoTemporaryFile(QuarkusMainLauncher launcher) {
        // About 22 million tiles: far more than a second's work.
        LaunchResult result = launcher.launch("seed", "--layer", "world", "--zoom", "0-12", "--timeout", "1s",
                "--out", out.toString());

        assertThat(result.exitCode()).as(describe(result)).isEqualTo(4);
        assertThat(Cli.errorLines(result)).as(describe(result))
                .containsExactly("error: timed out after 1s; the job was cancelled");
        Summary summary = Summary.of(result);
        assertThat(summary.header()).as(describe(result)).startsWith("CANCELLED world z0-12 (WebMercatorQuad, png, "
                + "seed) into ");
        // How much a second renders depends on the machine: the counts are checked against the store, not a bound.
        // The Ctrl-C test below cancels a job known to be writing.
        assertThat(summary.written()).as("the counts of what was done: " + describe(result))
                .isLessThanOrEqualTo(files(out).stream().filter(f -> f.endsWith(".png")).count());
        // The launch returns once the application has shut down: the store stage has finished what it held.
        assertThat(files(out)).as("no temporary file left behind").noneMatch(f -> f.endsWith(".tmp"));
        assertThat(files(out)).as("no TileJSON document for a cancelled job").noneMatch(f -> f.endsWith(".json"));
    }

    /**
     * Ctrl-C or SIGTERM, one handler for both: SIGTERM raised in this process (the application runs in the test's JVM)
     * once the job writes tiles (the command's handler is in place before it submits the job). It cancels the job
     * through the engine, waits for the tiles being written, prints the summary and exits 3, as a job cancelled through
     * the API does. Not SIGINT: a build started in the background by a shell without job control runs with SIGINT
     * ignored, which the JVM then never hands to a handler. Should no tile come within a minute, the signal is raised
     * all the same, so the test fails instead of seeding 22 million tiles.
     */
    @Test
    void aSignalCancelsTheJobPrintsItsSummaryAndExits3(QuarkusMainLauncher launcher) throws Exception {
        Path firstTile = out.resolve("world/WebMercatorQuad/0/0/0.png");
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService signaller = Executors.newSingleThreadExecutor();
        Future<Boolean> raised = signaller.submit(() -> {
            Instant giveUp = Instant.now().plusSeconds(60);
            while (running.get() && !Files.exists(firstTile) && Instant.now().isBefore(giveUp)) {
                Thread.sleep(20);
            }
            if (!running.get()) {
                return false;
            }
            boolean writing = Files.exists(firstTile);
            Signal.raise(new Signal("TERM"));
            return writing;
        });
        LaunchResult result;
        try {
            // About 22 million tiles: far more than the test's work.
            result = launcher.launch("seed", "--layer", "world", "--zoom", "0-12", "--out", out.toString());
        } finally {
            running.set(false);
            signaller.shutdown();
        }

        assertThat(raised.get(10, TimeUnit.SECONDS)).as("SIGTERM raised while the job wrote tiles").isTrue();
        assertThat(result.exitCode()).as(describe(result)).isEqualTo(ExitCodes.CANCELLED);
        assertThat(Cli.errorLines(result)).as(describe(result))
                .containsExactly("error: interrupted; the job was cancelled");
        Summary summary = Summary.of(result);
        assertThat(summary.header()).as(describe(result)).startsWith("CANCELLED world z0-12 (WebMercatorQuad, png, "
                + "seed) into ");
        // The counts are those recorded when the job was cancelled: the task whose tile raised the signal may have
        // been reported before the cancel or after it, so they may be zero, never more than what is stored.
        List<String> tiles = files(out).stream().filter(f -> f.endsWith(".png")).toList();
        assertThat(summary.written()).as(describe(result)).isLessThanOrEqualTo(tiles.size());
        BufferedImage first = ImageIO.read(firstTile.toFile());
        assertThat(first).as("the tile written before the interrupt is whole").isNotNull();
        assertThat(first.getWidth()).isEqualTo(256);
        assertThat(files(out)).as("no temporary file left behind").noneMatch(f -> f.endsWith(".tmp"));
        assertThat(files(out)).as("no TileJSON document for a cancelled job").noneMatch(f -> f.endsWith(".json"));
    }

    /**
     * A folder that cannot be created, or cannot take tiles, is named with the reason, before any job starts: one
     * line, exit status 1.
     */
    @Test
    void aStoreThatCannotBeWrittenIsRefusedSayingWhy(QuarkusMainLauncher launcher) throws IOException {
        Path fileInTheWay = Files.writeString(out.resolve("not-a-folder"), "a file");
        LaunchResult blocked = launcher.launch("seed", "--layer", "world", "--zoom", "0-1", "--out",
                fileInTheWay.resolve("tiles").toString());

        assertThat(blocked.exitCode()).as(describe(blocked)).isEqualTo(1);
        assertThat(Cli.errorLines(blocked)).as(describe(blocked)).containsExactly("error: cannot create the folder "
                + fileInTheWay.resolve("tiles") + ": " + fileInTheWay + " is a file, not a folder");
        assertThat(blocked.getOutput()).as("no job ran").doesNotContain("tiles written");

        // /proc takes no folder of ours, whoever runs the test (a read-only folder does not stop root).
        LaunchResult refused = launcher.launch("seed", "--layer", "world", "--zoom", "0-1", "--out",
                "/proc/tile-seeder-test");

        assertThat(refused.exitCode()).as(describe(refused)).isEqualTo(1);
        assertThat(Cli.errorLines(refused)).as(describe(refused)).singleElement().asString()
                .isEqualTo("error: cannot create the folder /proc/tile-seeder-test: /proc takes no new folders (a proc "
                        + "file system)");
    }
}
