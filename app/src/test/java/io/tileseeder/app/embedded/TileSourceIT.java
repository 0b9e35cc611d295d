package io.tileseeder.app.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.grid.WebMercator;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * same grid and format it comes out byte for byte, in another format re-encoded, tiles the server answers 404 for are empty and skipped as in the original,
 * 512 px tiles are the original's four 256 px tiles, and one zoom past the upstream's last is the last enlarged
 * (bilinear), close to the original drawn at that zoom.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TileSourceIT {

    @TempDir
    Path root;
    private Path original;
    private StaticWebServer server;
    private String base;

    @BeforeEach
    void seedAndServeTheOriginal() throws Exception {
        original = Files.createDirectories(root.resolve("original"));
        server = StaticWebServer.serve(original, root);
        base = server.url();
        EmbeddedJobs.succeed(Map.of("seeder.store.path", original.toString(), "seeder.store.public-url",
                base + "/"), EmbeddedJobs.zooms("world", "WebMercatorQuad", 5, null));
    }

    @AfterEach
    void stopTheServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    /**
     * The upstream's PNGs rewritten first by another encoder (the JDK's, true colour, where the seeder's would write a
     * palette): the cascade's tiles are those files, not the seeder's own encoding of their pixels.
     */
    @Test
    void aCascadeOfTheSameGridAndFormatIsTheOriginalByteForByte() throws Exception {
        Set<String> originals = pngs(original.resolve("world/WebMercatorQuad"), 4);
        for (String tile : originals) {
            Path png = original.resolve("world/WebMercatorQuad/" + tile);
            BufferedImage decoded = ImageIO.read(png.toFile());
            BufferedImage argb = new BufferedImage(decoded.getWidth(), decoded.getHeight(),
                    BufferedImage.TYPE_INT_ARGB);
            argb.getGraphics().drawImage(decoded, 0, 0, null);
            assertThat(ImageIO.write(argb, "png", png.toFile())).isTrue();
        }
        Path cascade = seedCascade("WebMercatorQuad", 5, 4);
        assertThat(pngs(cascade.resolve("cascade/WebMercatorQuad"), 4)).as("the tiles stored, empty ones skipped")
                .isEqualTo(originals).isNotEmpty();
        for (String tile : originals) {
            assertThat(Files.readAllBytes(cascade.resolve("cascade/WebMercatorQuad/" + tile))).as(tile)
                    .isEqualTo(Files.readAllBytes(original.resolve("world/WebMercatorQuad/" + tile)));
        }
    }

    /**
     * The same grid into JPEG: every tile re-encoded (a JPEG, where the upstream's are PNGs), its pixels those of the
     * original over the layer's white background within JPEG's loss: a mean difference under 3 of 255 per channel.
     */
    @Test
    void aCascadeIntoAnotherFormatIsReencoded() throws Exception {
        Path cascade = seedCascade("WebMercatorQuad", 5, 3, "jpeg");
        Set<String> originals = pngs(original.resolve("world/WebMercatorQuad"), 3);
        assertThat(originals).isNotEmpty();
        long difference = 0;
        long samples = 0;
        for (String tile : originals) {
            Path jpeg = cascade.resolve("cascade/WebMercatorQuad/" + tile.replace(".png", ".jpg"));
            byte[] bytes = Files.readAllBytes(jpeg);
            assertThat(bytes).as(tile).startsWith(0xFF, 0xD8, 0xFF);
            int[] got = pixels(jpeg);
            int[] expected = pixels(original.resolve("world/WebMercatorQuad/" + tile));
            for (int i = 0; i < got.length; i++) {
                int alpha = expected[i] >>> 24;
                for (int shift = 0; shift < 24; shift += 8) {
                    int over = ((expected[i] >>> shift & 0xff) * alpha + 255 * (255 - alpha)) / 255;
                    difference += Math.abs((got[i] >>> shift & 0xff) - over);
                    samples++;
                }
            }
        }
        double mean = (double) difference / samples;
        System.out.printf("png cascaded into jpeg: mean difference %.2f of 255 over %d tiles%n", mean,
                originals.size());
        assertThat(mean).isLessThan(3);
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
        EmbeddedJobs.succeed(Map.of("seeder.store.path", cascade.toString(), "seeder.layers.file",
                layers.toString()), EmbeddedJobs.zooms("cascade", "WebMercatorQuad", 4, null));
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
     * WorldCRS84Quad from the Web Mercator original, warped: against the world layer drawn in WorldCRS84Quad itself,
     * z0-3, the mean difference per channel within Web Mercator's latitudes stays under 4 of 255 (measured: 1.0;
     * strokes are drawn at another scale, and warped), and every pixel beyond them is transparent.
     */
    @Test
    void anotherCrsIsWarpedFromTheUpstreamsGrid() throws Exception {
        Path direct = root.resolve("direct");
        EmbeddedJobs.succeed(Map.of("seeder.store.path", direct.toString()),
                EmbeddedJobs.zooms("world", "WorldCRS84Quad", 3, null));
        Path cascade = seedCascade("WorldCRS84Quad", 5, 3);
        Set<String> tiles = pngs(cascade.resolve("cascade/WorldCRS84Quad"), 3);
        assertThat(tiles).isEqualTo(pngs(direct.resolve("world/WorldCRS84Quad"), 3));
        double limit = Math.toDegrees(Math.atan(Math.sinh(Math.PI)));
        long difference = 0;
        long samples = 0;
        long beyond = 0;
        for (String tile : tiles) {
            String[] zxy = tile.replace(".png", "").split("/");
            int z = Integer.parseInt(zxy[0]);
            int y = Integer.parseInt(zxy[2]);
            double degreesPerPixel = 180.0 / (1 << z) / 256;
            int[] got = pixels(cascade.resolve("cascade/WorldCRS84Quad/" + tile));
            int[] expected = pixels(direct.resolve("world/WorldCRS84Quad/" + tile));
            for (int i = 0; i < got.length; i++) {
                double latitude = 90 - (y * 256 + i / 256 + 0.5) * degreesPerPixel;
                if (Math.abs(latitude) > limit + degreesPerPixel) {
                    assertThat(got[i] >>> 24).as("%s pixel %d at %.2f°", tile, i, latitude).isZero();
                    beyond++;
                } else if (Math.abs(latitude) < limit - degreesPerPixel) {
                    for (int shift = 0; shift < 32; shift += 8) {
                        difference += Math.abs((got[i] >>> shift & 0xff) - (expected[i] >>> shift & 0xff));
                        samples++;
                    }
                }
            }
        }
        double mean = (double) difference / samples;
        System.out.printf("WorldCRS84Quad z0-3 warped from WebMercatorQuad: mean difference %.2f of 255 over %d "
                + "tiles, %d pixels beyond Web Mercator transparent%n", mean, tiles.size(), beyond);
        assertThat(beyond).isPositive();
        assertThat(mean).isLessThan(4);
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
        return seedCascade(set, upstreamMaxZoom, maxZoom, null);
    }

    private Path seedCascade(String set, int upstreamMaxZoom, int maxZoom, String format) throws Exception {
        Path grid = root.resolve("WebMercatorQuad512.json");
        Files.writeString(grid, mercator512());
        Path layers = root.resolve("cascade.yaml");
        Files.writeString(layers, """
                tileMatrixSetFiles: [WebMercatorQuad512.json]
                layers:
                  - name: cascade
                    tileMatrixSets: [WebMercatorQuad, WebMercatorQuad512, WorldCRS84Quad]
                    gutter: 0
                    source:
                      type: tile
                      url: "%s/world/WebMercatorQuad/{z}/{x}/{y}.png"
                      zoom: {min: 0, max: %d}
                      tileMatrixSet: WebMercatorQuad
                      timeout: 30s
                """.formatted(base, upstreamMaxZoom));
        Path out = root.resolve("cascade-" + set + "-" + maxZoom + "-" + format);
        EmbeddedJobs.succeed(Map.of("seeder.store.path", out.toString(), "seeder.layers.file", layers.toString()),
                EmbeddedJobs.zooms("cascade", set, maxZoom, format));
        return out;
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
