package io.tileseeder.app.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.SimpleFileServer;
import io.tileseeder.app.Embedded;
import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.TileMatrix;
import io.tileseeder.grid.TileMatrixSet;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A seeded cache opened by a real WMTS client: GDAL's WMTS driver (Debian's gdal-bin, which dev/services installs
 * with the WMS) reads the WMTS capabilities the seeder wrote beside the tiles, and through them the tiles, over HTTP
 * (the cache served as plain files, its public URL set) and as files (the default public URL). What GDAL reads at
 * zoom 3's resolution must be exactly the stored tiles' pixels, transparent where an empty tile was skipped.
 *
 * <p>The same for sets in other CRSs: ETRS89-LAEA (northing first, so GDAL reads the {@code TopLeftCorner} and
 * bounding box in the CRS's axis order), a UTM zone (1×2 tiles in its first matrix), and a custom Swiss LV95 set
 * read from a layer file's OGC JSON, with TileCloud-chain's resolution list (not powers of two) and a ragged edge of
 * tiles beyond its bounding box.
 */
class WmtsCacheGdalIT {

    private static final int ZOOM = 3;

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

    @ParameterizedTest
    @ValueSource(strings = {"EuropeanETRS89_LAEAQuad", "UTM32WGS84Quad", "SwissLV95"})
    @Timeout(180)
    void gdalReadsTheTilesOfASetInAnotherCrs(String set) throws Exception {
        Map<String, String> settings = new java.util.HashMap<>();
        if (set.equals("SwissLV95")) {
            Path grid = root.resolve("SwissLV95.json");
            try (var in = getClass().getClassLoader().getResourceAsStream("tms/SwissLV95.json")) {
                Files.copy(in, grid);
            }
            Path layers = root.resolve("layers.yaml");
            Files.writeString(layers, """
                    tileMatrixSetFiles: [SwissLV95.json]
                    layers:
                      - name: world
                        zoom: {min: 0, max: 10}
                        tileMatrixSets: [SwissLV95]
                        source: {type: vector, data: ["classpath:layers/world/countries.geojson"]}
                        style: [{fill: "#f2efe9", stroke: "#9a8c98", strokeWidth: 1.0}]
                    """);
            settings.put("seeder.layers.file", layers.toString());
        }
        seed(settings, set);
        Path capabilities = root.resolve("world/" + set + "/WMTSCapabilities-png.xml");

        assertReadsTheStoredTiles(capabilities.toString(), set);
    }

    private void seed(Map<String, String> settings) throws Exception {
        seed(settings, "WebMercatorQuad");
    }

    private void seed(Map<String, String> settings, String set) throws Exception {
        Map<String, String> config = new java.util.HashMap<>(settings);
        config.put("seeder.store.path", root.toString());
        config.put("seeder.workers.threads", "2");
        try (Engine engine = Embedded.engine(Settings.from(Settings.config(config)))) {
            JobStatus job = engine.jobs().submit(new JobRequest("world", set, new JobRequest.Zoom(0, ZOOM), null,
                    null, null, null, null, null, Map.of()), null);
            JobStatus done = engine.jobs().awaitFinal(job.id(), Duration.ofSeconds(90)).orElseThrow()
                    .get(100, TimeUnit.SECONDS);
            assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
            if (!set.equals("SwissLV95")) {
                // Switzerland is all land: the other sets' seas make empty tiles, which GDAL must see as transparent.
                assertThat(done.counts().empty()).as("tiles skipped as empty").isPositive();
            }
        }
    }

    private void assertReadsTheStoredTiles(String capabilities) throws Exception {
        assertReadsTheStoredTiles(capabilities, "WebMercatorQuad");
    }

    /**
     * GDAL's image of the set's extent at zoom 3's resolution, compared pixel by pixel with the tiles in the folder
     * (the tiles of a ragged edge beyond the extent only where they overlap it).
     */
    private void assertReadsTheStoredTiles(String capabilities, String set) throws Exception {
        TileMatrixSet tms = TileMatrixSet.byId(set).orElseThrow();
        TileMatrix matrix = tms.matrix(ZOOM);
        Bounds extent = tms.crsBounds();
        int width = (int) Math.round(extent.width() / matrix.cellSize());
        int height = (int) Math.round(extent.height() / matrix.cellSize());
        int offsetX = (int) Math.round((extent.minX() - matrix.left()) / matrix.cellSize());
        int offsetY = (int) Math.round((matrix.top() - extent.maxY()) / matrix.cellSize());
        Path out = root.resolve("gdal-z" + ZOOM + ".png");
        run("gdal_translate", "-q", "--config", "GDAL_ENABLE_WMS_CACHE", "NO", "-of", "PNG",
                "-outsize", Integer.toString(width), Integer.toString(height), "WMTS:" + capabilities, out.toString());
        BufferedImage read = ImageIO.read(out.toFile());
        assertThat(read.getWidth()).isEqualTo(width);
        assertThat(read.getHeight()).isEqualTo(height);
        int tiles = 0;
        int size = matrix.tileWidth();
        for (int x = 0; x < matrix.matrixWidth(); x++) {
            for (int y = 0; y < matrix.matrixHeight(); y++) {
                Path file = root.resolve("world/" + set + "/" + ZOOM + "/" + x + "/" + y + ".png");
                BufferedImage tile = Files.exists(file) ? ImageIO.read(file.toFile()) : null;
                tiles += tile == null ? 0 : 1;
                for (int py = 0; py < size; py += 3) {
                    for (int px = 0; px < size; px += 3) {
                        int gx = x * size + px - offsetX;
                        int gy = y * size + py - offsetY;
                        if (gx < 0 || gy < 0 || gx >= width || gy >= height) {
                            continue;
                        }
                        int expected = tile == null ? 0 : tile.getRGB(px, py);
                        int got = read.getRGB(gx, gy);
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
        assertThat(tiles).as("tiles stored at zoom %d", ZOOM).isPositive()
                .isLessThanOrEqualTo(matrix.matrixWidth() * matrix.matrixHeight());
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
