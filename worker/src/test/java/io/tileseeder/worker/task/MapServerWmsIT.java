package io.tileseeder.worker.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.adapters.file.Folders;
import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.grid.TileRange;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import io.tileseeder.layer.LayerCatalogConfig;
import io.tileseeder.layer.LayerCatalogFile;
import io.tileseeder.layer.LayerConfig;
import io.tileseeder.layer.WmsSourceConfig;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.message.TileCounts;
import io.tileseeder.render.LayerResources;
import io.tileseeder.render.RenderFixtures;
import io.tileseeder.render.wms.GetMap;
import io.tileseeder.render.wms.WmsClient;
import io.tileseeder.render.wms.WmsException;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeds from the real MapServer WMS that {@code dev/services up --wms} runs (Natural Earth countries, the data of
 * the bundled {@code world} layer), and checks that each tile cut from a metatile is the tile the server draws
 * for a GetMap of that tile alone.
 *
 * <p>Tolerance: every pixel away from a drawn edge (its 3×3 neighbourhood is one colour in both tiles) must be
 * identical; a pixel on an edge may differ, in at most {@link #MAX_EDGE_PIXELS} pixels of a tile. MapServer
 * draws with AGG, antialiased, and simplifies each outline in pixel space (vertices closer than a pixel are
 * merged), starting from where the outline enters the requested image. A metatile and a single tile share the
 * pixel grid but cut the outlines at different image borders, so the same coastline can be simplified slightly
 * differently, moving an antialiased edge by a fraction of a pixel: measured on this sample, up to 405 edge pixels
 * of a 256 px tile (0.6 %, at zoom 1 where a pixel spans 78 km of coast) differ, by up to 245 in one channel,
 * and not one pixel away from an edge. (Where an outline runs along a tile's border, the single tile loses the
 * half of its stroke outside the image; the metatile, drawn with a gutter, keeps it.)
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MapServerWmsIT {

    /** Edge pixels of one tile that may differ: 2 % of the tile, three times the most measured. */
    static final int MAX_EDGE_PIXELS = 256 * 256 / 50;

    private static String wmsUrl;

    @TempDir
    Path dir;

    @BeforeAll
    static void server() {
        wmsUrl = System.getenv("SEEDER_WMS_URL");
        assertThat(wmsUrl).as("SEEDER_WMS_URL (run dev/services up --wms and source .dev/services.env)")
                .isNotBlank();
    }

    private LayerCatalogConfig catalog(String version, String wmsLayer) throws IOException {
        return catalog(version, wmsLayer, "image/png");
    }

    private LayerCatalogConfig catalog(String version, String wmsLayer, String format) throws IOException {
        return catalog(version, wmsLayer, format, "");
    }

    /** The upstream layer; {@code head} goes before {@code layers:}, {@code sets} as its tileMatrixSets if given. */
    private LayerCatalogConfig catalog(String version, String wmsLayer, String format, String head, String... sets)
            throws IOException {
        return LayerCatalogFile.read(RenderFixtures.writeCatalog(dir, head + """
                layers:
                  - name: upstream
                    metatile: {width: 4, height: 4}
                    gutter: 16
                    emptyTiles: store
                    formats: [png]
                """ + (sets.length == 0 ? "" : "    tileMatrixSets: [" + String.join(", ", sets) + "]\n") + """
                    source:
                      type: wms
                      url: %s
                      version: "%s"
                      layers: [%s]
                      format: "%s"
                      timeout: 30s
                """.formatted(wmsUrl, version, wmsLayer, format)));
    }

    /** One metatile per zoom level over Europe (land, coasts and borders), in both matrix sets. */
    private static List<Metatile> sample(TileMatrixSet tms) {
        List<Metatile> metatiles = new ArrayList<>();
        for (int z : new int[] {1, 3, 5, 7}) {
            TileRange range = tms.tileRange(new Bounds(10, 50, 10, 50), z);
            TileCoord tile = TileCoord.of(z, range.minX(), range.minY());
            metatiles.add(Metatile.containing(tms, tile, MetatileSize.DEFAULT));
        }
        return metatiles;
    }

    @ParameterizedTest
    @ValueSource(strings = {WmsSourceConfig.V111, WmsSourceConfig.V130})
    void tilesCutFromMetatilesAreTheTilesTheServerDraws(String version) throws Exception {
        LayerCatalogConfig catalog = catalog(version, "world");
        LayerResources resources = new LayerResources(catalog, new WmsClient(2));
        LayerConfig layer = resources.layer("upstream");
        WmsSourceConfig source = (WmsSourceConfig) layer.source();
        FileTileStore store = new FileTileStore(dir.resolve("tiles"));
        MetatileProcessor processor = new MetatileProcessor(resources, store, new WorkerFixtures.MapLock(),
                WorkerFixtures.LOCK_WAIT, WorkerMetrics.unregistered());
        WmsClient direct = new WmsClient(2);
        int compared = 0;
        int edgePixels = 0;
        for (TileMatrixSet tms : TileMatrixSet.builtIn()) {
            for (Metatile metatile : sample(tms)) {
                MetatileTask task = MetatileTask.of("it", 0, "upstream", TileFormat.PNG, Mode.RESEED, metatile,
                        metatile.tiles(), null);
                TileCounts counts = processor.process(task).orElseThrow();
                assertThat(counts.written()).as("%s: every tile written", metatile).isEqualTo(metatile.tiles().count());
                for (TileCoord tile : WorkerFixtures.tilesOf(metatile.tiles())) {
                    BufferedImage seeded = WorkerFixtures.decodePng(
                            WorkerFixtures.tilePath(dir.resolve("tiles"), "upstream", tms, tile));
                    BufferedImage server = direct.getMap(source, GetMap.url(source, tms, tms.tileBounds(tile),
                            TileMatrixSet.TILE_SIZE, TileMatrixSet.TILE_SIZE), 256, 256);
                    edgePixels += assertSameAwayFromEdges(seeded, server, tms + " " + tile + " WMS " + version);
                    compared++;
                }
            }
        }
        assertThat(compared).isEqualTo(2 * (4 + 16 * 3) + (8 - 4));
        System.out.printf("WMS %s: %d tiles compared, %d edge pixels differ%n", version, compared, edgePixels);
    }

    /**
     * The same comparison in three other CRSs, which MapServer reprojects its data into: ETRS89-LAEA (northing first,
     * so WMS 1.3.0's BBOX is northing first), UTM zone 32N, and a Swiss LV95 set from an OGC JSON file with
     * TileCloud-chain's resolution list (1000, 500, 250, 100, 50, 20, 10, 5, 2, 1 and 0.5 m a pixel, not powers of
     * two, matrices of 2×2, 4×3, 8×5, 19×13… tiles whose last column and row reach past the bounding box), around
     * Bern, at zooms 1, 3, 5 and 7 (UTM: 5, 7 and 9); zoom 1 of the Swiss set is a metatile cut by the matrix's
     * bottom edge.
     */
    @ParameterizedTest
    @ValueSource(strings = {WmsSourceConfig.V111, WmsSourceConfig.V130})
    void tilesCutFromMetatilesAreTheTilesTheServerDrawsInOtherCrss(String version) throws Exception {
        java.nio.file.Files.writeString(dir.resolve("SwissLV95.json"), swissGrid());
        LayerCatalogConfig catalog = catalog(version, "world", "image/png", "tileMatrixSetFiles: [SwissLV95.json]\n",
                "EuropeanETRS89_LAEAQuad", "UTM32WGS84Quad", "SwissLV95");
        LayerResources resources = new LayerResources(catalog, new WmsClient(2));
        WmsSourceConfig source = (WmsSourceConfig) resources.layer("upstream").source();
        FileTileStore store = new FileTileStore(dir.resolve("tiles"));
        MetatileProcessor processor = new MetatileProcessor(resources, store, new WorkerFixtures.MapLock(),
                WorkerFixtures.LOCK_WAIT, WorkerMetrics.unregistered());
        WmsClient direct = new WmsClient(2);
        int edgePixels = 0;
        Set<String> opaque = new HashSet<>();
        for (String id : List.of("EuropeanETRS89_LAEAQuad", "UTM32WGS84Quad", "SwissLV95")) {
            TileMatrixSet tms = TileMatrixSet.byId(id).orElseThrow();
            int compared = 0;
            // UTM from zoom 5, and only the tiles centred within 15° of the zone's meridian (9° E): a metatile of
            // zoom 3 reaches 10,000 km west, where a transverse Mercator folds the world over, and MapServer fills
            // the folded polygons over the Atlantic in it, not in a single tile's image.
            int[] zooms = id.startsWith("UTM") ? new int[] {5, 7, 9} : new int[] {1, 3, 5, 7};
            for (int z : zooms) {
                TileRange range = tms.tileRange(new Bounds(7.44, 46.95, 7.44, 46.95), z);
                Metatile metatile = Metatile.containing(tms, TileCoord.of(z, range.minX(), range.minY()),
                        MetatileSize.DEFAULT);
                MetatileTask task = MetatileTask.of("it", 0, "upstream", TileFormat.PNG, Mode.RESEED, metatile,
                        metatile.tiles(), null);
                TileCounts counts = processor.process(task).orElseThrow();
                assertThat(counts.written()).as("%s: every tile written", metatile).isEqualTo(metatile.tiles().count());
                for (TileCoord tile : WorkerFixtures.tilesOf(metatile.tiles())) {
                    Bounds bounds = tms.tileBounds(tile);
                    double[] centre = tms.referenceSystem().toCrs84((bounds.minX() + bounds.maxX()) / 2,
                            (bounds.minY() + bounds.maxY()) / 2);
                    if (id.startsWith("UTM") && !(Math.abs(centre[0] - 9) < 15)) {
                        continue;
                    }
                    BufferedImage seeded = WorkerFixtures.decodePng(
                            WorkerFixtures.tilePath(dir.resolve("tiles"), "upstream", tms, tile));
                    BufferedImage server = direct.getMap(source, GetMap.url(source, tms, bounds, 256, 256), 256,
                            256);
                    edgePixels += assertSameAwayFromEdges(seeded, server, tms + " " + tile + " WMS " + version);
                    if (seeded.getRGB(128, 128) >>> 24 == 255) {
                        opaque.add(id);
                    }
                    compared++;
                }
            }
            assertThat(compared).as("%s: tiles compared", id).isGreaterThanOrEqualTo(3 * 4);
        }
        assertThat(opaque).as("sets whose tiles show land (drawn where the set's CRS puts Bern)")
                .containsExactlyInAnyOrder("EuropeanETRS89_LAEAQuad", "UTM32WGS84Quad", "SwissLV95");
        System.out.printf("WMS %s in other CRSs: %d edge pixels differ%n", version, edgePixels);
    }

    /** The dev WMS does not offer UPS North (EPSG:5041): the task fails with MapServer's own words, nothing stored. */
    @ParameterizedTest
    @ValueSource(strings = {WmsSourceConfig.V111, WmsSourceConfig.V130})
    void aCrsTheServerDoesNotOfferFailsTheTaskWithTheServersMessage(String version) throws Exception {
        LayerCatalogConfig catalog = catalog(version, "world", "image/png", "", "UPSArcticWGS84Quad");
        LayerResources resources = new LayerResources(catalog, new WmsClient(2));
        MetatileProcessor processor = new MetatileProcessor(resources, new FileTileStore(dir.resolve("x")),
                new WorkerFixtures.MapLock(), WorkerFixtures.LOCK_WAIT, WorkerMetrics.unregistered());
        Metatile metatile = new Metatile(TileMatrixSet.byId("UPSArcticWGS84Quad").orElseThrow(), 2, 0, 0,
                MetatileSize.DEFAULT);
        MetatileTask task = MetatileTask.of("it", 0, "upstream", TileFormat.PNG, Mode.SEED, metatile,
                metatile.tiles(), null);

        assertThatThrownBy(() -> processor.process(task)).isInstanceOf(WmsException.class)
                .hasMessageContaining("EPSG%3A5041").hasMessageMatching("(?s).*ServiceException \\(code Invalid(SRS|CRS)\\).*")
                .satisfies(e -> assertThat(((WmsException) e).retryable()).isFalse());
        assertThat(Folders.regularFiles(dir.resolve("x"))).as("nothing written").isEmpty();
    }

    /** Swiss LV95 over TileCloud-chain's sample bbox [2420000, 1030000, 2900000, 1350000], 256 px tiles. */
    static String swissGrid() {
        double[] resolutions = {1000, 500, 250, 100, 50, 20, 10, 5, 2, 1, 0.5};
        StringBuilder matrices = new StringBuilder();
        for (int i = 0; i < resolutions.length; i++) {
            double span = 256 * resolutions[i];
            matrices.append(i == 0 ? "" : ",").append("""
                    {"id": "%d", "cellSize": %s, "pointOfOrigin": [2420000, 1350000], "tileWidth": 256,
                     "tileHeight": 256, "matrixWidth": %d, "matrixHeight": %d}""".formatted(i, resolutions[i],
                    (int) Math.ceil(480000 / span), (int) Math.ceil(320000 / span)));
        }
        return """
                {"id": "SwissLV95", "crs": "http://www.opengis.net/def/crs/EPSG/0/2056", "orderedAxes": ["E", "N"],
                 "boundingBox": {"lowerLeft": [2420000, 1030000], "upperRight": [2900000, 1350000]},
                 "tileMatrices": [%s]}""".formatted(matrices);
    }

    /**
     * WMS 1.1.1 sends every BBOX easting first; 1.3.0 in the CRS's axis order, latitude first for EPSG:4326 and
     * northing first for EPSG:3035. Were the axes swapped, 1.3.0 would draw somewhere else entirely.
     */
    @ParameterizedTest
    @ValueSource(strings = {"WorldCRS84Quad", "EuropeanETRS89_LAEAQuad"})
    void wms111And130DrawTheSameTiles(String id) throws Exception {
        WmsSourceConfig v111 = (WmsSourceConfig) catalog(WmsSourceConfig.V111, "world").layer("upstream")
                .orElseThrow().source();
        WmsSourceConfig v130 = (WmsSourceConfig) catalog(WmsSourceConfig.V130, "world").layer("upstream")
                .orElseThrow().source();
        WmsClient client = new WmsClient(2);
        TileMatrixSet tms = TileMatrixSet.byId(id).orElseThrow();
        // Western Europe at zoom 3.
        TileRange range = tms.tileRange(new Bounds(2, 46, 2, 46), 3);
        TileCoord tile = TileCoord.of(3, range.minX(), range.minY());
        BufferedImage a = client.getMap(v111, GetMap.url(v111, tms, tms.tileBounds(tile), 256, 256), 256, 256);
        BufferedImage b = client.getMap(v130, GetMap.url(v130, tms, tms.tileBounds(tile), 256, 256), 256, 256);
        int opaque = 0;
        for (int y = 0; y < 256; y++) {
            for (int x = 0; x < 256; x++) {
                assertThat(b.getRGB(x, y)).as("pixel %d,%d", x, y).isEqualTo(a.getRGB(x, y));
                opaque += a.getRGB(x, y) >>> 24 == 255 ? 1 : 0;
            }
        }
        assertThat(opaque).as("the tile shows land").isGreaterThan(256 * 256 / 4);
    }

    @Test
    void anEightBitAnswerIsDecodedStraightIntoTheRasterAsImageIoReadsIt() throws Exception {
        WmsSourceConfig png8 = (WmsSourceConfig) catalog(WmsSourceConfig.V130, "world", "image/png; mode=8bit")
                .layer("upstream").orElseThrow().source();
        WmsClient client = new WmsClient(2);
        TileMatrixSet tms = TileMatrixSet.WEB_MERCATOR_QUAD;
        Metatile metatile = sample(tms).get(2);
        int size = metatile.imageWidth(16);
        HttpUrl url = GetMap.url(png8, tms, metatile.bounds(16), size, size);
        BufferedImage into = new BufferedImage(size, size, BufferedImage.TYPE_INT_ARGB);

        BufferedImage straight = client.getMap(png8, url, size, size, into);
        BufferedImage imageIo = client.getMap(png8, url, size, size);

        assertThat(straight).as("decoded into the raster").isSameAs(into);
        Set<Integer> colours = new HashSet<>();
        int translucent = 0;
        for (int y = 0; y < size; y++) {
            for (int x = 0; x < size; x++) {
                assertThat(straight.getRGB(x, y)).as("pixel %d,%d", x, y).isEqualTo(imageIo.getRGB(x, y));
                colours.add(straight.getRGB(x, y));
                int alpha = straight.getRGB(x, y) >>> 24;
                translucent += alpha != 0 && alpha != 255 ? 1 : 0;
            }
        }
        assertThat(colours).as("colours of an 8-bit answer").hasSizeBetween(3, 256);
        assertThat(translucent).as("antialiased coast pixels, translucent over the transparent sea").isPositive();
    }

    @Test
    void aServiceExceptionFromTheServerIsAnErrorWithItsMessage() throws Exception {
        for (String wmsLayer : List.of("broken", "nosuchlayer")) {
            LayerResources resources = new LayerResources(catalog(WmsSourceConfig.V130, wmsLayer), new WmsClient(2));
            MetatileProcessor processor = new MetatileProcessor(resources, new FileTileStore(dir.resolve("x")),
                    new WorkerFixtures.MapLock(), WorkerFixtures.LOCK_WAIT, WorkerMetrics.unregistered());
            Metatile metatile = new Metatile(TileMatrixSet.WEB_MERCATOR_QUAD, 2, 0, 0, MetatileSize.DEFAULT);
            MetatileTask task = MetatileTask.of("it", 0, "upstream", TileFormat.PNG, Mode.SEED, metatile,
                    metatile.tiles(), null);
            assertThatThrownBy(() -> processor.process(task)).as(wmsLayer)
                    .isInstanceOf(WmsException.class)
                    .hasMessageContaining("ServiceException")
                    .hasMessageContaining("GetMap " + wmsUrl)
                    .satisfies(e -> assertThat(((WmsException) e).retryable()).isFalse());
            assertThat(Folders.regularFiles(dir.resolve("x"))).as("nothing written").isEmpty();
        }
    }

    /** Returns how many edge pixels differ; fails on any other difference, or on too many. */
    private static int assertSameAwayFromEdges(BufferedImage seeded, BufferedImage server, String what) {
        int differ = 0;
        for (int y = 0; y < 256; y++) {
            for (int x = 0; x < 256; x++) {
                int a = seeded.getRGB(x, y);
                int b = server.getRGB(x, y);
                if (a != b) {
                    assertThat(onEdge(server, x, y) || onEdge(seeded, x, y)).as("%s: pixel %d,%d differs (%08x, the server's %08x) away"
                            + " from any edge", what, x, y, a, b).isTrue();
                    differ++;
                }
            }
        }
        assertThat(differ).as("%s: edge pixels that differ", what).isLessThanOrEqualTo(MAX_EDGE_PIXELS);
        return differ;
    }

    private static boolean onEdge(BufferedImage image, int x, int y) {
        int centre = image.getRGB(x, y);
        for (int dy = -1; dy <= 1; dy++) {
            for (int dx = -1; dx <= 1; dx++) {
                int nx = x + dx;
                int ny = y + dy;
                if (nx >= 0 && ny >= 0 && nx < image.getWidth() && ny < image.getHeight()
                        && image.getRGB(nx, ny) != centre) {
                    return true;
                }
            }
        }
        return false;
    }
}
