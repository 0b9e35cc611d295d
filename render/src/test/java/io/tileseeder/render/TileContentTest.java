package io.tileseeder.render;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.render.TileContent.Kind;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Classifying a tile's pixels, on views the way the worker makes them: at an offset into a larger raster whose
 * stride is wider than the tile, with junk around the view that must not be looked at.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class TileContentTest {

    private static final int SIZE = 256;
    private static final int STRIDE = SIZE + 2 * 16 + 5;
    private static final int ROWS = SIZE + 2 * 16 + 3;
    private static final int X0 = 16 + 3;
    private static final int Y0 = 16 + 1;

    /** A raster of junk (opaque, varied) with the tile's pixels filled by {@code fill} at (X0, Y0). */
    private static TileView view(PixelFill fill) {
        SplittableRandom junk = new SplittableRandom(7);
        int[] raster = new int[STRIDE * ROWS];
        for (int i = 0; i < raster.length; i++) {
            raster[i] = 0xff000000 | junk.nextInt(1 << 24);
        }
        for (int y = 0; y < SIZE; y++) {
            for (int x = 0; x < SIZE; x++) {
                raster[(Y0 + y) * STRIDE + X0 + x] = fill.argb(x, y);
            }
        }
        return new TileView(raster, Y0 * STRIDE + X0, STRIDE, SIZE, SIZE);
    }

    interface PixelFill {
        int argb(int x, int y);
    }

    static Stream<Arguments> positions() {
        return Stream.of(Arguments.of("first", 0, 0), Arguments.of("end of first row", SIZE - 1, 0),
                Arguments.of("start of a middle row", 0, SIZE / 2), Arguments.of("middle", SIZE / 2, SIZE / 2 + 1),
                Arguments.of("start of last row", 0, SIZE - 1), Arguments.of("last", SIZE - 1, SIZE - 1));
    }

    @Test
    void allTransparentIsEmptyWhateverTheColourBehindTheAlpha() {
        SplittableRandom random = new SplittableRandom(1);
        int[] colours = random.ints(SIZE * SIZE, 0, 1 << 24).toArray();

        TileContent content = TileContent.of(view((x, y) -> colours[y * SIZE + x]));

        assertThat(content.isEmpty()).isTrue();
        assertThat(content.isUniform()).isFalse();
        assertThat(content.kind()).isEqualTo(Kind.EMPTY);
    }

    @Test
    void oneColourIsUniformAndReportsTheColour() {
        TileContent content = TileContent.of(view((x, y) -> 0xfff2efe9));

        assertThat(content.isUniform()).isTrue();
        assertThat(content.isEmpty()).isFalse();
        assertThat(content.uniformArgb()).isEqualTo(0xfff2efe9);
    }

    @Test
    void oneTranslucentColourIsUniformToo() {
        TileContent content = TileContent.of(view((x, y) -> 0x80123456));

        assertThat(content.kind()).isEqualTo(Kind.UNIFORM);
        assertThat(content.uniformArgb()).isEqualTo(0x80123456);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("positions")
    void oneDifferentPixelInAUniformTileMakesItDetailed(String where, int px, int py) {
        TileContent content = TileContent.of(view((x, y) -> x == px && y == py ? 0xfff2efe8 : 0xfff2efe9));

        assertThat(content.kind()).as("one pixel differs at the %s", where).isEqualTo(Kind.DETAILED);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("positions")
    void oneDifferentAlphaInAUniformTileMakesItDetailed(String where, int px, int py) {
        TileContent content = TileContent.of(view((x, y) -> x == px && y == py ? 0xfef2efe9 : 0xfff2efe9));

        assertThat(content.kind()).as("alpha differs at the %s", where).isEqualTo(Kind.DETAILED);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("positions")
    void oneVisiblePixelInAnEmptyTileMakesItDetailed(String where, int px, int py) {
        TileContent content = TileContent.of(view((x, y) -> x == px && y == py ? 0x01000000 : 0x00ffffff & x * y));

        assertThat(content.kind()).as("one pixel with alpha 1 at the %s", where).isEqualTo(Kind.DETAILED);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("positions")
    void oneTransparentPixelInAUniformTileMakesItDetailed(String where, int px, int py) {
        TileContent content = TileContent.of(view((x, y) -> x == px && y == py ? 0x00f2efe9 : 0xfff2efe9));

        assertThat(content.kind()).as("one transparent pixel at the %s", where).isEqualTo(Kind.DETAILED);
    }

    @Test
    void pixelsOutsideTheViewDoNotCount() {
        // The raster around the view is junk; the view itself is uniform or empty.
        assertThat(TileContent.of(view((x, y) -> 0)).isEmpty()).isTrue();
        assertThat(TileContent.of(view((x, y) -> 0xff00ff00)).isUniform()).isTrue();
    }

    @Test
    void aOnePixelViewIsEmptyOrUniform() {
        int[] raster = {0xffffffff, 0x00abcdef, 0xff102030, 0xffffffff};

        assertThat(TileContent.of(new TileView(raster, 1, 2, 1, 1)).isEmpty()).isTrue();
        TileContent one = TileContent.of(new TileView(raster, 2, 2, 1, 1));
        assertThat(one.isUniform()).isTrue();
        assertThat(one.uniformArgb()).isEqualTo(0xff102030);
    }
}
