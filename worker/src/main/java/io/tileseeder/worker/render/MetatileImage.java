package io.tileseeder.worker.render;

import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;

/**
 * A rendered metatile raster (tiles plus gutter), cut into tiles as {@link TileView}s of its pixel array:
 * no copy per tile. ({@code getSubimage(…).getData()} would silently copy the whole raster each time.)
 */
public record MetatileImage(Metatile metatile, int gutter, BufferedImage image) {

    public MetatileImage {
        if (image.getType() != BufferedImage.TYPE_INT_ARGB) {
            throw new IllegalArgumentException("metatile rasters are TYPE_INT_ARGB, got type " + image.getType());
        }
    }

    /** The pixels of one of the metatile's tiles. */
    public TileView tile(TileCoord tile) {
        if (!metatile.tiles().contains(tile)) {
            throw new IllegalArgumentException("tile " + tile + " is not in metatile " + metatile);
        }
        int[] pixels = ((DataBufferInt) image.getRaster().getDataBuffer()).getData();
        int stride = image.getWidth();
        int left = gutter + (tile.x() - metatile.tiles().minX()) * TileMatrixSet.TILE_SIZE;
        int top = gutter + (tile.y() - metatile.tiles().minY()) * TileMatrixSet.TILE_SIZE;
        return new TileView(pixels, top * stride + left, stride, TileMatrixSet.TILE_SIZE, TileMatrixSet.TILE_SIZE);
    }
}
