package io.tileseeder.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.grid.TileRange;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A validated job: every field present, typed and within the layer's and the deployment's limits. Made by the
 * planning module's {@code JobSpecValidator}.
 *
 * @param bbox    in CRS84; with {@code crsBbox}, the CRS84 envelope of that one
 * @param area    null for a job over its bbox; else the job's tiles are those of the area (a coverage, already
 *                clipped to the bbox, or a tile list)
 * @param crsBbox null, or the bbox as the request gave it in the set's CRS (easting and northing): the job's
 *                tiles are then those that intersect it
 * @param dimensions the values seeded of each of the layer's dimensions, in the order the layer declares them,
 *                   normalized ({@link Dimension#check}); empty for a layer without dimensions. Every combination of
 *                   one value of each is a cache of its own ({@link #combinations})
 * @param archive with {@link Mode#PACK}: the PMTiles archive the cache is packed into (a path or a store URL ending
 *                in {@code .pmtiles}); null for any other mode
 */
public record JobSpec(String layer, TileMatrixSet tileMatrixSet, int minZoom, int maxZoom, Bounds bbox,
                      TileFormat format, Mode mode, MetatileSize metatile, Instant refreshBefore, int priority,
                      Map<String, String> labels, JobArea area, Bounds crsBbox, Map<String, List<String>> dimensions,
                      String archive) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public JobSpec {
        labels = Map.copyOf(labels);
        Map<String, List<String>> values = new LinkedHashMap<>();
        if (dimensions != null) {
            dimensions.forEach((name, list) -> values.put(name, List.copyOf(list)));
        }
        dimensions = Collections.unmodifiableMap(values);
    }

    /** A job of any mode but {@link Mode#PACK}. */
    public JobSpec(String layer, TileMatrixSet tileMatrixSet, int minZoom, int maxZoom, Bounds bbox,
                   TileFormat format, Mode mode, MetatileSize metatile, Instant refreshBefore, int priority,
                   Map<String, String> labels, JobArea area, Bounds crsBbox, Map<String, List<String>> dimensions) {
        this(layer, tileMatrixSet, minZoom, maxZoom, bbox, format, mode, metatile, refreshBefore, priority, labels,
                area, crsBbox, dimensions, null);
    }

    /** A job over its CRS84 bbox or the set's own, or over an area, of a layer without dimensions. */
    public JobSpec(String layer, TileMatrixSet tileMatrixSet, int minZoom, int maxZoom, Bounds bbox,
                   TileFormat format, Mode mode, MetatileSize metatile, Instant refreshBefore, int priority,
                   Map<String, String> labels, JobArea area, Bounds crsBbox) {
        this(layer, tileMatrixSet, minZoom, maxZoom, bbox, format, mode, metatile, refreshBefore, priority, labels,
                area, crsBbox, Map.of());
    }

    /** A job over its CRS84 bbox, or over an area. */
    public JobSpec(String layer, TileMatrixSet tileMatrixSet, int minZoom, int maxZoom, Bounds bbox,
                   TileFormat format, Mode mode, MetatileSize metatile, Instant refreshBefore, int priority,
                   Map<String, String> labels, JobArea area) {
        this(layer, tileMatrixSet, minZoom, maxZoom, bbox, format, mode, metatile, refreshBefore, priority, labels,
                area, null);
    }

    /** A job over its bbox. */
    public JobSpec(String layer, TileMatrixSet tileMatrixSet, int minZoom, int maxZoom, Bounds bbox,
                   TileFormat format, Mode mode, MetatileSize metatile, Instant refreshBefore, int priority,
                   Map<String, String> labels) {
        this(layer, tileMatrixSet, minZoom, maxZoom, bbox, format, mode, metatile, refreshBefore, priority, labels,
                null);
    }

    /**
     * The caches the job seeds: every combination of one of its values of each dimension, the first dimension's
     * values varying slowest; one {@link DimensionValues#NONE} for a layer without dimensions.
     */
    public List<DimensionValues> combinations() {
        List<Map<String, String>> combinations = List.of(Map.of());
        for (Map.Entry<String, List<String>> dimension : dimensions.entrySet()) {
            List<Map<String, String>> longer = new ArrayList<>();
            for (Map<String, String> combination : combinations) {
                for (String value : dimension.getValue()) {
                    Map<String, String> next = new LinkedHashMap<>(combination);
                    next.put(dimension.getKey(), value);
                    longer.add(next);
                }
            }
            combinations = longer;
        }
        return combinations.stream().map(DimensionValues::new).toList();
    }

    /** How many caches the job seeds: the product of its dimensions' value counts. */
    public long combinationCount() {
        long count = 1;
        for (List<String> values : dimensions.values()) {
            count *= values.size();
        }
        return count;
    }

    /** The tiles of zoom {@code z} in the job's bbox: all its tiles, unless it has an {@link #area}. */
    public TileRange tiles(int z) {
        return crsBbox != null ? tileMatrixSet.tileRangeOf(crsBbox, z) : tileMatrixSet.tileRange(bbox, z);
    }

    /** The job as a client would have written it, with every default filled in. */
    public JobRequest toRequest() {
        JsonNode coverage = null;
        JsonNode tiles = null;
        List<Double> box = List.of(bbox.minX(), bbox.minY(), bbox.maxX(), bbox.maxY());
        String bboxCrs = null;
        if (crsBbox != null) {
            box = tileMatrixSet.referenceSystem().northingFirst()
                    ? List.of(crsBbox.minY(), crsBbox.minX(), crsBbox.maxY(), crsBbox.maxX())
                    : List.of(crsBbox.minX(), crsBbox.minY(), crsBbox.maxX(), crsBbox.maxY());
            bboxCrs = tileMatrixSet.crs();
        }
        if (area != null && area.kind() == JobArea.Kind.COVERAGE) {
            coverage = area.name() != null ? TextNode.valueOf(area.name()) : geoJson(area.data());
        } else if (area != null) {
            tiles = TextNode.valueOf(area.data());
            box = null;
        }
        if (mode == Mode.PACK) {
            return new JobRequest(layer, tileMatrixSet.id(), null, null, format.id(), mode.id(), null, null, priority,
                    labels, null, null, null, null, archive);
        }
        return new JobRequest(layer, tileMatrixSet.id(), new JobRequest.Zoom(minZoom, maxZoom), box, format.id(),
                mode.id(), new JobRequest.Metatile(metatile.width(), metatile.height()), refreshBefore, priority,
                labels, coverage, tiles, bboxCrs, dimensions.isEmpty() ? null : requestDimensions());
    }

    private Map<String, JsonNode> requestDimensions() {
        Map<String, JsonNode> values = new LinkedHashMap<>();
        dimensions.forEach((name, list) -> values.put(name, JSON.valueToTree(list)));
        return values;
    }

    private static JsonNode geoJson(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored coverage is not JSON: " + e.getMessage(), e);
        }
    }
}
