package io.tileseeder.coordinator.expiry;

import com.fasterxml.jackson.databind.JsonNode;
import io.tileseeder.job.JobRequest;
import java.util.Map;

/**
 * A message on the tile-expiry topic: tiles of a layer whose data changed, as a data pipeline publishes them.
 *
 * <pre>{@code
 * {"v": 1, "layer": "world", "source": "osm2pgsql-minutely", "tiles": "14/8508/5489\n14/8509/5489\n"}
 * }</pre>
 *
 * @param v             schema version, {@link #VERSION}
 * @param layer         the layer whose tiles expired (required)
 * @param source        who published it (required): the reseed jobs name their sources in a label
 * @param tiles         {@code z/x/y} lines in one string (osm2pgsql's expire output), or an array of them (required)
 * @param tileMatrixSet the tiles' matrix set; {@code WebMercatorQuad} if absent
 * @param format        the format to reseed; {@code png} if absent
 * @param zoom          the zoom levels to reseed, the tiles' ancestors above them and descendants below; the
 *                      layer's if absent
 * @param dimensions    on a layer with dimensions, the value of each whose cache the tiles are of (a value no cache
 *                      holds yet, a new radar frame, is seeded); the defaults for those left out
 */
public record ExpiryEvent(int v, String layer, String source, JsonNode tiles, String tileMatrixSet, String format,
                          JobRequest.Zoom zoom, Map<String, String> dimensions) {

    public static final int VERSION = 1;

    /** An event of a layer without dimensions. */
    public ExpiryEvent(int v, String layer, String source, JsonNode tiles, String tileMatrixSet, String format,
                       JobRequest.Zoom zoom) {
        this(v, layer, source, tiles, tileMatrixSet, format, zoom, null);
    }
}
