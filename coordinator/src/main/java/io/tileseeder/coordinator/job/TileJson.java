package io.tileseeder.coordinator.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.CacheDocuments;
import io.tileseeder.port.Layout;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.util.Optional;

/**
 * A TileJSON 3.0.0 document for a layer's tiles in one format, stored beside them as {@code tilejson-{format}.json}.
 *
 * <p>Only for WebMercatorQuad: TileJSON assumes the global (spherical) Mercator profile and an XYZ grid of 1 × 1
 * tiles at zoom 0, and has no way to name another tile matrix set, so WorldCRS84Quad tiles get none (their WMTS
 * capabilities describe them).
 *
 * <p>Its tile URL is absolute, as the standard requires ("All endpoint urls MUST be absolute"), with the store's public
 * URL as its base, as the WMTS capabilities' ({@link TileUrls}).
 *
 * <p>{@code minzoom} and {@code maxzoom} say the zoom levels the cache holds, not those of the layer: the lowest and
 * the highest of the layer's zoom levels at which the store holds a tile of the layer in WebMercatorQuad
 * ({@link #zoomsHeld}, one look-up per zoom level), looked up when a job into it ends. The document is written again
 * after every job of the layer, tile matrix set and format, seed, reseed and truncate alike, so a second job that adds
 * z6-7 to a cache of z0-5 widens it to 0-7, and a truncate of z6-7 narrows it back (a truncate that leaves no tile
 * removes it). The store does not tell formats apart in this look-up: beside a deeper cache of another format, the
 * range is that of both; and zoom levels missing inside the range (z0-5 and z10-12 seeded) cannot be said in TileJSON.
 */
public final class TileJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The zoom levels a document says the cache holds, both ends inclusive. */
    public record Zooms(int min, int max) {
        public Zooms {
            if (min < 0 || max < min) {
                throw new IllegalArgumentException("zoom levels " + min + ".." + max);
            }
        }
    }

    private TileJson() {
    }

    public static String fileName(TileFormat format) {
        return CacheDocuments.tileJson(format);
    }

    /** Whether TileJSON can describe tiles of this matrix set: WebMercatorQuad only. */
    public static boolean describes(TileMatrixSet tms) {
        return tms == TileMatrixSet.WEB_MERCATOR_QUAD;
    }

    /**
     * The lowest and highest of the layer's zoom levels at which {@code store} holds a tile of the cache (in any
     * format: {@link TileStore#hasTiles}); empty if it holds none.
     */
    public static Optional<Zooms> zoomsHeld(TileStore store, TileCache cache, LayerInfo layer) throws IOException {
        int deepest = layer.maxZoom(cache.tileMatrixSet());
        int min = layer.minZoom();
        while (min <= deepest && !store.hasTiles(cache, min)) {
            min++;
        }
        if (min > deepest) {
            return Optional.empty();
        }
        int max = deepest;
        while (max > min && !store.hasTiles(cache, max)) {
            max--;
        }
        return Optional.of(new Zooms(min, max));
    }

    /**
     * @param cache  a cache of the layer in WebMercatorQuad
     * @param base   the store's public URL ({@link TileStore#publicUrl})
     * @param layout the store's layout: the tile URL's path, and {@code "scheme": "tms"} for rows from the bottom
     * @param zooms  the zoom levels the cache holds ({@link #zoomsHeld})
     */
    public static byte[] document(LayerInfo layer, TileCache cache, TileFormat format, String base, Layout layout,
                                  Zooms zooms) {
        TileMatrixSet tms = TileMatrixSet.WEB_MERCATOR_QUAD;
        ObjectNode doc = JSON.createObjectNode();
        doc.put("tilejson", "3.0.0");
        doc.put("name", cache.dimensions().isEmpty() ? layer.title()
                : layer.title() + " " + String.join(" ", cache.dimensions().values().values()));
        doc.put("attribution", layer.attribution());
        doc.put("scheme", layout == Layout.TMS ? "tms" : "xyz");
        doc.putArray("tiles").add(TileUrls.template(base, layout.folder(cache), layout, format, "{z}", "{x}", "{y}"));
        doc.put("minzoom", zooms.min());
        doc.put("maxzoom", zooms.max());
        doc.putArray("bounds").add(-180).add(-85.0511).add(180).add(85.0511);
        doc.put("tileMatrixSet", tms.id());
        doc.put("crs", tms.crs());
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(doc);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
