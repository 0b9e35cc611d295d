package io.tileseeder.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tileseeder.job.Gen;
import io.tileseeder.job.ShowFailingCase;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Conversions that must come back exactly to where they started. Each test runs on its edge cases, then on
 * random inputs from a {@link Gen} with the test's own fixed seed.
 */
@ExtendWith(ShowFailingCase.class)
class GridRoundTripPropertyTest {

    /** Down to zoom 18 a tile's own lon/lat edges are still exact to well under 1e-9 tiles. */
    private static final int EXACT_ENVELOPE_ZOOM = 18;

    /** A tile of a tile matrix set, shown as {@code WebMercatorQuad/z/x/y}. */
    record TmsTile(TileMatrixSet tms, TileCoord tile) {
        @Override
        public String toString() {
            return tms + "/" + tile;
        }
    }

    static Stream<Arguments> theMetatileContainingATileHoldsIt() {
        List<Arguments> edgeCases = new ArrayList<>();
        for (TmsTile tile : edgeTiles(TileMatrixSet.MAX_ZOOM)) {
            for (MetatileSize size : edgeSizes()) {
                edgeCases.add(Arguments.of(tile, size));
            }
        }
        return Gen.cases(0x5EED_1001L, 500, edgeCases,
                g -> Arguments.of(anyTile(g, TileMatrixSet.MAX_ZOOM), g.metatileSize(MetatileSize.MAX_SIDE)));
    }

    @ParameterizedTest(name = "[{index}] {0}, {1}")
    @MethodSource
    void theMetatileContainingATileHoldsIt(TmsTile tmsAndTile, MetatileSize size) {
        TileMatrixSet tms = tmsAndTile.tms();
        TileCoord tile = tmsAndTile.tile();

        Metatile metatile = Metatile.containing(tms, tile, size);

        assertThat(metatile.tiles().contains(tile)).as("%s holds %s", metatile, tile).isTrue();
        assertThat(metatile.z()).isEqualTo(tile.z());
        assertThat(metatile.tiles().width()).isBetween(1, size.width());
        assertThat(metatile.tiles().height()).isBetween(1, size.height());
        // Every tile of the metatile maps back to the same metatile.
        TileRange tiles = metatile.tiles();
        for (TileCoord corner : new TileCoord[] {TileCoord.of(tile.z(), tiles.minX(), tiles.minY()),
                TileCoord.of(tile.z(), tiles.maxX(), tiles.maxY())}) {
            assertThat(Metatile.containing(tms, corner, size)).isEqualTo(metatile);
        }
    }

    static Stream<Double> longitudeToXAndBackIsExact() {
        return Gen.cases(0x5EED_1002L, 1000, List.of(-180.0, 0.0, 180.0), g -> g.between(-180.0, 180.0));
    }

    @ParameterizedTest(name = "[{index}] lon {0}")
    @MethodSource
    void longitudeToXAndBackIsExact(double lon) {
        assertThat(WebMercator.lon(WebMercator.x(lon))).isCloseTo(lon, within(1e-9));
    }

    static Stream<Double> latitudeToYAndBackIsExact() {
        return Gen.cases(0x5EED_1003L, 1000, List.of(-85.05, 0.0, 85.05), g -> g.between(-85.05, 85.05));
    }

    @ParameterizedTest(name = "[{index}] lat {0}")
    @MethodSource
    void latitudeToYAndBackIsExact(double lat) {
        assertThat(WebMercator.lat(WebMercator.y(lat))).isCloseTo(lat, within(1e-9));
    }

