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
 */
public record JobSpec(String layer, TileMatrixSet tileMatrixSet, int minZoom, int maxZoom, Bounds bbox,
                      TileFormat format, Mode mode, MetatileSize metatile, Instant refreshBefore, int priority,
                      Map<String, String> labels, JobArea area, Bounds crsBbox) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public JobSpec {
        labels = Map.copyOf(labels);
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
        return new JobRequest(layer, tileMatrixSet.id(), new JobRequest.Zoom(minZoom, maxZoom), box, format.id(),
                mode.id(), new JobRequest.Metatile(metatile.width(), metatile.height()), refreshBefore, priority,
                labels, coverage, tiles, bboxCrs);
    }

    private static JsonNode geoJson(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored coverage is not JSON: " + e.getMessage(), e);
        }
    }
}
