package io.tileseeder.app.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.SimpleFileServer;
import io.tileseeder.app.Embedded;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.server.Engine;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A seeded cache opened by a real WMTS client: GDAL's WMTS driver (Debian's gdal-bin, which dev/services installs
 * with the WMS) reads the WMTS capabilities the seeder wrote beside the tiles, and through them the tiles, over HTTP
 * (the cache served as plain files, its public URL set) and as files (the default public URL). What GDAL reads at
 * zoom 3's resolution must be exactly the stored tiles' pixels, transparent where an empty tile was skipped.
 */
class WmtsCacheGdalIT {

    private static final int ZOOM = 3;
    private static final int SIZE = 256 << ZOOM;

    @TempDir
    Path root;

    @Test
    @Timeout(180)
    void gdalReadsTheTilesThroughTheCapabilitiesOverHttp() throws Exception {
        HttpServer server = SimpleFileServer.createFileServer(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), root, SimpleFileServer.OutputLevel.NONE);
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            seed(Map.of("seeder.store.public-url", base + "/"));
            String capabilities = base + "/world/WebMercatorQuad/WMTSCapabilities-png.xml";
            assertThat(Files.readString(root.resolve("world/WebMercatorQuad/WMTSCapabilities-png.xml")))
                    .contains("template=\"" + base + "/world/WebMercatorQuad/{TileMatrix}/{TileCol}/{TileRow}.png\"");

            assertThat(run("gdalinfo", "WMTS:" + capabilities)).contains("Driver: WMTS/OGC Web Map Tile Service")
                    .contains("Size is 4194304, 4194304");
            assertReadsTheStoredTiles(capabilities);
        } finally {
            server.stop(0);
        }
    }

    @Test
    @Timeout(180)
    void gdalReadsTheTilesAsFilesByDefault() throws Exception {
        seed(Map.of());
        Path capabilities = root.resolve("world/WebMercatorQuad/WMTSCapabilities-png.xml");
        assertThat(Files.readString(capabilities)).contains("template=\"" + root.toUri().toString()
                + "world/WebMercatorQuad/{TileMatrix}");

        assertReadsTheStoredTiles(capabilities.toString());
    }

    private void seed(Map<String, String> settings) throws Exception {
        Map<String, String> config = new java.util.HashMap<>(settings);
        config.put("seeder.store.path", root.toString());
        config.put("seeder.workers.threads", "2");
        try (Engine engine = Embedded.engine(Settings.from(Settings.config(config)))) {
            JobStatus job = engine.jobs().submit(new JobRequest("world", null, new JobRequest.Zoom(0, ZOOM), null,
                    null, null, null, null, null, Map.of()), null);
            JobStatus done = engine.jobs().awaitFinal(job.id(), Duration.ofSeconds(90)).orElseThrow()
                    .get(100, TimeUnit.SECONDS);
            assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
            assertThat(done.counts().empty()).as("tiles skipped as empty, which GDAL must see as transparent")
                    .isPositive();
        }
    }

    /** GDAL's image of the whole matrix at zoom 3, compared pixel by pixel with the tiles in the folder. */
    private void assertReadsTheStoredTiles(String capabilities) throws Exception {
        Path out = root.resolve("gdal-z" + ZOOM + ".png");
        run("gdal_translate", "-q", "--config", "GDAL_ENABLE_WMS_CACHE", "NO", "-of", "PNG",
                "-outsize", Integer.toString(SIZE), Integer.toString(SIZE), "WMTS:" + capabilities, out.toString());
        BufferedImage read = ImageIO.read(out.toFile());
        assertThat(read.getWidth()).isEqualTo(SIZE);
        int tiles = 0;
        for (int x = 0; x < 1 << ZOOM; x++) {
            for (int y = 0; y < 1 << ZOOM; y++) {
                Path file = root.resolve("world/WebMercatorQuad/" + ZOOM + "/" + x + "/" + y + ".png");
                BufferedImage tile = Files.exists(file) ? ImageIO.read(file.toFile()) : null;
                tiles += tile == null ? 0 : 1;
                for (int py = 0; py < 256; py += 3) {
                    for (int px = 0; px < 256; px += 3) {
                        int expected = tile == null ? 0 : tile.getRGB(px, py);
                        int got = read.getRGB(x * 256 + px, y * 256 + py);
                        if (expected >>> 24 == 0) {
                            assertThat(got >>> 24).as("alpha of tile %d/%d at %d,%d", x, y, px, py).isZero();
                        } else {
                            assertThat(Integer.toHexString(got)).as("tile %d/%d at %d,%d", x, y, px, py)
                                    .isEqualTo(Integer.toHexString(expected));
                        }
                    }
                }
            }
        }
        assertThat(tiles).as("tiles stored at zoom %d", ZOOM).isPositive().isLessThan(1 << 2 * ZOOM);
    }

    /** Runs a GDAL command in the test's folder; fails naming the command and its output unless it exits 0. */
    private String run(String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(command));
        Process process;
        try {
            process = new ProcessBuilder(line).directory(root.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IllegalStateException(command[0] + " is missing: run the tests with dev/test, whose "
                    + "`dev/services up --wms` installs Debian's gdal-bin", e);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as(String.join(" ", line)).isTrue();
        assertThat(process.exitValue()).as("%s\n%s", String.join(" ", line), output).isZero();
        return output;
    }
}
