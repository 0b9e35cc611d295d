package io.tileseeder.port;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.TileFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class LayoutTest {

    private static final TileMatrixSet MERCATOR = TileMatrixSet.WEB_MERCATOR_QUAD;
    private static final TileCache WORLD = new TileCache("world", MERCATOR);

    /** z2, column 1, row 0 (the top row): where each layout puts it. */
    @Test
    void eachLayoutNamesATileItsOwnWay() {
        TileKey key = new TileKey(WORLD, TileCoord.of(2, 1, 0), TileFormat.PNG);

        assertThat(Map.of(Layout.XYZ, Layout.XYZ.path(key), Layout.TMS, Layout.TMS.path(key), Layout.WMTS,
                Layout.WMTS.path(key), Layout.QUADKEY, Layout.QUADKEY.path(key))).isEqualTo(Map.of(
                Layout.XYZ, "world/WebMercatorQuad/2/1/0.png",
                Layout.TMS, "world/WebMercatorQuad/2/1/3.png",
                Layout.WMTS, "world/default/WebMercatorQuad/2/0/1.png",
                Layout.QUADKEY, "world/WebMercatorQuad/01.png"));
    }

    /**
     * Bing Maps Tile System (Microsoft's article): the tile at level 3, X 3, Y 5 has the quadkey 213; zoom 0's one
     * tile has the empty key, as MapProxy's quadkey layout names it.
     */
    @Test
    void quadkeysAreBingsAndZoomZeroIsTheEmptyKey() {
        assertThat(Layout.QUADKEY.name(MERCATOR, TileCoord.of(3, 3, 5), TileFormat.JPEG)).isEqualTo("213.jpg");
        assertThat(Layout.QUADKEY.name(MERCATOR, TileCoord.of(0, 0, 0), TileFormat.PNG)).isEqualTo(".png");
        assertThat(Layout.QUADKEY.tileOf(MERCATOR, 3, "213.jpg", TileFormat.JPEG)).contains(TileCoord.of(3, 3, 5));
        assertThat(Layout.QUADKEY.tileOf(MERCATOR, 0, ".png", TileFormat.PNG)).contains(TileCoord.of(0, 0, 0));
    }

    /** Every tile of z0-4 of two sets, and a layer with dimensions: the name a layout gives reads back as the tile. */
    @ParameterizedTest
    @EnumSource(Layout.class)
    void everyNameReadsBackAsItsTile(Layout layout) {
        for (TileMatrixSet set : List.of(MERCATOR, TileMatrixSet.WORLD_CRS84_QUAD)) {
            if (layout.refuses(set).isPresent()) {
                continue;
            }
            for (int z = 0; z <= 4; z++) {
                List<String> names = new ArrayList<>();
                for (int x = 0; x < set.matrixWidth(z); x++) {
                    for (int y = 0; y < set.matrixHeight(z); y++) {
                        TileCoord tile = TileCoord.of(z, x, y);
                        String name = layout.name(set, tile, TileFormat.WEBP);
                        names.add(name);
                        String inZoom = name.substring(layout.zoomFolder(z).length());
                        assertThat(layout.tileOf(set, z, inZoom, TileFormat.WEBP)).as("%s %s", set.id(), name)
                                .contains(tile);
                        assertThat(layout.tileOf(set, z, inZoom, TileFormat.PNG)).as("another format").isEmpty();
                        assertThat(layout.isTile(name)).as(name).isTrue();
                    }
                }
                assertThat(names).doesNotHaveDuplicates();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void documentsAndStrayNamesAreNoTiles(Layout layout) {
        for (String name : List.of("manifest-png.json", "tilejson-png.json", "x.png", "1/x.png", "a/1.png", ".png.tmp",
                "1/99999999999.png", "-1/2.png")) {
            assertThat(layout.tileOf(MERCATOR, 1, name, TileFormat.PNG)).as(name).isEmpty();
        }
        assertThat(layout.isTile("manifest-png.json")).isFalse();
        assertThat(layout.tileOf(MERCATOR, 1, "1/2.png", TileFormat.PNG)).as("row 2 of 2").isEmpty();
    }

    @Test
    void quadkeysOfAnotherZoomAreNotItsTiles() {
        assertThat(Layout.QUADKEY.tileOf(MERCATOR, 2, "0.png", TileFormat.PNG)).isEmpty();
        assertThat(Layout.QUADKEY.tileOf(MERCATOR, 2, "012.png", TileFormat.PNG)).isEmpty();
        assertThat(Layout.QUADKEY.tileOf(MERCATOR, 2, "04.png", TileFormat.PNG)).isEmpty();
        assertThat(Layout.QUADKEY.isTileOfZoom("01.png", 2)).isTrue();
        assertThat(Layout.QUADKEY.isTileOfZoom("01.jpg", 2)).isTrue();
        assertThat(Layout.QUADKEY.isTileOfZoom("01.png", 3)).isFalse();
        assertThat(Layout.QUADKEY.isTileOfZoom("ab.png", 2)).isFalse();
        assertThat(Layout.QUADKEY.isTileOfZoom("3.json", 1)).as("a document").isFalse();
        assertThat(Layout.QUADKEY.isTile("3.json")).isFalse();
    }

    @Test
    void theWmtsLayoutPutsDimensionValuesBelowTheSetsFolder() {
        TileCache night = new TileCache("world", MERCATOR, new io.tileseeder.job.DimensionValues(Map.of("STYLES",
                "night")));

        assertThat(Layout.WMTS.folder(night)).isEqualTo("world/default/WebMercatorQuad/night");
        assertThat(Layout.WMTS.folder(night.set())).isEqualTo("world/default/WebMercatorQuad");
        assertThat(Layout.XYZ.folder(night)).isEqualTo("world/WebMercatorQuad/night");
        assertThat(ChangeLists.folder(Layout.WMTS, "world", MERCATOR, "j1"))
                .isEqualTo("world/default/WebMercatorQuad/changes/j1/");
    }

    @Test
    void aLayoutRefusesTheSetsItCannotName() {
        assertThat(Layout.QUADKEY.refuses(TileMatrixSet.WORLD_CRS84_QUAD)).hasValueSatisfying(reason -> assertThat(
                reason).isEqualTo("the quadkey layout names the tiles of a quadtree grown from one tile at zoom 0; "
                + "WorldCRS84Quad has 2 x 1 at zoom 0"));
        TileMatrixSet canadian = TileMatrixSet.byId("CanadianNAD83_LCC").orElseThrow();
        assertThat(Layout.TMS.refuses(canadian)).hasValueSatisfying(reason -> assertThat(reason).isEqualTo(
                "the tms layout counts rows from the bottom of one extent every zoom level shares; the zoom levels of "
                        + "CanadianNAD83_LCC cover different extents"));
        for (TileMatrixSet set : List.of(MERCATOR, TileMatrixSet.WORLD_CRS84_QUAD)) {
            assertThat(Layout.TMS.refuses(set)).as(set.id()).isEmpty();
            assertThat(Layout.WMTS.refuses(canadian)).isEmpty();
            assertThat(Layout.XYZ.refuses(canadian)).isEmpty();
        }
        assertThat(Layout.QUADKEY.refuses(MERCATOR)).isEmpty();
    }

    @Test
    void aLayoutIsNamedInAnyCaseAndAnUnknownOneIsRefusedListingTheOthers() {
        assertThat(Layout.parse(" TMS ")).isEqualTo(Layout.TMS);
        assertThat(Layout.QUADKEY.id()).isEqualTo("quadkey");
        assertThatThrownBy(() -> Layout.parse("arcgis")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown layout 'arcgis'; one of xyz, tms, wmts, quadkey");
    }
}
