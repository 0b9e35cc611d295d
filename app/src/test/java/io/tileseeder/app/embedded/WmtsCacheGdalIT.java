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

    /**
     * The wmts layout ({layer}/default/{set}/{z}/{y}/{x}): GDAL follows the capabilities' template, rows before
     * columns, to the tiles where the store put them.
     */
    @Test
    @Timeout(180)
    void gdalReadsACacheInTheWmtsLayoutThroughItsCapabilities() throws Exception {
        seed(Map.of("seeder.store.layout", "wmts"));
        Path cache = root.resolve("world/default/WebMercatorQuad");
        assertThat(root.resolve("world/WebMercatorQuad")).doesNotExist();

        GdalWmts.assertReadsTheStoredTiles(root, "WMTS:" + cache.resolve("WMTSCapabilities-png.xml"),
                TileMatrixSet.WEB_MERCATOR_QUAD, ZOOM,
                (x, y) -> image(cache.resolve(ZOOM + "/" + y + "/" + x + ".png")));
    }

    /**
     * The tms layout (rows from the bottom, as gdal2tiles writes them): no WMTS capabilities, whose rows count from
     * the top, but the TMS TileMap, which GDAL's WMS driver opens as a TMS service (with three bands: the opaque
     * pixels are compared). Row y from the top is file 7 - y at zoom 3. GDAL's TMS reading fails on a missing tile,
     * so the layer stores its empty tiles (docs/formats.md, Layouts).
     */
    @Test
    @Timeout(180)
    void gdalReadsACacheInTheTmsLayoutThroughItsTileMap() throws Exception {
        Path layers = root.resolve("layers.yaml");
        Files.writeString(layers, """
                layers:
                  - name: world
                    zoom: {min: 0, max: 10}
                    emptyTiles: store
                    source: {type: vector, data: ["classpath:layers/world/countries.geojson"]}
                    style: [{fill: "#f2efe9", stroke: "#9a8c98", strokeWidth: 1.0}]
                """);
        seed(Map.of("seeder.store.layout", "tms", "seeder.layers.file", layers.toString()));
        Path cache = root.resolve("world/WebMercatorQuad");
        assertThat(cache.resolve("WMTSCapabilities-png.xml")).doesNotExist();
        int last = (1 << ZOOM) - 1;

        GdalWmts.assertReadsTheStoredTiles(root, cache.resolve("tilemapresource-png.xml").toString(),
                TileMatrixSet.WEB_MERCATOR_QUAD, ZOOM,
                (x, y) -> image(cache.resolve(ZOOM + "/" + x + "/" + (last - y) + ".png")), false);
    }

    private static BufferedImage image(Path file) throws IOException {
        return Files.exists(file) ? ImageIO.read(file.toFile()) : null;
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
            if (!set.equals("SwissLV95") && !settings.containsKey("seeder.layers.file")) {
                // Switzerland is all land: the other sets' seas make empty tiles, which GDAL must see as transparent.
                assertThat(done.counts().empty()).as("tiles skipped as empty").isPositive();
            }
        }
    }

    private void assertReadsTheStoredTiles(String capabilities) throws Exception {
        assertReadsTheStoredTiles(capabilities, "WebMercatorQuad");
    }

    private void assertReadsTheStoredTiles(String capabilities, String set) throws Exception {
        GdalWmts.assertReadsTheStoredTiles(root, capabilities, TileMatrixSet.byId(set).orElseThrow(), ZOOM,
                root.resolve("world/" + set));
    }

    private String run(String... command) throws IOException, InterruptedException {
        return GdalWmts.run(root, command);
    }
}
