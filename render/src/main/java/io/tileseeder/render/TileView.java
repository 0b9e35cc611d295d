package io.tileseeder.render;

/**
 * A tile's pixels as a view into a larger raster (usually the metatile's), without copying.
 *
 * <p>Pixels are non-premultiplied ARGB ints ({@code BufferedImage.TYPE_INT_ARGB}); pixel (x, y) of the tile is
 * {@code pixels[offset + y * scanlineStride + x]}.
 */
public record TileView(int[] pixels, int offset, int scanlineStride, int width, int height) {

    public TileView {
        if (width <= 0 || height <= 0) {
            throw new IllegalArgumentException("tile size must be positive: " + width + "x" + height);
        }
        if (scanlineStride < width || offset < 0
                || (long) offset + (long) (height - 1) * scanlineStride + width > pixels.length) {
            throw new IllegalArgumentException("tile view lies outside its raster");
        }
    }

    public int argb(int x, int y) {
        return pixels[offset + y * scanlineStride + x];
    }
}
