package io.tileseeder.port;

import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.TileFormat;

/** Names one stored tile; where a store keeps it is up to its {@link Layout}. */
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

    /** The tile's path in the {@link Layout#XYZ} layout, {@code {cache}/{z}/{x}/{y}.{ext}}, as messages name it. */
    public String path() {
        return Layout.XYZ.path(this);
    }
}
