package io.tileseeder.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tileseeder.job.Fixtures;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/** Conversions that must come back exactly to where they started. */
class GridRoundTripPropertyTest {

    @Provide
    Arbitrary<Tuple2<TileMatrixSet, TileCoord>> anyTile() {
        return Fixtures.tileMatrixSets().flatMap(tms -> Fixtures.tiles(tms, TileMatrixSet.MAX_ZOOM).map(t -> Tuple.of(tms, t)));
    }

    /** Tiles down to zoom 18, where a tile's own lon/lat edges are still exact to well under 1e-9 tiles. */
    @Provide
    Arbitrary<Tuple2<TileMatrixSet, TileCoord>> tileUpToZoom18() {
        return Fixtures.tileMatrixSets().flatMap(tms -> Fixtures.tiles(tms, 18).map(t -> Tuple.of(tms, t)));
    }

    @Provide
    Arbitrary<MetatileSize> metatileSize() {
        return Fixtures.metatileSizes(MetatileSize.MAX_SIDE);
    }

    @Property(tries = 500)
    void theMetatileContainingATileHoldsIt(@ForAll("anyTile") Tuple2<TileMatrixSet, TileCoord> tmsAndTile,
                                           @ForAll("metatileSize") MetatileSize size) {
        TileMatrixSet tms = tmsAndTile.get1();
        TileCoord tile = tmsAndTile.get2();

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

    @Property(tries = 1000)
    void longitudeToXAndBackIsExact(@ForAll @DoubleRange(min = -180, max = 180) double lon) {
        assertThat(WebMercator.lon(WebMercator.x(lon))).isCloseTo(lon, within(1e-9));
    }

    @Property(tries = 1000)
    void latitudeToYAndBackIsExact(@ForAll @DoubleRange(min = -85.05, max = 85.05) double lat) {
        assertThat(WebMercator.lat(WebMercator.y(lat))).isCloseTo(lat, within(1e-9));
    }

    @Property(tries = 1000)
    void theCentreOfATileSelectsExactlyThatTile(@ForAll("anyTile") Tuple2<TileMatrixSet, TileCoord> tmsAndTile) {
        TileMatrixSet tms = tmsAndTile.get1();
        TileCoord tile = tmsAndTile.get2();
        Bounds bounds = tms.tileBounds(tile);
        double cx = (bounds.minX() + bounds.maxX()) / 2;
        double cy = (bounds.minY() + bounds.maxY()) / 2;
        double lon = tms == TileMatrixSet.WEB_MERCATOR_QUAD ? WebMercator.lon(cx) : cx;
        double lat = tms == TileMatrixSet.WEB_MERCATOR_QUAD ? WebMercator.lat(cy) : cy;

        TileRange selected = tms.tileRange(new Bounds(lon, lat, lon, lat), tile.z());

        assertThat(selected).isEqualTo(new TileRange(tile.z(), tile.x(), tile.y(), tile.x(), tile.y()));
    }

    @Property(tries = 300)
    void aTilesOwnLonLatEnvelopeSelectsExactlyThatTile(@ForAll("tileUpToZoom18") Tuple2<TileMatrixSet, TileCoord> tmsAndTile) {
        TileMatrixSet tms = tmsAndTile.get1();
        TileCoord tile = tmsAndTile.get2();
        Bounds b = tms.tileBounds(tile);
        Bounds lonLat = tms == TileMatrixSet.WEB_MERCATOR_QUAD
                ? new Bounds(WebMercator.lon(b.minX()), WebMercator.lat(b.minY()), WebMercator.lon(b.maxX()), WebMercator.lat(b.maxY()))
                : b;

        assertThat(tms.tileRange(lonLat, tile.z())).isEqualTo(new TileRange(tile.z(), tile.x(), tile.y(), tile.x(), tile.y()));
    }

    @Property(tries = 200)
    void metatileBoundsGrowByTheGutterTimesTheResolution(@ForAll("anyTile") Tuple2<TileMatrixSet, TileCoord> tmsAndTile,
                                                         @ForAll("metatileSize") MetatileSize size,
                                                         @ForAll @IntRange(min = 0, max = 128) int gutter) {
        TileMatrixSet tms = tmsAndTile.get1();
        Metatile metatile = Metatile.containing(tms, tmsAndTile.get2(), size);
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
}
