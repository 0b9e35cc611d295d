package io.tileseeder.render.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.luciad.imageio.webp.WebPImageReaderSpi;
import io.tileseeder.job.TileFormat;
import io.tileseeder.render.TileView;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.MemoryCacheImageInputStream;
import org.junit.jupiter.api.Test;

/** WebP through libwebp, and jpeg-png's choice per tile, on tiles the world layer renders and on made ones. */
class WebpAndJpegPngTest {

    private static final List<TileView> WORLD_TILES = Png8Test.worldTiles();

    @Test
    void losslessWebpDecodesToEveryVisiblePixelAndIsSmallerThanPng() throws IOException {
        WebpEncoder webp = WebpEncoder.lossless();
        PngEncoder png = PngEncoder.rgba(1);
        long webpBytes = 0;
        long pngBytes = 0;
        for (TileView tile : WORLD_TILES) {
            byte[] encoded = webp.encode(tile);
            webpBytes += encoded.length;
            pngBytes += png.encode(tile).length;
            BufferedImage decoded = decodeWebp(encoded);
            for (int y = 0; y < tile.height(); y++) {
                for (int x = 0; x < tile.width(); x++) {
                    int argb = tile.argb(x, y);
                    int got = decoded.getRGB(x, y);
                    if (argb >>> 24 == 0) {
                        assertThat(got >>> 24).as("alpha at %d,%d", x, y).isZero();
                    } else {
                        assertThat(Integer.toHexString(got)).as("pixel %d,%d", x, y).isEqualTo(Integer.toHexString(argb));
                    }
                }
            }
        }
        assertThat(webpBytes).isLessThan(pngBytes);
    }

    @Test
    void lossyWebpKeepsAlphaExactlyAndColoursClose() throws IOException {
        WebpEncoder webp = WebpEncoder.lossy(0.75f);
        for (TileView tile : WORLD_TILES.subList(0, 16)) {
            BufferedImage decoded = decodeWebp(webp.encode(tile));
            double squares = 0;
            for (int y = 0; y < tile.height(); y++) {
                for (int x = 0; x < tile.width(); x++) {
                    int argb = tile.argb(x, y);
                    int got = decoded.getRGB(x, y);
                    assertThat(got >>> 24).as("alpha at %d,%d", x, y).isEqualTo(argb >>> 24);
                    int a = argb >>> 24;
                    for (int shift = 0; shift <= 16; shift += 8) {
                        int d = Quantizer.premultiply(argb >>> shift & 0xFF, a)
                                - Quantizer.premultiply(got >>> shift & 0xFF, a);
                        squares += d * d;
                    }
                }
            }
            double mse = squares / (3.0 * tile.width() * tile.height());
            assertThat(mse == 0 ? 99 : 10 * Math.log10(255.0 * 255.0 / mse)).as("PSNR, dB").isGreaterThan(30);
        }
    }

    @Test
    void webpQualityOutsideZeroToOneIsRefused() {
        assertThatThrownBy(() -> WebpEncoder.lossy(1.5f)).hasMessageContaining("between 0 and 1, got 1.5");
        assertThatThrownBy(() -> WebpEncoder.lossy(Float.NaN)).hasMessageContaining("between 0 and 1");
    }

    @Test
    void jpegPngWritesJpegOnlyWhereATileIsOpaqueAndOfManyColours() throws IOException {
        JpegPngEncoder mixed = new JpegPngEncoder(new JpegEncoder(0xFFFFFFFF), 1);
        int[] pixels = new int[256 * 256];
        for (int i = 0; i < pixels.length; i++) {
            pixels[i] = 0xFF000000 | i * 2654435 & 0xFFFFFF;
        }
        TileView imagery = new TileView(pixels, 0, 256, 256, 256);
        assertThat(TileFormat.JPEG_PNG.contentTypeOf(mixed.encode(imagery))).isEqualTo("image/jpeg");

        int[] edge = pixels.clone();
        edge[300] = 0x00000000;
        byte[] withTransparency = mixed.encode(new TileView(edge, 0, 256, 256, 256));
        assertThat(TileFormat.JPEG_PNG.contentTypeOf(withTransparency)).isEqualTo("image/png");
        BufferedImage decoded = ImageIO.read(new ByteArrayInputStream(withTransparency));
        assertThat(decoded.getRGB(300 % 256, 300 / 256) >>> 24).isZero();
        assertThat(decoded.getRGB(7, 9)).isEqualTo(edge[9 * 256 + 7]);

        int[] sea = new int[256 * 256];
        java.util.Arrays.fill(sea, 0xFFAAD3DF);
        byte[] flat = mixed.encode(new TileView(sea, 0, 256, 256, 256));
        assertThat(TileFormat.JPEG_PNG.contentTypeOf(flat)).isEqualTo("image/png");
        assertThat(flat.length).isLessThan(200);
    }

    @Test
    void jpegPngOfRenderedTilesPicksPerTile() throws IOException {
        JpegPngEncoder mixed = new JpegPngEncoder(new JpegEncoder(0xFFFFFFFF), 1);
        for (TileView tile : WORLD_TILES) {
            byte[] encoded = mixed.encode(tile);
            BufferedImage decoded = ImageIO.read(new ByteArrayInputStream(encoded));
            if (TileFormat.JPEG_PNG.contentTypeOf(encoded).equals("image/png")) {
                for (int y = 0; y < tile.height(); y += 7) {
                    for (int x = 0; x < tile.width(); x += 7) {
                        assertThat(decoded.getRGB(x, y)).isEqualTo(tile.argb(x, y));
                    }
                }
            } else {
                assertThat(decoded.getColorModel().hasAlpha()).isFalse();
                for (int y = 0; y < tile.height(); y++) {
                    for (int x = 0; x < tile.width(); x++) {
                        assertThat(tile.argb(x, y) >>> 24).isEqualTo(0xFF);
                    }
                }
            }
        }
    }

    private static BufferedImage decodeWebp(byte[] webp) throws IOException {
        ImageReader reader = new WebPImageReaderSpi().createReaderInstance(null);
        reader.setInput(new MemoryCacheImageInputStream(new ByteArrayInputStream(webp)));
        return reader.read(0);
    }
}
