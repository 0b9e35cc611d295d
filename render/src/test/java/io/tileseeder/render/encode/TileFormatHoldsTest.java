package io.tileseeder.render.encode;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.job.TileFormat;
import io.tileseeder.render.TileView;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/**
 * Which encoded images a format keeps byte for byte ({@link TileFormat#holds}): each format's own tiles, and of the
 * others only those of the same encoding.
 */
class TileFormatHoldsTest {

    private static final List<TileView> WORLD_TILES = Png8Test.worldTiles().subList(0, 24);

    @Test
    void everyFormatHoldsWhatItsOwnEncoderWrites() {
        for (TileFormat format : TileFormat.values()) {
            TileEncoder encoder = encoder(format);
            for (TileView tile : WORLD_TILES) {
                assertThat(format.holds(encoder.encode(tile))).as("%s holds its own tile", format).isTrue();
            }
        }
    }

    @Test
    void aFormatHoldsNoOtherEncoding() {
        assertHeldBy(encoder(TileFormat.JPEG).encode(WORLD_TILES.getFirst()), TileFormat.JPEG, TileFormat.JPEG_PNG);
        assertHeldBy(encoder(TileFormat.PNG8).encode(WORLD_TILES.getFirst()), TileFormat.PNG, TileFormat.PNG8,
                TileFormat.JPEG_PNG);
        assertHeldBy(encoder(TileFormat.WEBP).encode(WORLD_TILES.getFirst()), TileFormat.WEBP);
        assertHeldBy(encoder(TileFormat.WEBP_LOSSLESS).encode(WORLD_TILES.getFirst()), TileFormat.WEBP_LOSSLESS);
    }

    @Test
    void aTrueColourPngIsNotAPng8() throws IOException {
        BufferedImage image = new BufferedImage(64, 64, BufferedImage.TYPE_INT_ARGB);
        for (int i = 0; i < 64 * 64; i++) {
            image.setRGB(i % 64, i / 64, 0x80000000 | i * 2047);
        }
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ImageIO.write(image, "png", png);
        assertHeldBy(png.toByteArray(), TileFormat.PNG, TileFormat.JPEG_PNG);
    }

    /** Only the header is read: a cut image never gets here, its decoding having failed (WmsAnswer). */
    @Test
    void noFormatHoldsAForeignImage() {
        assertHeldBy(Arrays.copyOf(encoder(TileFormat.PNG8).encode(WORLD_TILES.getFirst()), 26), TileFormat.PNG,
                TileFormat.PNG8, TileFormat.JPEG_PNG);
        assertHeldBy(new byte[0]);
        assertHeldBy(Arrays.copyOf(encoder(TileFormat.WEBP).encode(WORLD_TILES.getFirst()), 12));
        assertHeldBy("<ServiceExceptionReport/>".getBytes());
        assertHeldBy("GIF89a....".getBytes());
    }

    private static void assertHeldBy(byte[] image, TileFormat... formats) {
        Set<TileFormat> holding = EnumSet.noneOf(TileFormat.class);
        for (TileFormat format : TileFormat.values()) {
            if (format.holds(image)) {
                holding.add(format);
            }
        }
        assertThat(holding).containsExactlyInAnyOrder(formats);
    }

    private static TileEncoder encoder(TileFormat format) {
        return switch (format) {
            case PNG -> PngEncoder.rgba(1);
            case PNG8 -> PngEncoder.png8(1);
            case JPEG -> new JpegEncoder(0.8f, 0xFFFFFFFF);
            case JPEG_PNG -> new JpegPngEncoder(new JpegEncoder(0.8f, 0xFFFFFFFF), 1);
            case WEBP -> WebpEncoder.lossy(0.75f);
            case WEBP_LOSSLESS -> WebpEncoder.lossless();
        };
    }
}
