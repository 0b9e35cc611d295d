package io.tileseeder.render.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.render.TileView;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JpegEncoderTest {

    private static final int BACKGROUND = 0xFF3060C0;

    interface PixelSource {
        int argb(int x, int y);
    }

    /** A view of a 256x256 tile at a nonzero offset into a larger raster with stride > width. */
    private static TileView tile(int width, int height, PixelSource source) {
        int stride = width + 2 * 16 + 5;
        int x0 = 16 + 3;
        int y0 = 16;
        int[] raster = new int[stride * (height + 2 * 16)];
        Arrays.fill(raster, 0xFFFF00FF); // magenta around the view: must not show up in the tile
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                raster[(y0 + y) * stride + x0 + x] = source.argb(x, y);
            }
        }
        return new TileView(raster, y0 * stride + x0, stride, width, height);
    }

    private static BufferedImage decode(byte[] jpeg) throws IOException {
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(jpeg));
        assertThat(image).as("ImageIO could not decode the JPEG").isNotNull();
        return image;
    }

    private static int maxChannelDiff(int a, int b) {
        int max = 0;
        for (int shift = 0; shift <= 16; shift += 8) {
            max = Math.max(max, Math.abs(((a >> shift) & 0xFF) - ((b >> shift) & 0xFF)));
        }
        return max;
    }

    /** Smooth opaque content: JPEG at 0.85 reproduces it closely. */
    private static final PixelSource SMOOTH = (x, y) -> 0xFF000000 | (x << 16) | (y << 8) | ((x + y) / 2);

    @Test
    void opaqueTileAtAnOffsetRoundTripsWithinTolerance() throws Exception {
        TileView tile = tile(256, 256, SMOOTH);
        BufferedImage decoded = decode(new JpegEncoder(BACKGROUND).encode(tile));
        assertThat(decoded.getWidth()).isEqualTo(256);
        assertThat(decoded.getHeight()).isEqualTo(256);
        long sum = 0;
        int worst = 0;
        for (int y = 0; y < 256; y++) {
            for (int x = 0; x < 256; x++) {
                int d = maxChannelDiff(decoded.getRGB(x, y), tile.argb(x, y));
                worst = Math.max(worst, d);
                sum += d;
            }
        }
        assertThat(worst).as("largest channel error").isLessThanOrEqualTo(12);
        assertThat(sum / (256.0 * 256.0)).as("mean channel error").isLessThan(2.5);
    }

    @Test
    void transparentAreasBecomeTheBackgroundColour() throws Exception {
        // left half fully transparent (with junk colour), right half opaque white; blocks aligned to 8x8
        TileView tile = tile(256, 256, (x, y) -> x < 128 ? 0x00FF0000 | (x * y & 0xFFFF) : 0xFFFFFFFF);
        BufferedImage decoded = decode(new JpegEncoder(BACKGROUND).encode(tile));
        for (int y = 0; y < 256; y += 5) {
            for (int x = 0; x < 120; x += 3) {
                assertThat(maxChannelDiff(decoded.getRGB(x, y), BACKGROUND))
                        .as("pixel (%d,%d) = %08X", x, y, decoded.getRGB(x, y)).isLessThanOrEqualTo(4);
            }
            for (int x = 136; x < 256; x += 3) {
                assertThat(maxChannelDiff(decoded.getRGB(x, y), 0xFFFFFFFF)).isLessThanOrEqualTo(4);
            }
        }
    }

    @Test
    void semiTransparentPixelsAreCompositedOverTheBackground() throws Exception {
        // 50 % red over white is pink; 25 % black over the background darkens it by a quarter
        TileView pink = tile(64, 64, (x, y) -> 0x80FF0000);
        assertThat(maxChannelDiff(decode(new JpegEncoder(0.95f, 0xFFFFFFFF).encode(pink)).getRGB(30, 30),
                0xFFFF7F7F)).isLessThanOrEqualTo(4);
        TileView shade = tile(64, 64, (x, y) -> 0x40000000);
        int expected = 0xFF000000 | (0x30 * 191 / 255) << 16 | (0x60 * 191 / 255) << 8 | (0xC0 * 191 / 255);
        assertThat(maxChannelDiff(decode(new JpegEncoder(0.95f, BACKGROUND).encode(shade)).getRGB(30, 30),
                expected)).isLessThanOrEqualTo(4);
    }

    @Test
    void backgroundAlphaIsIgnored() throws Exception {
        JpegEncoder encoder = new JpegEncoder(0x00FFFFFF);
        assertThat(encoder.background()).isEqualTo(0xFFFFFFFF);
        BufferedImage decoded = decode(encoder.encode(tile(32, 32, (x, y) -> 0)));
        assertThat(maxChannelDiff(decoded.getRGB(10, 10), 0xFFFFFFFF)).isLessThanOrEqualTo(2);
    }

    @Test
    void writesAJpegStream() {
        byte[] jpeg = new JpegEncoder(BACKGROUND).encode(tile(256, 256, SMOOTH));
        assertThat(jpeg[0] & 0xFF).isEqualTo(0xFF);
        assertThat(jpeg[1] & 0xFF).isEqualTo(0xD8); // SOI
        assertThat(jpeg[jpeg.length - 2] & 0xFF).isEqualTo(0xFF);
        assertThat(jpeg[jpeg.length - 1] & 0xFF).isEqualTo(0xD9); // EOI
    }

    @Test
    void qualityTradesSizeForFidelity() {
        TileView tile = tile(256, 256, (x, y) -> 0xFF000000 | ((x * 73856093) ^ (y * 19349663)) & 0xFFFFFF);
        int low = new JpegEncoder(0.2f, BACKGROUND).encode(tile).length;
        int high = new JpegEncoder(0.95f, BACKGROUND).encode(tile).length;
        assertThat(high).isGreaterThan(low);
        assertThat(new JpegEncoder(BACKGROUND).quality()).isEqualTo(JpegEncoder.DEFAULT_QUALITY);
        assertThat(JpegEncoder.DEFAULT_QUALITY).isEqualTo(0.85f);
    }

    @Test
    void oddSizesAndReuseAcrossSizes() throws Exception {
        JpegEncoder encoder = new JpegEncoder(BACKGROUND);
        TileView small = tile(37, 5, SMOOTH);
        byte[] first = encoder.encode(small);
        BufferedImage big = decode(encoder.encode(tile(256, 256, SMOOTH)));
        assertThat(big.getWidth()).isEqualTo(256);
        assertThat(encoder.encode(small)).isEqualTo(first);
        BufferedImage decoded = decode(first);
        assertThat(decoded.getWidth()).isEqualTo(37);
        assertThat(decoded.getHeight()).isEqualTo(5);
    }

    @Test
    void encodesConcurrentlyWithTheSameResultAsOneThread() throws Exception {
        JpegEncoder encoder = new JpegEncoder(BACKGROUND);
        List<TileView> tiles = List.of(tile(256, 256, SMOOTH), tile(64, 64, (x, y) -> 0x80FF0000),
                tile(37, 5, SMOOTH));
        List<byte[]> expected = tiles.stream().map(new JpegEncoder(BACKGROUND)::encode).toList();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                int shift = t;
                results.add(pool.submit(() -> {
                    for (int i = 0; i < 15; i++) {
                        int k = (i + shift) % tiles.size();
                        if (!Arrays.equals(encoder.encode(tiles.get(k)), expected.get(k))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> result : results) {
                assertThat(result.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @ValueSource(floats = {-0.01f, 1.01f, Float.NaN, Float.POSITIVE_INFINITY})
    void rejectsQualityOutsideZeroToOne(float quality) {
        assertThatThrownBy(() -> new JpegEncoder(quality, BACKGROUND))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 0 and 1");
    }

    @Test
    void describesItsFormat() {
        JpegEncoder encoder = new JpegEncoder(BACKGROUND);
        assertThat(encoder.contentType()).isEqualTo("image/jpeg");
        assertThat(encoder.extension()).isEqualTo("jpg");
    }
}
