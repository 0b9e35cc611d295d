package io.tileseeder.grid;

import static io.tileseeder.grid.TileMatrixSet.WEB_MERCATOR_QUAD;
import static io.tileseeder.grid.TileMatrixSet.WORLD_CRS84_QUAD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class MetatileTest {

    private static final MetatileSize FOUR = new MetatileSize(4, 4);

    @Test
    void aMetatileAtTheMatrixEdgeIsClippedToTheTilesThatExist() {
        // WebMercatorQuad z1 is 2x2 tiles: one 4x4 metatile, clipped to 2x2.
        Metatile metatile = new Metatile(WEB_MERCATOR_QUAD, 1, 0, 0, FOUR);

        assertThat(metatile.tiles()).isEqualTo(new TileRange(1, 0, 0, 1, 1));
        assertThat(metatile.tiles().count()).isEqualTo(4);
        assertThat(metatile.imageWidth(0)).isEqualTo(512);
        assertThat(metatile.imageHeight(0)).isEqualTo(512);
        assertThatThrownBy(() -> new Metatile(WEB_MERCATOR_QUAD, 1, 1, 0, FOUR))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Metatile(WEB_MERCATOR_QUAD, 1, 0, 1, FOUR))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void onlyTheLastColumnAndRowOfMetatilesAreClipped() {
        // WorldCRS84Quad z2 is 8x4 tiles; 3x3 metatiles make 3x2 metatiles.
        MetatileSize three = new MetatileSize(3, 3);
        assertThat(new Metatile(WORLD_CRS84_QUAD, 2, 0, 0, three).tiles()).isEqualTo(new TileRange(2, 0, 0, 2, 2));
        assertThat(new Metatile(WORLD_CRS84_QUAD, 2, 2, 0, three).tiles()).isEqualTo(new TileRange(2, 6, 0, 7, 2));
        assertThat(new Metatile(WORLD_CRS84_QUAD, 2, 2, 1, three).tiles()).isEqualTo(new TileRange(2, 6, 3, 7, 3));
        assertThat(new Metatile(WORLD_CRS84_QUAD, 2, 2, 1, three).imageWidth(0)).isEqualTo(512);
        assertThat(new Metatile(WORLD_CRS84_QUAD, 2, 2, 1, three).imageHeight(0)).isEqualTo(256);
        assertThatThrownBy(() -> new Metatile(WORLD_CRS84_QUAD, 2, 3, 0, three)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Metatile(WORLD_CRS84_QUAD, 2, 0, 2, three)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Metatile(WORLD_CRS84_QUAD, 2, -1, 0, three)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void containingDividesTheTileCoordinatesByTheMetatileSize() {
        Metatile metatile = Metatile.containing(WEB_MERCATOR_QUAD, TileCoord.of(5, 13, 6), new MetatileSize(4, 2));

        assertThat(metatile).isEqualTo(new Metatile(WEB_MERCATOR_QUAD, 5, 3, 3, new MetatileSize(4, 2)));
        assertThat(metatile.tiles()).isEqualTo(new TileRange(5, 12, 6, 15, 7));
        assertThat(metatile.toString()).isEqualTo("WebMercatorQuad/5/3/3@4x2");
    }

    @Test
    void theImageIncludesTheGutterOnBothSides() {
        Metatile metatile = new Metatile(WEB_MERCATOR_QUAD, 5, 1, 1, new MetatileSize(4, 2));

        assertThat(metatile.imageWidth(0)).isEqualTo(4 * 256);
        assertThat(metatile.imageHeight(0)).isEqualTo(2 * 256);
        assertThat(metatile.imageWidth(32)).isEqualTo(4 * 256 + 64);
        assertThat(metatile.imageHeight(32)).isEqualTo(2 * 256 + 64);
    }

    @Test
    void boundsGrowByTheGutterTimesTheResolution() {
        // WorldCRS84Quad z0: tile 0,0 is [-180,-90,0,90] at 0.703125 deg/px.
        Metatile metatile = new Metatile(WORLD_CRS84_QUAD, 0, 0, 0, new MetatileSize(1, 1));

        assertThat(metatile.bounds(0)).isEqualTo(new Bounds(-180, -90, 0, 90));
        assertThat(metatile.bounds(16)).isEqualTo(new Bounds(-180 - 11.25, -90 - 11.25, 11.25, 90 + 11.25));

        Metatile mercator = new Metatile(WEB_MERCATOR_QUAD, 1, 0, 0, FOUR);
        double margin = 8 * WEB_MERCATOR_QUAD.resolution(1);
        Bounds grown = mercator.bounds(8);
        assertThat(grown.minX()).isCloseTo(-WebMercator.HALF_WORLD - margin, within(1e-6));
        assertThat(grown.maxX()).isCloseTo(WebMercator.HALF_WORLD + margin, within(1e-6));
        assertThat(grown.width()).isCloseTo(2 * WebMercator.HALF_WORLD + 2 * margin, within(1e-6));
        assertThat(margin).isCloseTo(8 * 78271.51696402048, within(1e-6));
    }

    @Test
    void metatileSidesAreLimitedTo1To16() {
        assertThat(new MetatileSize(1, 16)).isNotNull();
        assertThatThrownBy(() -> new MetatileSize(0, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0x4");
        assertThatThrownBy(() -> new MetatileSize(17, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void tileRangesIterateRowByRow() {
        assertThat(new TileRange(3, 1, 2, 2, 3)).containsExactly(
                TileCoord.of(3, 1, 2), TileCoord.of(3, 2, 2), TileCoord.of(3, 1, 3), TileCoord.of(3, 2, 3));
        assertThat(new TileRange(3, 1, 2, 2, 3).intersection(new TileRange(3, 3, 2, 4, 3))).isEmpty();
        assertThat(new TileRange(3, 1, 2, 2, 3).intersection(new TileRange(4, 1, 2, 2, 3))).isEmpty();
        assertThat(new TileRange(3, 0, 0, 5, 5).intersection(new TileRange(3, 4, 1, 9, 2)))
                .contains(new TileRange(3, 4, 1, 5, 2));
    }
}
