package io.tileseeder.grid;

import static io.tileseeder.grid.TileMatrixSet.WEB_MERCATOR_QUAD;
import static io.tileseeder.grid.TileMatrixSet.WORLD_CRS84_QUAD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Known values of the OGC Two Dimensional Tile Matrix Set standard and the edge cases of bbox selection. */
class TileMatrixSetTest {

    static List<TileMatrixSet> builtIn() {
        return TileMatrixSet.builtIn();
    }

    @Test
    void webMercatorQuadZoom0IsOneTileOfTheStandardResolution() {
        assertThat(WEB_MERCATOR_QUAD.id()).isEqualTo("WebMercatorQuad");
        assertThat(WEB_MERCATOR_QUAD.crs()).isEqualTo("EPSG:3857");
        assertThat(WEB_MERCATOR_QUAD.matrixWidth(0)).isEqualTo(1);
        assertThat(WEB_MERCATOR_QUAD.matrixHeight(0)).isEqualTo(1);
        assertThat(WEB_MERCATOR_QUAD.resolution(0)).isCloseTo(156543.03392804097, within(1e-8));
        // OGC 17-083r4 annex D gives the scale denominator for 0.28 mm pixels.
        assertThat(WEB_MERCATOR_QUAD.resolution(0) / 0.00028).isCloseTo(559082264.0287178, within(1e-5));
        assertThat(WEB_MERCATOR_QUAD.crsBounds().maxX()).isCloseTo(20037508.3427892, within(1e-6));
        assertThat(WEB_MERCATOR_QUAD.crsBounds().minY()).isCloseTo(-20037508.3427892, within(1e-6));
    }

    @Test
    void worldCrs84QuadZoom0IsTwoByOneTiles() {
        assertThat(WORLD_CRS84_QUAD.id()).isEqualTo("WorldCRS84Quad");
        assertThat(WORLD_CRS84_QUAD.matrixWidth(0)).isEqualTo(2);
        assertThat(WORLD_CRS84_QUAD.matrixHeight(0)).isEqualTo(1);
        assertThat(WORLD_CRS84_QUAD.resolution(0)).isEqualTo(0.703125);
        assertThat(WORLD_CRS84_QUAD.tileBounds(TileCoord.of(0, 0, 0))).isEqualTo(new Bounds(-180, -90, 0, 90));
        assertThat(WORLD_CRS84_QUAD.tileBounds(TileCoord.of(0, 1, 0))).isEqualTo(new Bounds(0, -90, 180, 90));
    }

