package io.tileseeder.job;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A seed job as a client sends it (the body of {@code POST /api/v1/jobs}): every field optional at this
 * stage, names and enums as strings, so that the planning module's {@code JobSpecValidator} can say precisely what
 * is wrong.
 *
 * @param layer         the layer's name (required)
 * @param tileMatrixSet a set the layer offers, by identifier: {@code WebMercatorQuad} (default), {@code WorldCRS84Quad},
 *                      another well-known set, or one of the layers file's
 * @param zoom          the zoom levels, both ends inclusive (required)
 * @param bbox          {@code [minLon, minLat, maxLon, maxLat]} in CRS84 degrees, or with {@code bboxCrs} in the
 *                      set's CRS, in that CRS's axis order; the whole world if absent
 * @param format        {@code png} (default) or {@code jpeg}
 * @param mode          {@code seed} (default), {@code reseed}, {@code truncate} or {@code pack}
 * @param metatile      tiles per metatile; the layer's default if absent
 * @param refreshBefore with {@code reseed}: only tiles last written before this instant are rewritten
 * @param priority      higher first (default 0): a job's tasks are queued only while no job of higher priority is
 *                      being planned, and queued jobs start in this order; jobs of equal priority share the workers
 * @param labels        free key/value pairs carried into the job's status and events
 * @param coverage      only the tiles that overlap this area (within the bbox, if one is given): a GeoJSON Polygon,
 *                      MultiPolygon, Feature or FeatureCollection in CRS84, or the name of one of the layer's coverages
 * @param tiles         only these tiles, with their ancestors and descendants within the zoom levels: {@code z/x/y}
 *                      lines in one string (osm2pgsql's expire output), or an array of {@code z/x/y} strings
 * @param bboxCrs       the CRS of {@code bbox}: CRS84 (the default; {@code OGC:CRS84} or its URI) or the set's own
 *                      ({@code EPSG:2056}, its URI or URN)
 * @param dimensions    the values to seed of the layer's dimensions, by name (in any case): a value, an interval
 *                      {@code min/max/resolution} of a time or number dimension, or an array of them; a dimension the
 *                      job does not name gets its default
 * @param archive       with {@code pack}: the PMTiles archive to write, a path ending in {@code .pmtiles} or a store
 *                      URL ({@code s3://}, {@code az://}, {@code gs://}) of one
 */
public record JobRequest(String layer, String tileMatrixSet, Zoom zoom, List<Double> bbox, String format,
                         String mode, Metatile metatile, Instant refreshBefore, Integer priority,
                         Map<String, String> labels, JsonNode coverage, JsonNode tiles, String bboxCrs,
                         Map<String, JsonNode> dimensions, String archive) {

    /** A job of any mode but {@code pack}. */
    public JobRequest(String layer, String tileMatrixSet, Zoom zoom, List<Double> bbox, String format, String mode,
                      Metatile metatile, Instant refreshBefore, Integer priority, Map<String, String> labels,
                      JsonNode coverage, JsonNode tiles, String bboxCrs, Map<String, JsonNode> dimensions) {
        this(layer, tileMatrixSet, zoom, bbox, format, mode, metatile, refreshBefore, priority, labels, coverage,
                tiles, bboxCrs, dimensions, null);
    }

    /** A job over a bbox in CRS84 or in the set's CRS, a coverage or a tile list, on a layer without dimensions. */
    public JobRequest(String layer, String tileMatrixSet, Zoom zoom, List<Double> bbox, String format, String mode,
                      Metatile metatile, Instant refreshBefore, Integer priority, Map<String, String> labels,
                      JsonNode coverage, JsonNode tiles, String bboxCrs) {
        this(layer, tileMatrixSet, zoom, bbox, format, mode, metatile, refreshBefore, priority, labels, coverage,
                tiles, bboxCrs, null);
    }

    /** A job over a bbox in CRS84, a coverage or a tile list. */
    public JobRequest(String layer, String tileMatrixSet, Zoom zoom, List<Double> bbox, String format, String mode,
                      Metatile metatile, Instant refreshBefore, Integer priority, Map<String, String> labels,
                      JsonNode coverage, JsonNode tiles) {
        this(layer, tileMatrixSet, zoom, bbox, format, mode, metatile, refreshBefore, priority, labels, coverage,
                tiles, null, null);
    }

    /** A job over a bbox. */
    public JobRequest(String layer, String tileMatrixSet, Zoom zoom, List<Double> bbox, String format, String mode,
                      Metatile metatile, Instant refreshBefore, Integer priority, Map<String, String> labels) {
        this(layer, tileMatrixSet, zoom, bbox, format, mode, metatile, refreshBefore, priority, labels, null, null,
                null, null);
    }

    /** Zoom levels {@code min..max}, inclusive. */
    public record Zoom(Integer min, Integer max) {
    }

    /** Tiles across ({@code width}) and down ({@code height}) a metatile. */
    public record Metatile(Integer width, Integer height) {
    }
}
