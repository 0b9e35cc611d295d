package io.tileseeder.port;

import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.TileFormat;

/** Names one stored tile. Its {@link #path()} is the layout every store uses below its prefix. */
public record TileKey(String layer, TileMatrixSet tileMatrixSet, TileCoord tile, TileFormat format) {

    /** {@code {layer}/{tileMatrixSet}/{z}/{x}/{y}.{ext}}, row 0 at the top (XYZ). */
    public String path() {
        return layer + "/" + tileMatrixSet.id() + "/" + tile.z() + "/" + tile.x() + "/" + tile.y() + "."
                + format.extension();
    }
}