    @ParameterizedTest
    @MethodSource("builtIn")
    void eachZoomDoublesTheMatrixAndHalvesTheResolution(TileMatrixSet tms) {
        for (int z = 1; z <= TileMatrixSet.MAX_ZOOM; z++) {
            assertThat(tms.matrixWidth(z)).isEqualTo(2 * tms.matrixWidth(z - 1));
            assertThat(tms.matrixHeight(z)).isEqualTo(2 * tms.matrixHeight(z - 1));
            assertThat(tms.resolution(z)).isEqualTo(tms.resolution(z - 1) / 2);
        }
        assertThatThrownBy(() -> tms.matrixWidth(TileMatrixSet.MAX_ZOOM + 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> tms.matrixWidth(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void byIdFindsTheStandardIdsOnly() {
        assertThat(TileMatrixSet.byId("WebMercatorQuad")).contains(WEB_MERCATOR_QUAD);
        assertThat(TileMatrixSet.byId("WorldCRS84Quad")).contains(WORLD_CRS84_QUAD);
        assertThat(TileMatrixSet.byId("WEB_MERCATOR_QUAD")).isEmpty();
        assertThat(TileMatrixSet.byId("webmercatorquad")).isEmpty();
    }

    @Test
    void parisAtZoom10IsTile518_352InWebMercatorQuad() {
        double lon = 2.35;
        double lat = 48.85;
        int z = 10;
        // The slippy-map formula, computed here independently of the code under test.
        double n = Math.pow(2, z);
        int expectedX = (int) Math.floor((lon + 180) / 360 * n);
        double latRad = Math.toRadians(lat);
        int expectedY = (int) Math.floor((1 - Math.log(Math.tan(latRad) + 1 / Math.cos(latRad)) / Math.PI) / 2 * n);
        assertThat(expectedX).isEqualTo(518);
        assertThat(expectedY).isEqualTo(352);

        TileRange range = WEB_MERCATOR_QUAD.tileRange(new Bounds(lon, lat, lon, lat), z);

        assertThat(range).isEqualTo(new TileRange(z, 518, 352, 518, 352));
    }

    @Test
    void bboxEdgesOnTileEdgesDoNotSelectTheNeighbouringTilesInCrs84() {
        // z2: 8x4 tiles of 45 degrees; [0,0,45,45] is exactly tile x=4, y=1.
        assertThat(WORLD_CRS84_QUAD.tileRange(new Bounds(0, 0, 45, 45), 2)).isEqualTo(new TileRange(2, 4, 1, 4, 1));
        // Two tiles wide, edges on tile edges on all four sides.
        assertThat(WORLD_CRS84_QUAD.tileRange(new Bounds(-90, -45, 0, 0), 2)).isEqualTo(new TileRange(2, 2, 2, 3, 2));
    }

    @Test
    void bboxEdgesOnTileEdgesDoNotSelectTheNeighbouringTilesInWebMercator() {
        // z2: 4x4 tiles; lon 0 and 90 and the equator are tile edges.
        assertThat(WEB_MERCATOR_QUAD.tileRange(new Bounds(0, 0, 90, 40), 2)).isEqualTo(new TileRange(2, 2, 1, 2, 1));
        assertThat(WEB_MERCATOR_QUAD.tileRange(new Bounds(-90, -40, 0, 0), 2)).isEqualTo(new TileRange(2, 1, 2, 1, 2));
    }

    @Test
    void aBboxJustPastATileEdgeSelectsTheNeighbour() {
        assertThat(WORLD_CRS84_QUAD.tileRange(new Bounds(0, 0, 45.001, 45), 2)).isEqualTo(new TileRange(2, 4, 1, 5, 1));
        assertThat(WORLD_CRS84_QUAD.tileRange(new Bounds(-0.001, 0, 45, 45), 2)).isEqualTo(new TileRange(2, 3, 1, 4, 1));
    }

    @ParameterizedTest
    @CsvSource({"20, 1000, 1542", "21, 1000, 1", "22, 1000, 0", "24, 8498125, 5772306"})
    void aDeepZoomTilesOwnLonLatEnvelopeSelectsOnlyThatTile(int z, int x, int y) {
        // The tile's edges in degrees by the slippy-map formulas; its bbox touches the neighbours only along
        // its edges, so it must select just the tile (rows 1542 at z20 and 0..1 at z21/z22 are near 85°N;
        // the z24 tile is in Paris).
        double n = Math.pow(2, z);
        Bounds bbox = new Bounds(x / n * 360 - 180, slippyLat(y + 1, n), (x + 1) / n * 360 - 180, slippyLat(y, n));

        assertThat(WEB_MERCATOR_QUAD.tileRange(bbox, z)).isEqualTo(new TileRange(z, x, y, x, y));
    }

    private static double slippyLat(int row, double n) {
        return Math.toDegrees(Math.atan(Math.sinh(Math.PI * (1 - 2 * row / n))));
    }

    @ParameterizedTest
    @MethodSource("builtIn")
    void aPointBboxSelectsOneTile(TileMatrixSet tms) {
        for (int z = 0; z <= 12; z++) {
            assertThat(tms.tileRange(new Bounds(7.123, 46.456, 7.123, 46.456), z).count()).as("z%d", z).isEqualTo(1);
            // A point on a tile corner selects just one tile too: the one to its right and below.
            assertThat(tms.tileRange(new Bounds(0, 0, 0, 0), z).count()).as("corner z%d", z).isEqualTo(1);
        }
        assertThat(WEB_MERCATOR_QUAD.tileRange(new Bounds(0, 0, 0, 0), 1)).isEqualTo(new TileRange(1, 1, 1, 1, 1));
        assertThat(WORLD_CRS84_QUAD.tileRange(new Bounds(0, 0, 0, 0), 1)).isEqualTo(new TileRange(1, 2, 1, 2, 1));
    }

    @Test
    void aLineBboxSelectsOneRowOfTiles() {
        assertThat(WORLD_CRS84_QUAD.tileRange(new Bounds(-100, 10, 100, 10), 1)).isEqualTo(new TileRange(1, 0, 0, 3, 0));
    }

    @ParameterizedTest
    @MethodSource("builtIn")
    void theWorldSelectsTheFullMatrixAtEveryZoom(TileMatrixSet tms) {
        for (int z = 0; z <= TileMatrixSet.MAX_ZOOM; z++) {
            assertThat(tms.tileRange(Bounds.WORLD_CRS84, z)).as("z%d", z).isEqualTo(tms.fullRange(z));
        }
    }

    @Test
    void pointsOnTheWorldsEastAndSouthEdgesSelectTheLastTile() {
        assertThat(WORLD_CRS84_QUAD.tileRange(new Bounds(180, -90, 180, -90), 3)).isEqualTo(new TileRange(3, 15, 7, 15, 7));
        assertThat(WEB_MERCATOR_QUAD.tileRange(new Bounds(180, -90, 180, -90), 3)).isEqualTo(new TileRange(3, 7, 7, 7, 7));
    }

    @Test
    void tileBoundsOfZoom0WebMercatorIsTheWholeMatrix() {
        assertThat(WEB_MERCATOR_QUAD.tileBounds(TileCoord.of(0, 0, 0))).isEqualTo(WEB_MERCATOR_QUAD.crsBounds());
    }

    @Test
    void rowsCountFromTheTop() {
        Bounds topLeft = WEB_MERCATOR_QUAD.tileBounds(TileCoord.of(1, 0, 0));
        assertThat(topLeft.minX()).isEqualTo(-WebMercator.HALF_WORLD);
        assertThat(topLeft.maxY()).isEqualTo(WebMercator.HALF_WORLD);
        assertThat(topLeft.minY()).isEqualTo(0.0);
        assertThat(topLeft.maxX()).isEqualTo(0.0);
    }

    @Test
    void webMercatorProjectsTheStandardLimits() {
        assertThat(WebMercator.x(180)).isCloseTo(WebMercator.HALF_WORLD, within(1e-6));
        assertThat(WebMercator.y(WebMercator.MAX_LATITUDE)).isCloseTo(WebMercator.HALF_WORLD, within(1e-6));
        assertThat(WebMercator.MAX_LATITUDE).isCloseTo(85.0511287798, within(1e-9));
        assertThat(WebMercator.y(90)).isEqualTo(WebMercator.y(WebMercator.MAX_LATITUDE));
        assertThat(WebMercator.y(-90)).isEqualTo(WebMercator.y(-WebMercator.MAX_LATITUDE));
        assertThat(WebMercator.y(0)).isCloseTo(0.0, within(1e-6));
        assertThat(WebMercator.x(0)).isEqualTo(0.0);
    }
}
