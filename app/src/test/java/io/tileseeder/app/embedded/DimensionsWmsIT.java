package io.tileseeder.app.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tileseeder.app.Embedded;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.layer.LayerCatalogFile;
import io.tileseeder.layer.WmsSourceConfig;
import io.tileseeder.render.wms.GetMap;
import io.tileseeder.render.wms.WmsClient;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.server.Engine;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Layers with dimensions seeded from the dev MapServer (dev/wms/world.map): {@code frames}, a WMS-T layer whose two
 * "radar frames" (a box over Europe at 12:00, one over Africa at 12:05) are drawn by TIME, and {@code styled}, the
 * countries in two named styles. Each value's cache holds the tiles the server draws for that value; the WMTS
 * capabilities list the values held, GDAL reads them through the template, and a truncate of one value drops it.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DimensionsWmsIT {

    private static final String NOON = "2026-11-26T12:00:00Z";
    private static final String FIVE_PAST = "2026-11-26T12:05:00Z";
    private static final int ZOOM = 3;
    /** Pixels of a tile that may differ from a single-tile GetMap: antialiased edges (see MapServerWmsIT). */
    private static final int MAX_EDGE_PIXELS = 256 * 256 / 50;

    private static String wmsUrl;

    @TempDir
    Path root;
    private Path layers;

    @BeforeAll
    static void server() {
        wmsUrl = System.getenv("SEEDER_WMS_URL");
        assertThat(wmsUrl).as("SEEDER_WMS_URL (run dev/services up --wms and source .dev/services.env)")
                .isNotBlank();
    }

    @BeforeEach
    void layersFile() throws Exception {
        layers = root.resolve("layers.yaml");
        Files.writeString(layers, """
                layers:
                  - name: frames
                    zoom: {min: 0, max: 6}
                    tileMatrixSets: [WebMercatorQuad]
                    source: {type: wms, url: "%1$s", version: "1.3.0", layers: [frames], timeout: 30s}
                    dimensions:
                      - name: TIME
                        values: ["%2$s/%3$s/PT5M"]
                        default: "%2$s"
                  - name: latest
                    zoom: {min: 0, max: 6}
                    tileMatrixSets: [WebMercatorQuad]
                    source: {type: wms, url: "%1$s", version: "1.3.0", layers: [frames], timeout: 30s}
                    dimensions:
                      - name: TIME
                        values: ["%2$s/%3$s/PT5M"]
                        retention: {keep: 1}
                  - name: styled
                    zoom: {min: 0, max: 6}
                    tileMatrixSets: [WebMercatorQuad]
                    source: {type: wms, url: "%1$s", version: "1.3.0", layers: [styled], timeout: 30s}
                    dimensions:
                      - {name: STYLES, values: [day, night], default: day}
                """.formatted(wmsUrl, NOON, FIVE_PAST));
    }

    @Test
    void eachTimeIsACacheOfTheTilesTheServerDrawsForIt() throws Exception {
        try (Engine engine = engine()) {
            assertThat(seed(engine, "frames", Map.of("TIME", List.of("2026-11-26T12:00Z", FIVE_PAST)))
                    .state()).isEqualTo(JobState.SUCCEEDED);
        }
        Path noon = root.resolve("frames/WebMercatorQuad/" + NOON);
        Path fivePast = root.resolve("frames/WebMercatorQuad/" + FIVE_PAST);
        assertMatchesTheServer(noon, "frames", Map.of("TIME", NOON));
        assertMatchesTheServer(fivePast, "frames", Map.of("TIME", FIVE_PAST));
        // z3 tile 4/2 (0 to 45 E, 41 to 67 N) holds part of the 12:00 frame only; 4/4 (0 to 41 S) of the 12:05 one.
        assertThat(noon.resolve("3/4/2.png")).exists();
        assertThat(fivePast.resolve("3/4/2.png")).as("no 12:05 frame over Europe").doesNotExist();
        assertThat(fivePast.resolve("3/4/4.png")).exists();
        assertThat(noon.resolve("3/4/4.png")).as("no 12:00 frame over southern Africa").doesNotExist();

        JsonNode manifest = new ObjectMapper().readTree(fivePast.resolve("manifest-png.json").toFile());
        assertThat(manifest.path("dimensions").path("TIME").asText()).isEqualTo(FIVE_PAST);
        assertThat(manifest.path("job").path("caches").asInt()).isEqualTo(2);
        assertThat(manifest.path("documents").path("wmtsCapabilities").asText())
                .isEqualTo("../WMTSCapabilities-png.xml");
        JsonNode tileJson = new ObjectMapper().readTree(fivePast.resolve("tilejson-png.json").toFile());
        assertThat(tileJson.path("tiles").get(0).asText()).endsWith("/frames/WebMercatorQuad/" + FIVE_PAST
                + "/{z}/{x}/{y}.png");

        Path capabilities = root.resolve("frames/WebMercatorQuad/WMTSCapabilities-png.xml");
        String xml = Files.readString(capabilities);
        assertThat(xml).contains("<ows:Identifier>TIME</ows:Identifier>", "<Default>" + NOON + "</Default>",
                "<Value>" + NOON + "</Value>", "<Value>" + FIVE_PAST + "</Value>",
                "frames/WebMercatorQuad/{TIME}/{TileMatrix}/{TileCol}/{TileRow}.png");
        // GDAL puts each dimension's Default in the template: the capabilities as written read the 12:00 cache, and
        // a copy naming 12:05 as the default reads the 12:05 one.
        GdalWmts.assertReadsTheStoredTiles(root, capabilities.toString(), TileMatrixSet.WEB_MERCATOR_QUAD, ZOOM,
                noon);
        Path later = root.resolve("frames/WebMercatorQuad/WMTSCapabilities-1205.xml");
        Files.writeString(later, xml.replace("<Default>" + NOON + "</Default>", "<Default>" + FIVE_PAST
                + "</Default>"));
        GdalWmts.assertReadsTheStoredTiles(root, later.toString(), TileMatrixSet.WEB_MERCATOR_QUAD, ZOOM, fivePast);
    }

    /** A new value is seeded beside the others, which stay as they were; a truncate of one drops it. */
    @Test
    void aNewValueJoinsTheCapabilitiesAndATruncatedOneLeavesThem() throws Exception {
        Path capabilities = root.resolve("frames/WebMercatorQuad/WMTSCapabilities-png.xml");
        Path noonManifest = root.resolve("frames/WebMercatorQuad/" + NOON + "/manifest-png.json");
        try (Engine engine = engine()) {
            JobStatus first = seed(engine, "frames", Map.of());
            assertThat(first.state()).isEqualTo(JobState.SUCCEEDED);
            assertThat(Files.readString(capabilities)).contains("<Value>" + NOON + "</Value>")
                    .doesNotContain(FIVE_PAST);
            byte[] noonTile = Files.readAllBytes(root.resolve("frames/WebMercatorQuad/" + NOON + "/3/4/2.png"));

            assertThat(seed(engine, "frames", Map.of("TIME", FIVE_PAST)).state()).isEqualTo(JobState.SUCCEEDED);
            assertThat(Files.readString(capabilities)).contains("<Value>" + NOON + "</Value>",
                    "<Value>" + FIVE_PAST + "</Value>");
            assertThat(new ObjectMapper().readTree(noonManifest.toFile()).path("job").path("id").asText())
                    .as("the 12:00 cache is the first job's still").isEqualTo(first.id());
            assertThat(root.resolve("frames/WebMercatorQuad/" + NOON + "/3/4/2.png")).hasBinaryContent(noonTile);

            JobStatus truncate = engine.jobs().submit(new JobRequest("frames", null, new JobRequest.Zoom(0, 6), null,
                    null, "truncate", null, null, null, Map.of(), null, null, null,
                    Map.of("TIME", new ObjectMapper().valueToTree(NOON))), null);
            assertThat(await(engine, truncate).state()).isEqualTo(JobState.SUCCEEDED);
        }
        assertThat(noonManifest).doesNotExist();
        assertThat(root.resolve("frames/WebMercatorQuad/" + NOON + "/3/4/2.png")).doesNotExist();
        assertThat(Files.readString(capabilities)).contains("<Value>" + FIVE_PAST + "</Value>")
                .doesNotContain("<Value>" + NOON + "</Value>");
    }

    /** A layer that keeps the last frame only: seeding 12:05 deletes the 12:00 cache and drops it from the list. */
    @Test
    void retentionDeletesTheCachesOfTheValuesItNoLongerKeeps() throws Exception {
        Path capabilities = root.resolve("latest/WebMercatorQuad/WMTSCapabilities-png.xml");
        try (Engine engine = engine()) {
            assertThat(seed(engine, "latest", Map.of("TIME", NOON)).state()).isEqualTo(JobState.SUCCEEDED);
            assertThat(root.resolve("latest/WebMercatorQuad/" + NOON + "/3/4/2.png")).exists();
            assertThat(seed(engine, "latest", Map.of("TIME", FIVE_PAST)).state()).isEqualTo(JobState.SUCCEEDED);
        }
        assertThat(root.resolve("latest/WebMercatorQuad/" + NOON)).as("the whole 12:00 cache").doesNotExist();
        assertThat(root.resolve("latest/WebMercatorQuad/" + FIVE_PAST + "/3/4/4.png")).exists();
        assertThat(Files.readString(capabilities)).contains("<Value>" + FIVE_PAST + "</Value>")
                .doesNotContain(NOON);
    }

    @Test
    void eachStyleIsACacheOfTheTilesTheServerDrawsInIt() throws Exception {
        try (Engine engine = engine()) {
            assertThat(seed(engine, "styled", Map.of("styles", List.of("day", "night"))).state())
                    .isEqualTo(JobState.SUCCEEDED);
        }
        Path day = root.resolve("styled/WebMercatorQuad/day");
        Path night = root.resolve("styled/WebMercatorQuad/night");
        assertMatchesTheServer(day, "styled", Map.of("STYLES", "day"));
        assertMatchesTheServer(night, "styled", Map.of("STYLES", "night"));
        assertThat(Files.readAllBytes(day.resolve("3/4/2.png"))).as("land over Europe, drawn in two styles")
                .isNotEqualTo(Files.readAllBytes(night.resolve("3/4/2.png")));
        // STYLES is the WMTS layer's styles: GDAL reads the default one, and the other when named.
        Path capabilities = root.resolve("styled/WebMercatorQuad/WMTSCapabilities-png.xml");
        assertThat(Files.readString(capabilities)).contains(
                "<Style isDefault=\"true\"><ows:Identifier>day</ows:Identifier></Style>",
                "<Style isDefault=\"false\"><ows:Identifier>night</ows:Identifier></Style>",
                "styled/WebMercatorQuad/{Style}/{TileMatrix}/{TileCol}/{TileRow}.png").doesNotContain("<Dimension>");
        GdalWmts.assertReadsTheStoredTiles(root, capabilities.toString(), TileMatrixSet.WEB_MERCATOR_QUAD, ZOOM, day);
        GdalWmts.assertReadsTheStoredTiles(root, capabilities + ",style=night", TileMatrixSet.WEB_MERCATOR_QUAD,
                ZOOM, night);
    }

    private Engine engine() {
        return Embedded.engine(Settings.from(Settings.config(Map.of("seeder.store.path", root.toString(),
                "seeder.layers.file", layers.toString(), "seeder.workers.threads", "2"))));
    }

    private static JobStatus seed(Engine engine, String layer, Map<String, ?> dimensions) throws Exception {
        ObjectMapper json = new ObjectMapper();
        Map<String, JsonNode> values = new LinkedHashMap<>();
        dimensions.forEach((name, value) -> values.put(name, json.valueToTree(value)));
        JobStatus job = engine.jobs().submit(new JobRequest(layer, null, new JobRequest.Zoom(0, ZOOM), null, null,
                null, null, null, null, Map.of(), null, null, null, values), null);
        return await(engine, job);
    }

    private static JobStatus await(Engine engine, JobStatus job) throws Exception {
        return engine.jobs().awaitFinal(job.id(), Duration.ofSeconds(120)).orElseThrow().get(130, TimeUnit.SECONDS);
    }

    /**
     * Every tile of zoom 3 in the cache is what the server draws for one 256 px GetMap with the same values (up to
     * antialiased edges), and a tile not stored is one the server draws empty.
     */
    private void assertMatchesTheServer(Path cache, String layer, Map<String, String> values) throws Exception {
        WmsSourceConfig source = (WmsSourceConfig) LayerCatalogFile.read(layers).layer(layer).orElseThrow().source();
        TileMatrixSet tms = TileMatrixSet.WEB_MERCATOR_QUAD;
        WmsClient client = new WmsClient(2);
        int stored = 0;
        for (TileCoord tile : tms.fullRange(ZOOM)) {
            BufferedImage server = client.getMap(source, GetMap.url(source, tms, tms.tileBounds(tile), 256, 256,
                    new DimensionValues(values)), 256, 256);
            Path file = cache.resolve(tile.z() + "/" + tile.x() + "/" + tile.y() + ".png");
            if (!Files.exists(file)) {
                assertThat(opaquePixels(server)).as("%s %s not stored: empty at the server", values, tile).isZero();
                continue;
            }
            stored++;
            BufferedImage seeded = ImageIO.read(file.toFile());
            int differing = 0;
            for (int y = 0; y < 256; y++) {
                for (int x = 0; x < 256; x++) {
                    differing += seeded.getRGB(x, y) == server.getRGB(x, y) ? 0 : 1;
                }
            }
            assertThat(differing).as("%s %s: pixels unlike the server's", values, tile)
                    .isLessThanOrEqualTo(MAX_EDGE_PIXELS);
        }
        assertThat(stored).as("%s: tiles stored at zoom %d", values, ZOOM).isPositive();
    }

    private static int opaquePixels(BufferedImage image) {
        int count = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                count += image.getRGB(x, y) >>> 24 == 0 ? 0 : 1;
            }
        }
        return count;
    }
}
