package io.tileseeder.port;

import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.TileFormat;

/** Names one stored tile. Its {@link #path()} is the layout every store uses below its prefix. */
public record TileKey(TileCache cache, TileCoord tile, TileFormat format) {

    /** A tile of a layer without dimensions. */
    public TileKey(String layer, TileMatrixSet tileMatrixSet, TileCoord tile, TileFormat format) {
        this(new TileCache(layer, tileMatrixSet), tile, format);
    }

    public String layer() {
        return cache.layer();
    }

    public TileMatrixSet tileMatrixSet() {
        return cache.tileMatrixSet();
    }

    /** {@code {cache}/{z}/{x}/{y}.{ext}} ({@link TileCache#path}), row 0 at the top (XYZ). */
    public String path() {
        return cache.path() + "/" + tile.z() + "/" + tile.x() + "/" + tile.y() + "." + format.extension();
    }
}
