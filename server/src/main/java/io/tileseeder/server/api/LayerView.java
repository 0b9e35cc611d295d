package io.tileseeder.server.api;

import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.TileFormat;
import java.util.List;

/**
 * A layer as {@code GET /api/v1/layers} shows it.
 *
 * @param coverages the names of the coverages a job may name; {@code GET /api/v1/layers/{name}/coverages/{coverage}}
 *                  answers each as GeoJSON
 */
public record LayerView(String name, String title, String attribution, JobRequestZoom zoom,
                        List<String> tileMatrixSets, List<String> formats, JobRequestMetatile metatile,
                        List<String> coverages) {

    public record JobRequestZoom(int min, int max) {
    }

    public record JobRequestMetatile(int width, int height) {
    }

    public static LayerView of(LayerInfo layer) {
        return new LayerView(layer.name(), layer.title(), layer.attribution(),
                new JobRequestZoom(layer.minZoom(), layer.maxZoom()),
                layer.tileMatrixSets().stream().map(TileMatrixSet::id).sorted().toList(),
                layer.formats().stream().map(TileFormat::id).sorted().toList(),
                new JobRequestMetatile(layer.metatile().width(), layer.metatile().height()),
                layer.coverages().keySet().stream().sorted().toList());
    }
}
