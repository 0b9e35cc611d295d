package io.tileseeder.server.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.Dimension;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.TileFormat;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A layer as {@code GET /api/v1/layers} shows it.
 *
 * @param tileMatrixSets        the identifiers of the tile matrix sets the layer offers, sorted
 * @param tileMatrixSetDetails the same sets with their CRS and the zoom levels a job may seed in each (the layer's
 *                             range cut to the set's matrices), and whether coverages and tile lists work on it
 * @param coverages            the names of the coverages a job may name;
 *                             {@code GET /api/v1/layers/{name}/coverages/{coverage}} answers each as GeoJSON
 * @param dimensions           the layer's dimensions, in the order of their folders; a job names their values
 */
public record LayerView(String name, String title, String attribution, JobRequestZoom zoom,
                        List<String> tileMatrixSets, List<TileMatrixSetView> tileMatrixSetDetails,
                        List<String> formats, JobRequestMetatile metatile, List<String> coverages,
                        List<DimensionView> dimensions) {

    /**
     * @param type    {@code time}, {@code number} or {@code text}
     * @param values  the values and intervals a job may name, normalized; empty for any of the type (or a pattern)
     * @param pattern the expression a text value must match whole, or null
     * @param defaultValue the value of a job that names none, or null if a job must name one
     * @param keep    the retention's number of last values kept, or null
     * @param newerThan the retention's age limit (ISO 8601 duration), or null
     */
    public record DimensionView(String name, String type, List<String> values, String pattern,
                                @JsonProperty("default") String defaultValue, Integer keep, String newerThan) {

        static DimensionView of(Dimension dimension) {
            Dimension.Retention retention = dimension.retention();
            return new DimensionView(dimension.name(), dimension.kind().name().toLowerCase(Locale.ROOT),
                    dimension.allowed(), dimension.pattern() == null ? null : dimension.pattern().pattern(),
                    dimension.defaultValue(), retention == null || retention.keep() == 0 ? null : retention.keep(),
                    retention == null || retention.newerThan() == null ? null : retention.newerThan().toString());
        }
    }

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
                layer.coverages().keySet().stream().sorted().toList(),
                layer.dimensions().stream().map(DimensionView::of).toList());
    }
}
