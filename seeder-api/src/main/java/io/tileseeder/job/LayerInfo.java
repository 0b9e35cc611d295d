package io.tileseeder.job;

import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a job needs to know of a layer to be validated and planned; the worker's layer configuration
 * holds the rest (source, style).
 *
 * @param metatile    the layer's metatile, used when a job does not ask for one
 * @param maxMetatile the largest metatile a job may ask for (an upstream WMS limits the image size)
 * @param coverages   the coverages a job may name, name → GeoJSON in CRS84
 * @param configHash  a hash of the layer's configuration (see the layer file's reader), for a cache's manifest to
 *                    tell which configuration drew its tiles
 * @param dimensions  the layer's dimensions, in the order their values are folders of its caches; empty for none
 */
public record LayerInfo(String name, String title, String attribution, int minZoom, int maxZoom,
                        Set<TileMatrixSet> tileMatrixSets, Set<TileFormat> formats, MetatileSize metatile,
                        MetatileSize maxMetatile, Map<String, String> coverages, String configHash,
                        List<Dimension> dimensions) {

    public LayerInfo {
        tileMatrixSets = Set.copyOf(tileMatrixSets);
        formats = Set.copyOf(formats);
        coverages = Map.copyOf(coverages);
        dimensions = List.copyOf(dimensions);
        if (!fits(metatile, maxMetatile)) {
            throw new IllegalArgumentException("the metatile " + metatile + " is larger than the largest allowed, "
                    + maxMetatile);
        }
    }

    /** A layer without dimensions. */
    public LayerInfo(String name, String title, String attribution, int minZoom, int maxZoom,
                     Set<TileMatrixSet> tileMatrixSets, Set<TileFormat> formats, MetatileSize metatile,
                     MetatileSize maxMetatile, Map<String, String> coverages, String configHash) {
        this(name, title, attribution, minZoom, maxZoom, tileMatrixSets, formats, metatile, maxMetatile, coverages,
                configHash, List.of());
    }

    /** A layer that takes metatiles of any size. */
    public LayerInfo(String name, String title, String attribution, int minZoom, int maxZoom,
                     Set<TileMatrixSet> tileMatrixSets, Set<TileFormat> formats, MetatileSize metatile) {
        this(name, title, attribution, minZoom, maxZoom, tileMatrixSets, formats, metatile,
                new MetatileSize(MetatileSize.MAX_SIDE, MetatileSize.MAX_SIDE), Map.of(), "");
    }

    /** The deepest zoom level of this layer on {@code tms}: its own, or the set's last matrix if that comes first. */
    public int maxZoom(TileMatrixSet tms) {
        return Math.min(maxZoom, tms.maxZoom());
    }

    /** Whether {@code size} is at most {@code max} on both sides. */
    public static boolean fits(MetatileSize size, MetatileSize max) {
        return size.width() <= max.width() && size.height() <= max.height();
    }
}
