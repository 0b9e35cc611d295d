package io.tileseeder.job;

import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import java.util.Set;

/**
 * What a job needs to know of a layer to be validated and planned; the worker's layer configuration
 * holds the rest (source, style).
 */
public record LayerInfo(String name, String title, String attribution, int minZoom, int maxZoom,
                        Set<TileMatrixSet> tileMatrixSets, Set<TileFormat> formats, MetatileSize metatile) {

    public LayerInfo {
        tileMatrixSets = Set.copyOf(tileMatrixSets);
        formats = Set.copyOf(formats);
    }
}
