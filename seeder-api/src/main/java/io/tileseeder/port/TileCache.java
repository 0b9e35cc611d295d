package io.tileseeder.port;

import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.DimensionValues;

/**
 * One cache of a layer: its tiles in one tile matrix set and, for a layer with dimensions, one value of each. Its
 * {@link #path()} is the folder every store keeps its tiles and documents in, below the store's prefix.
 */
public record TileCache(String layer, TileMatrixSet tileMatrixSet, DimensionValues dimensions) {

    /** The cache of a layer without dimensions, or the folder of all the caches of a layer's set. */
    public TileCache(String layer, TileMatrixSet tileMatrixSet) {
        this(layer, tileMatrixSet, DimensionValues.NONE);
    }

    /** {@code {layer}/{tileMatrixSet}}, then a folder per dimension value ({@link DimensionValues#path}). */
    public String path() {
        String set = layer + "/" + tileMatrixSet.id();
        return dimensions.isEmpty() ? set : set + "/" + dimensions.path();
    }

    /** The folder of all the caches of this one's layer and set: this one without its dimension values. */
    public TileCache set() {
        return dimensions.isEmpty() ? this : new TileCache(layer, tileMatrixSet);
    }
}
