package io.tileseeder.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class MetatileImageTest {

    private static final int GUTTER = 16;
    private static final int GUTTER_ARGB = 0xff808080;
    /** Metatile (1, 1) of size 2×2 at zoom 3: tiles x 2..3, y 2..3. */
    private static final Metatile METATILE = new Metatile(TileMatrixSet.WEB_MERCATOR_QUAD, 3, 1, 1,
            new MetatileSize(2, 2));

    /** A distinct colour per tile, in a raster drawn the way the renderer draws: with Java2D. */
    private static int colourOf(TileCoord tile) {
        return 0xff000000 | (tile.x() * 60) << 16 | (tile.y() * 60) << 8 | 0x40;
    }

    private static MetatileImage paintedMetatile() {
        BufferedImage image = new BufferedImage(METATILE.imageWidth(GUTTER), METATILE.imageHeight(GUTTER),
                BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setColor(new Color(GUTTER_ARGB, true));
            g.fillRect(0, 0, image.getWidth(), image.getHeight());
            for (TileCoord tile : METATILE.tiles()) {
                g.setColor(new Color(colourOf(tile), true));
                g.fillRect(GUTTER + (tile.x() - 2) * 256, GUTTER + (tile.y() - 2) * 256, 256, 256);
            }
        } finally {
            g.dispose();
        }
        return new MetatileImage(METATILE, GUTTER, image);
    }

    @Test
    void theRasterIsTheTilesPlusTheGutter() {
        assertThat(METATILE.imageWidth(GUTTER)).isEqualTo(2 * 256 + 2 * GUTTER);
        assertThat(METATILE.imageHeight(GUTTER)).isEqualTo(2 * 256 + 2 * GUTTER);
    }

    @Test
    void eachTilesViewStartsAtItsOffsetAndSeesOnlyItsOwnPixels() {
        MetatileImage metatile = paintedMetatile();
        int stride = metatile.image().getWidth();
        int[] raster = ((DataBufferInt) metatile.image().getRaster().getDataBuffer()).getData();

        for (TileCoord tile : METATILE.tiles()) {
            TileView view = metatile.tile(tile);
            int left = GUTTER + (tile.x() - 2) * 256;
            int top = GUTTER + (tile.y() - 2) * 256;

            assertThat(view.pixels()).as("a view, not a copy").isSameAs(raster);
            assertThat(view.offset()).as("offset of %s", tile).isEqualTo(top * stride + left);
            assertThat(view.scanlineStride()).isEqualTo(stride);
            assertThat(view.width()).isEqualTo(256);
            assertThat(view.height()).isEqualTo(256);
            int colour = colourOf(tile);
            for (int[] corner : new int[][] {{0, 0}, {255, 0}, {0, 255}, {255, 255}, {128, 77}}) {
                assertThat(view.argb(corner[0], corner[1])).as("pixel %d,%d of %s", corner[0], corner[1], tile)
                        .isEqualTo(colour);
            }
            assertThat(TileContent.of(view).uniformArgb()).as("the whole view of %s", tile).isEqualTo(colour);
        }
    }

    @Test
    void aMetatileClippedAtTheEdgeOfTheMatrixHasOnlyItsTiles() {
        Metatile z0 = new Metatile(TileMatrixSet.WEB_MERCATOR_QUAD, 0, 0, 0, new MetatileSize(4, 4));
        BufferedImage image = new BufferedImage(z0.imageWidth(8), z0.imageHeight(8), BufferedImage.TYPE_INT_ARGB);
        assertThat(image.getWidth()).isEqualTo(256 + 16);
        image.setRGB(8, 8, 0xff0000ff);
        image.setRGB(8 + 255, 8 + 255, 0xffff0000);

        TileView view = new MetatileImage(z0, 8, image).tile(TileCoord.of(0, 0, 0));

        assertThat(view.argb(0, 0)).isEqualTo(0xff0000ff);
        assertThat(view.argb(255, 255)).isEqualTo(0xffff0000);
        assertThatThrownBy(() -> new MetatileImage(z0, 8, image).tile(TileCoord.of(1, 0, 0)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aTileOutsideTheMetatileIsRefused() {
        MetatileImage metatile = paintedMetatile();

        for (TileCoord outside : new TileCoord[] {TileCoord.of(3, 1, 2), TileCoord.of(3, 4, 2), TileCoord.of(3, 2, 1),
                TileCoord.of(3, 3, 4), TileCoord.of(2, 2, 2), TileCoord.of(4, 2, 2), TileCoord.of(3, 0, 0)}) {
            assertThatThrownBy(() -> metatile.tile(outside)).as("tile %s", outside)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(outside.toString());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {BufferedImage.TYPE_INT_ARGB_PRE, BufferedImage.TYPE_INT_RGB, BufferedImage.TYPE_4BYTE_ABGR})
    void onlyNonPremultipliedIntArgbRastersAreAccepted(int type) {
        BufferedImage image = new BufferedImage(METATILE.imageWidth(GUTTER), METATILE.imageHeight(GUTTER), type);

        assertThatThrownBy(() -> new MetatileImage(METATILE, GUTTER, image))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
