package io.tileseeder.render.encode;

import io.tileseeder.render.TileView;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.util.Iterator;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;

/**
 * JPEG tiles through ImageIO's JPEG writer.
 *
 * <p>JPEG has no alpha, so each pixel is composited over an opaque background colour first
 * ({@code out = src * a + background * (1 - a)}, per channel, from the non-premultiplied ARGB of the
 * {@link TileView}); fully transparent areas come out as the background colour. The composite is written straight
 * into the bytes of a reused {@link BufferedImage#TYPE_3BYTE_BGR} scratch image, the layout the JDK's JPEG writer
 * handles without conversion.
 *
 * <p>Thread-safe: the {@link ImageWriter}, its parameters, the scratch image and the output buffer are kept per
 * thread per encoder and reused.
 */
public final class JpegEncoder implements TileEncoder {

    /** The quality used when none is given. */
    public static final float DEFAULT_QUALITY = 0.85f;

    private final float quality;
    private final int background;
    private final ThreadLocal<State> state;

    /**
     * A JPEG encoder at {@link #DEFAULT_QUALITY}.
     *
     * @param backgroundArgb the colour transparent pixels are composited over; its alpha is ignored
     */
    public JpegEncoder(int backgroundArgb) {
        this(DEFAULT_QUALITY, backgroundArgb);
    }

    /**
     * A JPEG encoder.
     *
     * @param quality        the JPEG quality, 0 (smallest) to 1 (best)
     * @param backgroundArgb the colour transparent pixels are composited over; its alpha is ignored
     * @throws IllegalArgumentException if the quality is outside 0..1 (or NaN)
     */
    public JpegEncoder(float quality, int backgroundArgb) {
        if (!(quality >= 0f && quality <= 1f)) {
            throw new IllegalArgumentException("JPEG quality must be between 0 and 1, got " + quality);
        }
        this.quality = quality;
        this.background = backgroundArgb | 0xFF000000;
        this.state = ThreadLocal.withInitial(() -> new State(quality));
    }

    /** The JPEG quality, 0..1. */
    public float quality() {
        return quality;
    }

    /** The opaque background colour as ARGB (alpha always 0xFF). */
    public int background() {
        return background;
    }

    @Override
    public String contentType() {
        return "image/jpeg";
    }

    @Override
    public String extension() {
        return "jpg";
    }

    @Override
    public byte[] encode(TileView tile) {
        State s = state.get();
        BufferedImage image = s.image(tile.width(), tile.height());
        composite(tile, ((DataBufferByte) image.getRaster().getDataBuffer()).getData());
        return s.writer.write(image);
    }

    /** Composites the tile over the background into {@code bgr}, 3 bytes per pixel in B, G, R order. */
    private void composite(TileView tile, byte[] bgr) {
        int bgR = (background >> 16) & 0xFF;
        int bgG = (background >> 8) & 0xFF;
        int bgB = background & 0xFF;
        int[] pixels = tile.pixels();
        int width = tile.width();
        int stride = tile.scanlineStride();
        int p = 0;
        for (int y = 0, row = tile.offset(); y < tile.height(); y++, row += stride) {
            for (int i = row, end = row + width; i < end; i++) {
                int argb = pixels[i];
                int a = argb >>> 24;
                int r = (argb >> 16) & 0xFF;
                int g = (argb >> 8) & 0xFF;
                int b = argb & 0xFF;
                if (a != 0xFF) {
                    int na = 255 - a;
                    r = div255(r * a + bgR * na);
                    g = div255(g * a + bgG * na);
                    b = div255(b * a + bgB * na);
                }
                bgr[p] = (byte) b;
                bgr[p + 1] = (byte) g;
                bgr[p + 2] = (byte) r;
                p += 3;
            }
        }
    }

    /** {@code round(v / 255)} for {@code 0 <= v <= 255 * 255}. */
    private static int div255(int v) {
        v += 128;
        return (v + (v >> 8)) >> 8;
    }

    /** What one thread reuses across tiles for one encoder. */
    private static final class State {
        final ReusedImageWriter writer;
        BufferedImage image;

        State(float quality) {
            Iterator<ImageWriter> writers = ImageIO.getImageWritersByFormatName("jpeg");
            if (!writers.hasNext()) {
                throw new IllegalStateException("no ImageIO JPEG writer available");
            }
            ImageWriter jpeg = writers.next();
            ImageWriteParam param = jpeg.getDefaultWriteParam();
            param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            param.setCompressionQuality(quality);
            writer = new ReusedImageWriter(jpeg, param, "JPEG");
        }

        BufferedImage image(int width, int height) {
            if (image == null || image.getWidth() != width || image.getHeight() != height) {
                image = new BufferedImage(width, height, BufferedImage.TYPE_3BYTE_BGR);
            }
            return image;
        }
    }
}
