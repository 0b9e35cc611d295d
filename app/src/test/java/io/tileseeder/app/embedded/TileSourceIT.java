package io.tileseeder.app.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.app.Embedded;
import io.tileseeder.grid.WebMercator;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.server.Engine;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tile source cascading the seeder's own cache: the world layer seeded to a folder, served by a real web server
 * (Debian's lighttpd, which dev/services installs for the WMS), and seeded again through a {@code tile} layer: in the
 * same grid it comes out pixel for pixel, tiles the server answers 404 for are empty and skipped as in the original,
 * 512 px tiles are the original's four 256 px tiles, and one zoom past the upstream's last is the last enlarged
 * (bilinear), close to the original drawn at that zoom.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TileSourceIT {

    private static final String LIGHTTPD = "/usr/sbin/lighttpd";

    @TempDir
    Path root;
    private Path original;
    private Process server;
    private String base;

    @BeforeEach
    void seedAndServeTheOriginal() throws Exception {
        original = Files.createDirectories(root.resolve("original"));
        base = serve(original);
        try (Engine engine = Embedded.engine(Settings.from(Settings.config(Map.of("seeder.store.path",
                original.toString(), "seeder.store.public-url", base + "/", "seeder.workers.threads", "2"))))) {
            assertThat(seed(engine, "world", "WebMercatorQuad", 5).state()).isEqualTo(JobState.SUCCEEDED);
        }
    }

    @AfterEach
    void stopTheServer() throws Exception {
        if (server != null) {
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aCascadeOfTheSameGridIsTheOriginalPixelForPixel() throws Exception {
        Path cascade = seedCascade("WebMercatorQuad", 5, 4);
        Set<String> originals = pngs(original.resolve("world/WebMercatorQuad"), 4);
        assertThat(pngs(cascade.resolve("cascade/WebMercatorQuad"), 4)).as("the tiles stored, empty ones skipped")
                .isEqualTo(originals).isNotEmpty();
        for (String tile : originals) {
            assertThat(normalized(pixels(cascade.resolve("cascade/WebMercatorQuad/" + tile)))).as(tile)
                    .isEqualTo(normalized(pixels(original.resolve("world/WebMercatorQuad/" + tile))));
        }
    }

    /** The same cache cascaded as a WMTS, through the capabilities the seeder wrote beside it. */
    @Test
    void aWmtsCascadeThroughItsCapabilitiesIsTheOriginalPixelForPixel() throws Exception {
        Path layers = root.resolve("wmts.yaml");
        Files.writeString(layers, """
                layers:
                  - name: cascade
                    tileMatrixSets: [WebMercatorQuad]
                    gutter: 0
                    source:
                      type: wmts
                      url: "%s/world/WebMercatorQuad/WMTSCapabilities-png.xml"
                      layer: world
                """.formatted(base));
        Path cascade = root.resolve("wmts");
        try (Engine engine = Embedded.engine(Settings.from(Settings.config(Map.of("seeder.store.path",
                cascade.toString(), "seeder.layers.file", layers.toString(), "seeder.workers.threads", "2"))))) {
            JobStatus done = seed(engine, "cascade", "WebMercatorQuad", 4);
            assertThat(done.state()).as(String.valueOf(done.reason())).isEqualTo(JobState.SUCCEEDED);
        }
        Set<String> originals = pngs(original.resolve("world/WebMercatorQuad"), 4);
        assertThat(pngs(cascade.resolve("cascade/WebMercatorQuad"), 4)).isEqualTo(originals).isNotEmpty();
        for (String tile : originals) {
            assertThat(normalized(pixels(cascade.resolve("cascade/WebMercatorQuad/" + tile)))).as(tile)
                    .isEqualTo(normalized(pixels(original.resolve("world/WebMercatorQuad/" + tile))));
        }
    }

    @Test
    void tilesOfAnotherSizeAreTheOriginalsFourTiles() throws Exception {
        Path cascade = seedCascade("WebMercatorQuad512", 5, 3);
        int compared = 0;
        for (String tile : pngs(cascade.resolve("cascade/WebMercatorQuad512"), 3)) {
            String[] zxy = tile.replace(".png", "").split("/");
            int z = Integer.parseInt(zxy[0]);
            int x = Integer.parseInt(zxy[1]);
            int y = Integer.parseInt(zxy[2]);
            BufferedImage big = ImageIO.read(cascade.resolve("cascade/WebMercatorQuad512/" + tile).toFile());
            assertThat(big.getWidth()).isEqualTo(512);
            for (int dy = 0; dy < 2; dy++) {
                for (int dx = 0; dx < 2; dx++) {
                    Path quarter = original.resolve("world/WebMercatorQuad/" + (z + 1) + "/" + (2 * x + dx) + "/"
                            + (2 * y + dy) + ".png");
                    int[] expected = Files.exists(quarter) ? pixels(quarter) : new int[256 * 256];
                    int[] got = big.getRGB(dx * 256, dy * 256, 256, 256, null, 0, 256);
                    assertThat(normalized(got)).as("%s quarter %d,%d", tile, dx, dy).isEqualTo(normalized(expected));
                    compared++;
                }
            }
        }
        assertThat(compared).isPositive();
    }

    /**
     * Zoom 5 from an upstream that ends at 4: each tile a quarter of a zoom 4 tile, doubled. Against the original's own
     * zoom 5 tiles, drawn at that zoom with strokes of the same width, the mean difference per channel stays under
     * 6 of 255 (measured: 1.9): colours agree, edges are softer and strokes twice as thick.
     */
    @Test
    void pastTheUpstreamsLastLevelItsTilesAreEnlarged() throws Exception {
        Path cascade = seedCascade("WebMercatorQuad", 4, 5);
        Set<String> tiles = pngs(cascade.resolve("cascade/WebMercatorQuad"), 5).stream()
                .filter(tile -> tile.startsWith("5/")).collect(Collectors.toSet());
        assertThat(tiles).isNotEmpty();
        long difference = 0;
        long samples = 0;
        for (String tile : tiles) {
            Path own = original.resolve("world/WebMercatorQuad/" + tile);
            int[] expected = Files.exists(own) ? pixels(own) : new int[256 * 256];
            int[] got = pixels(cascade.resolve("cascade/WebMercatorQuad/" + tile));
            for (int i = 0; i < got.length; i++) {
                for (int shift = 0; shift < 32; shift += 8) {
                    difference += Math.abs((got[i] >>> shift & 0xff) - (expected[i] >>> shift & 0xff));
                    samples++;
                }
            }
        }
        double mean = (double) difference / samples;
        System.out.printf("overzoom z5 from z4, bilinear: mean difference %.2f of 255 over %d tiles%n", mean,
                tiles.size());
        assertThat(mean).isLessThan(6);
    }

    private Path seedCascade(String set, int upstreamMaxZoom, int maxZoom) throws Exception {
        Path grid = root.resolve("WebMercatorQuad512.json");
        Files.writeString(grid, mercator512());
        Path layers = root.resolve("cascade.yaml");
        Files.writeString(layers, """
                tileMatrixSetFiles: [WebMercatorQuad512.json]
                layers:
                  - name: cascade
                    tileMatrixSets: [WebMercatorQuad, WebMercatorQuad512]
                    gutter: 0
                    source:
                      type: tile
                      url: "%s/world/WebMercatorQuad/{z}/{x}/{y}.png"
                      zoom: {min: 0, max: %d}
                      timeout: 30s
                """.formatted(base, upstreamMaxZoom));
        Path out = root.resolve("cascade-" + set + "-" + maxZoom);
        try (Engine engine = Embedded.engine(Settings.from(Settings.config(Map.of("seeder.store.path",
                out.toString(), "seeder.layers.file", layers.toString(), "seeder.workers.threads", "2"))))) {
            JobStatus done = seed(engine, "cascade", set, maxZoom);
            assertThat(done.state()).as(String.valueOf(done.reason())).isEqualTo(JobState.SUCCEEDED);
        }
        return out;
    }

    private static JobStatus seed(Engine engine, String layer, String set, int maxZoom) throws Exception {
        JobStatus job = engine.jobs().submit(new JobRequest(layer, set, new JobRequest.Zoom(0, maxZoom), null, null,
                null, null, null, null, Map.of()), null);
        return engine.jobs().awaitFinal(job.id(), Duration.ofSeconds(120)).orElseThrow().get(130, TimeUnit.SECONDS);
    }

    /** WebMercatorQuad's extent and origin in tiles of 512 px: zoom z's tile covers a 256 px tile's of zoom z. */
    private static String mercator512() {
        StringBuilder matrices = new StringBuilder();
        double half = WebMercator.HALF_WORLD;
        for (int z = 0; z <= 6; z++) {
            matrices.append(z == 0 ? "" : ",").append("""
                    {"id": "%d", "scaleDenominator": %s, "cellSize": %s, "cornerOfOrigin": "topLeft",
                     "pointOfOrigin": [%s, %s], "tileWidth": 512, "tileHeight": 512, "matrixWidth": %d,
                     "matrixHeight": %d}""".formatted(z, 2 * half / (512 << z) / 0.00028, 2 * half / (512 << z), -half,
                    half, 1 << z, 1 << z));
        }
        return """
                {"id": "WebMercatorQuad512", "crs": "http://www.opengis.net/def/crs/EPSG/0/3857",
                 "orderedAxes": ["X", "Y"], "tileMatrices": [%s]}""".formatted(matrices);
    }

    /** Serves the folder with lighttpd on a free loopback port; its base URL. */
    private String serve(Path folder) throws Exception {
        assertThat(Path.of(LIGHTTPD)).as("lighttpd (dev/services up --wms installs it)").exists();
        for (int attempt = 1; ; attempt++) {
            int port;
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = socket.getLocalPort();
            }
            Path config = root.resolve("lighttpd-" + attempt + ".conf");
            Files.writeString(config, """
                    server.document-root = "%s"
                    server.bind = "127.0.0.1"
                    server.port = %d
                    server.errorlog = "%s"
                    mimetype.assign = (".png" => "image/png", ".json" => "application/json")
                    """.formatted(folder, port, root.resolve("lighttpd-" + attempt + ".log")));
            server = new ProcessBuilder(LIGHTTPD, "-D", "-f", config.toString()).redirectErrorStream(true)
                    .redirectOutput(root.resolve("lighttpd-" + attempt + ".out").toFile()).start();
            String url = "http://127.0.0.1:" + port;
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (server.isAlive() && System.nanoTime() < deadline) {
                if (answers(url + "/")) {
                    return url;
                }
                Thread.sleep(50);
            }
            server.destroy();
            if (attempt == 3) {
                throw new IllegalStateException("lighttpd did not start: " + Files.readString(
                        root.resolve("lighttpd-" + attempt + ".out")));
            }
        }
    }

    private static boolean answers(String url) {
        try {
            HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
            connection.setConnectTimeout(500);
            return connection.getResponseCode() > 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** The tiles ({@code z/x/y.png}) in the folder up to {@code maxZoom}. */
    private static Set<String> pngs(Path folder, int maxZoom) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(f -> f.toString().endsWith(".png")).map(f -> folder.relativize(f).toString())
                    .filter(name -> Integer.parseInt(name.substring(0, name.indexOf('/'))) <= maxZoom)
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static int[] pixels(Path png) throws IOException {
        BufferedImage image = ImageIO.read(png.toFile());
        return image.getRGB(0, 0, image.getWidth(), image.getHeight(), null, 0, image.getWidth());
    }

    /** Fully transparent pixels are one value whatever their colour channels. */
    private static int[] normalized(int[] pixels) {
        int[] out = pixels.clone();
        for (int i = 0; i < out.length; i++) {
            if (out[i] >>> 24 == 0) {
                out[i] = 0;
            }
        }
        return out;
    }
}
