package io.tileseeder.render;

import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.TileCoord;
import java.awt.AlphaComposite;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.util.Map;

/**
 * A rendered metatile raster (tiles plus gutter), cut into tiles as {@link TileView}s of its pixel array:
 * no copy per tile. ({@code getSubimage(…).getData()} would silently copy the whole raster each time.)
 *
 * @param upstream for tiles whose pixels are exactly one upstream tile of the same grid (a tile server's), that
 *                 tile's bytes as the upstream answered them, to be kept unchanged where they are in the cache's
 *                 format
 */
public record MetatileImage(Metatile metatile, int gutter, BufferedImage image, Map<TileCoord, byte[]> upstream) {

    public MetatileImage {
        if (image.getType() != BufferedImage.TYPE_INT_ARGB) {
            throw new IllegalArgumentException("metatile rasters are TYPE_INT_ARGB, got type " + image.getType());
        }
        upstream = Map.copyOf(upstream);
    }

    /** A metatile drawn here, of no upstream tile's bytes. */
    public MetatileImage(Metatile metatile, int gutter, BufferedImage image) {
        this(metatile, gutter, image, Map.of());
    }

    /**
     * This thread's reusable ARGB raster for the metatile plus its gutter (see {@link Rasters}), to decode into.
     */
    public static BufferedImage raster(Metatile metatile, int gutter) {
        return Rasters.reusable(metatile.imageWidth(gutter), metatile.imageHeight(gutter));
    }

    /**
     * A decoded image (of any type, e.g. from a WMS) as a metatile raster: unless it is this thread's
     * {@link #raster} already, its pixels are copied, unchanged, into that raster.
     *
     * @throws IllegalArgumentException if the image is not the size of the metatile plus its gutter
     */
    public static MetatileImage copyOf(Metatile metatile, int gutter, BufferedImage decoded) {
        int width = metatile.imageWidth(gutter);
        int height = metatile.imageHeight(gutter);
        if (decoded.getWidth() != width || decoded.getHeight() != height) {
            throw new IllegalArgumentException("the image is " + decoded.getWidth() + "x" + decoded.getHeight()
                    + " px, the metatile " + metatile + " with its gutter " + width + "x" + height);
        }
        BufferedImage raster = Rasters.reusable(width, height);
        if (decoded == raster) {
            return new MetatileImage(metatile, gutter, raster);
        }
        Graphics2D g = raster.createGraphics();
        try {
            g.setComposite(AlphaComposite.Src);
            g.drawImage(decoded, 0, 0, null);
        } finally {
            g.dispose();
        }
        return new MetatileImage(metatile, gutter, raster);
    }

    /** The pixels of one of the metatile's tiles. */
    public TileView tile(TileCoord tile) {
        if (!metatile.tiles().contains(tile)) {
            throw new IllegalArgumentException("tile " + tile + " is not in metatile " + metatile);
        }
        int[] pixels = ((DataBufferInt) image.getRaster().getDataBuffer()).getData();
        int stride = image.getWidth();
        int size = metatile.tileMatrixSet().tileSize(metatile.z());
        int left = gutter + (tile.x() - metatile.tiles().minX()) * size;
        int top = gutter + (tile.y() - metatile.tiles().minY()) * size;
        return new TileView(pixels, top * stride + left, stride, size, size);
    }
}
