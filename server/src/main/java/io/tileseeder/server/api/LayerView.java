package io.tileseeder.server.api;

import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.TileFormat;
import java.util.Comparator;
import java.util.List;

/**
 * A layer as {@code GET /api/v1/layers} shows it.
 *
 * @param tileMatrixSets        the identifiers of the tile matrix sets the layer offers, sorted
 * @param tileMatrixSetDetails the same sets with their CRS and the zoom levels a job may seed in each (the layer's
 *                             range cut to the set's matrices), and whether coverages and tile lists work on it
 * @param coverages            the names of the coverages a job may name;
 *                             {@code GET /api/v1/layers/{name}/coverages/{coverage}} answers each as GeoJSON
 */
public record LayerView(String name, String title, String attribution, JobRequestZoom zoom,
                        List<String> tileMatrixSets, List<TileMatrixSetView> tileMatrixSetDetails,
                        List<String> formats, JobRequestMetatile metatile, List<String> coverages) {

    /**
     * @param crs   {@code EPSG:n} or {@code OGC:CRS84}
     * @param quad  whether each matrix is twice the previous one across and down, its tiles a quadtree
     */
    public record TileMatrixSetView(String id, String crs, JobRequestZoom zoom, boolean quad) {
    }

    public record JobRequestZoom(int min, int max) {
    }

    public record JobRequestMetatile(int width, int height) {
    }

    public static LayerView of(LayerInfo layer) {
        return new LayerView(layer.name(), layer.title(), layer.attribution(),
                new JobRequestZoom(layer.minZoom(), layer.maxZoom()),
                layer.tileMatrixSets().stream().map(TileMatrixSet::id).sorted().toList(),
                layer.tileMatrixSets().stream().sorted(Comparator.comparing(TileMatrixSet::id))
                        .filter(tms -> layer.minZoom() <= tms.maxZoom())
                        .map(tms -> new TileMatrixSetView(tms.id(), tms.crs(), new JobRequestZoom(layer.minZoom(),
                                layer.maxZoom(tms)), tms.isQuad())).toList(),
                layer.formats().stream().map(TileFormat::id).sorted().toList(),
                new JobRequestMetatile(layer.metatile().width(), layer.metatile().height()),
                layer.coverages().keySet().stream().sorted().toList());
    }
}
