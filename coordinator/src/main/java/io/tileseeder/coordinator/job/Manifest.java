package io.tileseeder.coordinator.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tileseeder.job.Digests;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.TileFormat;
import io.tileseeder.message.TileCounts;
import io.tileseeder.plan.MetatilePlan;
import io.tileseeder.port.CacheDocuments;
import io.tileseeder.port.Layout;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Locale;
import java.util.TreeMap;

/**
 * What the last job did to a layer's tiles in one matrix set and format, stored beside them as
 * {@code manifest-{format}.json} after the job's last tile, before the job is reported done: the layer and a hash of
 * its configuration, the format and the tile URL template, the job (its id, mode, zoom levels, area, labels), its
 * tiles per zoom level and their outcomes. A client or a pipeline reads it to know what the cache holds and which
 * configuration drew it; the next job over the same layer, matrix set and format replaces it.
 */
public final class Manifest {

    /** The version of this document's layout. */
    public static final int VERSION = 1;

    private static final ObjectMapper JSON = new ObjectMapper();

    private Manifest() {
    }

    public static String fileName(TileFormat format) {
        return CacheDocuments.manifest(format);
    }

    /** The manifest of a job on a layer without dimensions, in a store of the xyz layout. */
    public static byte[] document(JobStatus job, LayerInfo layer, Instant written) {
        return document(job, layer, DimensionValues.NONE, 1, Layout.XYZ, written);
    }

    /**
     * @param job        the job, all of whose tasks have a result
     * @param dimensions the cache the manifest is written into, on a layer with dimensions: its value of each (the
     *                   document's {@code dimensions}); its counts are the whole job's, over all its {@code caches}
     * @param layout     the store's layout: the tiles' names, and which documents are beside them
     * @param written    when the document is written: after the job's last tile
     */
    public static byte[] document(JobStatus job, LayerInfo layer, DimensionValues dimensions, int caches,
                                  Layout layout, Instant written) {
        JobSpec spec = job.spec();
        ObjectNode doc = JSON.createObjectNode();
        doc.put("manifest", VERSION);
        doc.put("layer", layer.name());
        if (!dimensions.isEmpty()) {
            ObjectNode values = doc.putObject("dimensions");
            dimensions.values().forEach(values::put);
        }
        doc.put("layerConfigHash", layer.configHash());
        doc.put("tileMatrixSet", spec.tileMatrixSet().id());
        doc.put("crs", spec.tileMatrixSet().crs());
        doc.put("format", spec.format().id());
        doc.put("contentType", spec.format().contentType());
        doc.put("layout", layout.id());
        doc.put("tiles", layout.template(spec.format(), "{z}", "{x}", "{y}"));
        ArrayNode formats = doc.putArray("layerFormats");
        layer.formats().stream().map(TileFormat::id).sorted().forEach(formats::add);
        doc.put("written", written.toString());
        ObjectNode documents = doc.putObject("documents");
        if (layout.wmtsTemplate()) {
            documents.put("wmtsCapabilities", "../".repeat(dimensions.values().size())
                    + WmtsCapabilities.fileName(spec.format()));
        } else {
            documents.putNull("wmtsCapabilities");
        }
        if (layout == Layout.TMS) {
            documents.put("tmsTileMap", TmsTileMap.fileName(spec.format()));
        }
        if (TileJson.describes(spec.tileMatrixSet())) {
            documents.put("tileJson", TileJson.fileName(spec.format()));
        } else {
            documents.putNull("tileJson");
            documents.put("noTileJson", "TileJSON describes WebMercatorQuad tiles only (the global Mercator profile, "
                    + "one tile at zoom 0) and cannot name another tile matrix set; "
                    + WmtsCapabilities.fileName(spec.format()) + " describes these " + spec.tileMatrixSet().id()
                    + " tiles");
        }

        ObjectNode about = doc.putObject("job");
        about.put("id", job.id());
        about.put("mode", spec.mode().id());
        about.putObject("zoom").put("min", spec.minZoom()).put("max", spec.maxZoom());
        about.putArray("bbox").add(spec.bbox().minX()).add(spec.bbox().minY()).add(spec.bbox().maxX())
                .add(spec.bbox().maxY());
        if (spec.crsBbox() != null) {
            JobRequest asGiven = spec.toRequest();
            ArrayNode crsBbox = about.putArray("crsBbox");
            asGiven.bbox().forEach(crsBbox::add);
            about.put("bboxCrs", asGiven.bboxCrs());
        }
        if (spec.area() != null) {
            ObjectNode area = about.putObject("area");
            area.put("kind", spec.area().kind().name().toLowerCase(Locale.ROOT));
            if (spec.area().name() != null) {
                area.put("name", spec.area().name());
            }
            area.put("sha256", Digests.sha256(spec.area().data().getBytes(StandardCharsets.UTF_8)));
        }
        about.putObject("metatile").put("width", spec.metatile().width()).put("height", spec.metatile().height());
        if (spec.refreshBefore() != null) {
            about.put("refreshBefore", spec.refreshBefore().toString());
        }
        ObjectNode labels = about.putObject("labels");
        new TreeMap<>(spec.labels()).forEach(labels::put);
        about.put("created", job.created().toString());
        if (job.started() != null) {
            about.put("started", job.started().toString());
        }

        TileCounts counts = job.counts();
        if (!spec.dimensions().isEmpty()) {
            ObjectNode asked = about.putObject("dimensions");
            spec.dimensions().forEach((name, values) -> values.forEach(asked.putArray(name)::add));
            about.put("caches", caches);
        }
        doc.putObject("counts").put("planned", job.tilesPlanned()).put("written", counts.written())
                .put("empty", counts.empty()).put("skipped", counts.skipped()).put("unchanged", counts.unchanged())
                .put("deleted", counts.deleted()).put("failed", counts.failed()).put("bytes", counts.bytes());
        MetatilePlan plan = MetatilePlan.of(spec);
        ArrayNode zooms = doc.putArray("zooms");
        for (int z = spec.minZoom(); z <= spec.maxZoom(); z++) {
            zooms.addObject().put("zoom", z).put("tiles", plan.tileCount(z) / caches);
        }
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(doc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
