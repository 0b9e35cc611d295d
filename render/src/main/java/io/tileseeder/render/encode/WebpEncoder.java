package io.tileseeder.render.encode;

import com.luciad.imageio.webp.CompressionType;
import com.luciad.imageio.webp.WebPImageWriterSpi;
import com.luciad.imageio.webp.WebPWrapper;
import com.luciad.imageio.webp.WebPWriteParam;
import io.tileseeder.render.TileView;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;

/**
 * WebP tiles through libwebp, by way of the ImageIO writer of {@code com.github.usefulness:webp-imageio} (JNI; the
 * jar carries the native library for Linux, macOS and Windows, and unpacks it to the temporary folder on first use).
 * Lossy at a quality, with the alpha channel kept without loss, or lossless. The writer is made from its provider
 * directly, not looked up in ImageIO's registry, so it is found whatever class loader the application runs in.
 *
 * <p>The tile's rows are copied into a reused {@code TYPE_INT_ARGB} image of its size; the writer converts them to
 * the RGBA bytes libwebp takes.
 *
 * <p>Thread-safe: the writer, its parameters, the image and the output buffer are kept per thread per encoder and
 * reused.
 */
public final class WebpEncoder implements TileEncoder {

    private final ThreadLocal<State> state;

    private WebpEncoder(boolean lossless, float quality) {
        if (!(quality >= 0f && quality <= 1f)) {
            throw new IllegalArgumentException("WebP quality must be between 0 and 1, got " + quality);
        }
        try {
            WebPWrapper.loadNativeLibrary();
        } catch (LinkageError | RuntimeException e) {
            throw new IllegalStateException("cannot load libwebp for WebP tiles on " + System.getProperty("os.name")
                    + "/" + System.getProperty("os.arch") + ": " + e.getMessage(), e);
        }
        this.state = ThreadLocal.withInitial(() -> new State(writer(lossless, quality)));
    }

    /**
     * Lossy WebP; the alpha channel is kept without loss.
     *
     * @param quality 0 (smallest) to 1 (best): libwebp's quality factor over 100
     * @throws IllegalArgumentException if the quality is outside 0..1
     * @throws IllegalStateException    if libwebp cannot be loaded on this platform
     */
    public static WebpEncoder lossy(float quality) {
        return new WebpEncoder(false, quality);
    }

    /**
     * Lossless WebP, at libwebp's default effort. Pixels decode as given, except the colour of fully transparent
     * pixels, which libwebp may change (it is never seen).
     *
     * @throws IllegalStateException if libwebp cannot be loaded on this platform
     */
    public static WebpEncoder lossless() {
        return new WebpEncoder(true, 0.75f);
    }

    @Override
    public String contentType() {
        return "image/webp";
    }

    @Override
    public String extension() {
        return "webp";
    }

    @Override
    public byte[] encode(TileView tile) {
        State s = state.get();
        BufferedImage image = s.image(tile.width(), tile.height());
        int[] pixels = ((DataBufferInt) image.getRaster().getDataBuffer()).getData();
        for (int y = 0; y < tile.height(); y++) {
            System.arraycopy(tile.pixels(), tile.offset() + y * tile.scanlineStride(), pixels, y * tile.width(),
                    tile.width());
        }
        return s.writer.write(image);
    }

    /**
     * One thread's writer, and the image a tile is copied into: the writer reads its whole raster, so a view into the
     * metatile would have it copy the metatile's rows.
     */
    private static final class State {
        final ReusedImageWriter writer;
        BufferedImage image;

        State(ReusedImageWriter writer) {
            this.writer = writer;
        }

        BufferedImage image(int width, int height) {
            if (image == null || image.getWidth() != width || image.getHeight() != height) {
                image = new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
            }
            return image;
        }
    }

    private static ReusedImageWriter writer(boolean lossless, float quality) {
        ImageWriter webp = new WebPImageWriterSpi().createWriterInstance(null);
        WebPWriteParam param = (WebPWriteParam) webp.getDefaultWriteParam();
        param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        param.setCompressionType(lossless ? CompressionType.Lossless : CompressionType.Lossy);
        param.setCompressionQuality(quality);
        return new ReusedImageWriter(webp, param, "WebP");
    }
}
