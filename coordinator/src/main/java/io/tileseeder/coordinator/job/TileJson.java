package io.tileseeder.coordinator.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.TileFormat;

/**
 * A TileJSON 3.0.0 document for a layer's tiles in one matrix set and format, stored beside them as
 * {@code tilejson-{format}.json}, with the tile URL relative to the document so the cache can be served
 * as it is. For WorldCRS84Quad it also names the matrix set (TileJSON itself assumes Web Mercator).
 */
public final class TileJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private TileJson() {
    }

    public static String fileName(TileFormat format) {
        return "tilejson-" + format.id() + ".json";
    }

    public static byte[] document(LayerInfo layer, TileMatrixSet tms, TileFormat format) {
        ObjectNode doc = JSON.createObjectNode();
        doc.put("tilejson", "3.0.0");
        doc.put("name", layer.title());
        doc.put("attribution", layer.attribution());
        doc.put("scheme", "xyz");
        doc.putArray("tiles").add("{z}/{x}/{y}." + format.extension());
        doc.put("minzoom", layer.minZoom());
        doc.put("maxzoom", layer.maxZoom());
        doc.putArray("bounds").add(-180).add(tms == TileMatrixSet.WEB_MERCATOR_QUAD ? -85.0511 : -90)
                .add(180).add(tms == TileMatrixSet.WEB_MERCATOR_QUAD ? 85.0511 : 90);
        doc.put("tileMatrixSet", tms.id());
        doc.put("crs", tms.crs());
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(doc);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