    static Stream<TmsTile> theCentreOfATileSelectsExactlyThatTile() {
        return Gen.cases(0x5EED_1004L, 1000, edgeTiles(TileMatrixSet.MAX_ZOOM),
                g -> anyTile(g, TileMatrixSet.MAX_ZOOM));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource
    void theCentreOfATileSelectsExactlyThatTile(TmsTile tmsAndTile) {
        TileMatrixSet tms = tmsAndTile.tms();
        TileCoord tile = tmsAndTile.tile();
        Bounds bounds = tms.tileBounds(tile);
        double cx = (bounds.minX() + bounds.maxX()) / 2;
        double cy = (bounds.minY() + bounds.maxY()) / 2;
        double lon = tms == TileMatrixSet.WEB_MERCATOR_QUAD ? WebMercator.lon(cx) : cx;
        double lat = tms == TileMatrixSet.WEB_MERCATOR_QUAD ? WebMercator.lat(cy) : cy;

        TileRange selected = tms.tileRange(new Bounds(lon, lat, lon, lat), tile.z());

        assertThat(selected).isEqualTo(new TileRange(tile.z(), tile.x(), tile.y(), tile.x(), tile.y()));
    }

    static Stream<TmsTile> aTilesOwnLonLatEnvelopeSelectsExactlyThatTile() {
        return Gen.cases(0x5EED_1005L, 300, edgeTiles(EXACT_ENVELOPE_ZOOM), g -> anyTile(g, EXACT_ENVELOPE_ZOOM));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource
    void aTilesOwnLonLatEnvelopeSelectsExactlyThatTile(TmsTile tmsAndTile) {
        TileMatrixSet tms = tmsAndTile.tms();
        TileCoord tile = tmsAndTile.tile();
        Bounds b = tms.tileBounds(tile);
        Bounds lonLat = tms == TileMatrixSet.WEB_MERCATOR_QUAD
                ? new Bounds(WebMercator.lon(b.minX()), WebMercator.lat(b.minY()), WebMercator.lon(b.maxX()), WebMercator.lat(b.maxY()))
                : b;

        assertThat(tms.tileRange(lonLat, tile.z())).isEqualTo(new TileRange(tile.z(), tile.x(), tile.y(), tile.x(), tile.y()));
    }

    static Stream<Arguments> metatileBoundsGrowByTheGutterTimesTheResolution() {
        List<Arguments> edgeCases = new ArrayList<>();
        int gutter = 0;
        for (TmsTile tile : edgeTiles(TileMatrixSet.MAX_ZOOM)) {
            for (MetatileSize size : edgeSizes()) {
                edgeCases.add(Arguments.of(tile, size, gutter));
                gutter = 128 - gutter;
            }
        }
        return Gen.cases(0x5EED_1006L, 200, edgeCases, g -> Arguments.of(anyTile(g, TileMatrixSet.MAX_ZOOM),
                g.metatileSize(MetatileSize.MAX_SIDE), g.between(0, 128)));
    }

    @ParameterizedTest(name = "[{index}] {0}, {1}, gutter {2}")
    @MethodSource
    void metatileBoundsGrowByTheGutterTimesTheResolution(TmsTile tmsAndTile, MetatileSize size, int gutter) {
        TileMatrixSet tms = tmsAndTile.tms();
        Metatile metatile = Metatile.containing(tms, tmsAndTile.tile(), size);
        Bounds inner = tms.rangeBounds(metatile.tiles());
        Bounds outer = metatile.bounds(gutter);
        double margin = gutter * tms.resolution(metatile.z());
        double tolerance = Math.max(inner.width(), Math.abs(inner.minX())) * 1e-12 + 1e-12;

        assertThat(outer.minX()).isCloseTo(inner.minX() - margin, within(tolerance));
        assertThat(outer.maxX()).isCloseTo(inner.maxX() + margin, within(tolerance));
        assertThat(outer.minY()).isCloseTo(inner.minY() - margin, within(tolerance));
        assertThat(outer.maxY()).isCloseTo(inner.maxY() + margin, within(tolerance));
        assertThat(metatile.imageWidth(gutter)).isEqualTo(metatile.tiles().width() * TileMatrixSet.TILE_SIZE + 2 * gutter);
        assertThat(metatile.imageHeight(gutter)).isEqualTo(metatile.tiles().height() * TileMatrixSet.TILE_SIZE + 2 * gutter);
        // The raster's pixels are square and of the zoom level's resolution.
        assertThat(outer.width() / metatile.imageWidth(gutter)).isCloseTo(tms.resolution(metatile.z()),
                within(tms.resolution(metatile.z()) * 1e-6));
    }

    /** Any tile matrix set and a tile of it at zoom {@code 0..maxZoom}. */
    private static TmsTile anyTile(Gen g, int maxZoom) {
        TileMatrixSet tms = g.tileMatrixSet();
        return new TmsTile(tms, g.tile(tms, maxZoom));
    }

    /** For each tile matrix set: the first and the last tile of zoom 0 and of {@code maxZoom}. */
    private static List<TmsTile> edgeTiles(int maxZoom) {
        List<TmsTile> tiles = new ArrayList<>();
        for (TileMatrixSet tms : TileMatrixSet.builtIn()) {
            for (int z : new int[] {0, maxZoom}) {
                tiles.add(new TmsTile(tms, TileCoord.of(z, 0, 0)));
                tiles.add(new TmsTile(tms, TileCoord.of(z, tms.matrixWidth(z) - 1, tms.matrixHeight(z) - 1)));
            }
        }
        return tiles;
    }

    /** The smallest and the largest metatile, and the two thinnest. */
    private static List<MetatileSize> edgeSizes() {
        int max = MetatileSize.MAX_SIDE;
        return List.of(new MetatileSize(1, 1), new MetatileSize(max, max), new MetatileSize(1, max),
                new MetatileSize(max, 1));
    }
}
