package io.tileseeder.render;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.layer.LayerConfig;
import io.tileseeder.layer.StyleRule;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drawing a box at lon 0..45, lat 0..45 in WorldCRS84Quad, where the arithmetic is plain: at zoom 0 a pixel is
 * 0.703125°, so the box is exactly 64 × 64 pixels, its left edge on the line between the two zoom-0 tiles.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class VectorRendererTest {

    private static final TileMatrixSet TMS = TileMatrixSet.WORLD_CRS84_QUAD;
    private static final int GUTTER = 8;
    private static final Metatile Z0 = new Metatile(TMS, 0, 0, 0, new MetatileSize(2, 1));
    private static final int FILL = 0xfff2efe9;
    private static final int STROKE = 0xff9a8c98;
    private static final StyleRule FILL_AND_STROKE = new StyleRule(0, 24, new Color(FILL), new Color(STROKE), 2f, 1f);

    @TempDir
    Path dir;

    private VectorSource box;

    @BeforeEach
    void setUp() throws Exception {
        Path file = dir.resolve("box.geojson");
        Files.writeString(file, RenderFixtures.rectangleGeoJson(0, 0, 45, 45));
        box = VectorSource.load(List.of(LayerConfig.DataFile.file(file)));
    }

    @Test
    void loadsEveryFeatureAndFindsThemByEnvelopeInEachMatrixSet() {
        assertThat(box.featureCount()).isEqualTo(1);
        assertThat(box.query(TMS, new Bounds(40, 40, 50, 50))).hasSize(1);
        assertThat(box.query(TMS, new Bounds(-50, -50, -1, -1))).isEmpty();
        double[] corner = TileMatrixSet.WEB_MERCATOR_QUAD.project(44, 44);
        assertThat(box.query(TileMatrixSet.WEB_MERCATOR_QUAD, new Bounds(corner[0], corner[1], corner[0] + 1,
                corner[1] + 1))).as("the same box in metres").hasSize(1);
        Bounds near = new Bounds(100, 100, 101, 101);
        assertThat(box.query(TMS, near)).as("100°E is east of the box").isEmpty();
        assertThat(box.query(TileMatrixSet.WEB_MERCATOR_QUAD, near)).as("100 m east is in the box").hasSize(1);
    }

    @Test
    void fillsInsideStrokesTheEdgeAndLeavesTheRestTransparent() {
        MetatileImage image = VectorRenderer.render(box, Z0, GUTTER, List.of(FILL_AND_STROKE)).orElseThrow();

        BufferedImage raster = image.image();
        assertThat(raster.getType()).isEqualTo(BufferedImage.TYPE_INT_ARGB);
        assertThat(raster.getWidth()).isEqualTo(512 + 2 * GUTTER);
        assertThat(raster.getHeight()).isEqualTo(256 + 2 * GUTTER);
        TileView east = image.tile(TileCoord.of(0, 1, 0));
        // The box: x 0..63, y 64..127 of the eastern tile.
        assertThat(east.argb(32, 96)).as("inside").isEqualTo(FILL);
        assertThat(east.argb(2, 66)).as("inside, near the corner").isEqualTo(FILL);
        assertThat(east.argb(32, 200) >>> 24).as("south of the box").isZero();
        assertThat(east.argb(100, 96) >>> 24).as("east of the box").isZero();
        // A 2 px stroke centred on the box's east edge (x = 64) covers columns 63 and 64 fully.
        assertThat(east.argb(64, 96)).as("the stroke outside the east edge").isEqualTo(STROKE);
        assertThat(east.argb(63, 96)).as("the stroke inside the east edge").isEqualTo(STROKE);
        // The west edge lies on the line between the tiles: its stroke shows in both.
        TileView west = image.tile(TileCoord.of(0, 0, 0));
        assertThat(west.argb(255, 96)).as("the stroke in the western tile").isEqualTo(STROKE);
        assertThat(west.argb(250, 96) >>> 24).isZero();
        assertThat(TileContent.of(west).kind()).isEqualTo(TileContent.Kind.DETAILED);
    }

    @Test
    void opacityScalesTheAlpha() {
        StyleRule half = new StyleRule(0, 24, new Color(FILL), null, 0f, 0.5f);

        MetatileImage image = VectorRenderer.render(box, Z0, GUTTER, List.of(half)).orElseThrow();

        int inside = image.tile(TileCoord.of(0, 1, 0)).argb(32, 96);
        assertThat(inside >>> 24).isEqualTo(128);
        // Not premultiplied: the colour stays (within Java2D's rounding through premultiplied alpha).
        assertThat(RenderFixtures.rgbClose(inside, FILL, 2)).as("colour %s", RenderFixtures.hex(inside)).isTrue();
    }

    @Test
    void rulesForOtherZoomLevelsDrawNothing() {
        StyleRule deep = new StyleRule(5, 24, new Color(FILL), new Color(STROKE), 1f, 1f);

        assertThat(VectorRenderer.render(box, Z0, GUTTER, List.of(deep))).isEmpty();
        assertThat(VectorRenderer.render(box, Z0, GUTTER, List.of())).isEmpty();
    }

    @Test
    void aMetatileFarFromEveryFeatureIsNotDrawn() {
        Metatile farWest = new Metatile(TMS, 2, 0, 0, new MetatileSize(2, 2)); // lon -180..-90, lat 0..90

        Optional<MetatileImage> image = VectorRenderer.render(box, farWest, GUTTER, List.of(FILL_AND_STROKE));

        assertThat(image).isEmpty();
    }

    @Test
    void aFeatureOnlyInTheGutterIsDrawnIntoTheGutter() {
        // Zoom 1 metatile (1, 0) of 1×1: lon -90..0, lat 0..90. The box starts at lon 0, the metatile's east edge.
        Metatile west = new Metatile(TMS, 1, 1, 0, new MetatileSize(1, 1));

        MetatileImage image = VectorRenderer.render(box, west, GUTTER, List.of(FILL_AND_STROKE)).orElseThrow();

        TileView tile = image.tile(TileCoord.of(1, 1, 0));
        assertThat(tile.argb(255, 160)).as("the stroke reaches the tile's last column").isEqualTo(STROKE);
        assertThat(image.image().getRGB(GUTTER + 256 + 4, GUTTER + 160)).as("the gutter has the fill")
                .isEqualTo(FILL);
    }
}
