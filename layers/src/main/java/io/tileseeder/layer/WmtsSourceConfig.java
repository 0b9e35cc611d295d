package io.tileseeder.layer;

import java.net.URI;
import java.time.Duration;
import java.util.Set;

/**
 * The {@code wmts} source: a WMTS's layer, cascaded through its RESTful tile template, read from its capabilities
 * when a worker first draws the layer. The WMTS's tile matrix set must have a matrix for each of the layer's set's
 * zoom levels it serves: the same CRS, cell size and top-left corner.
 *
 * @param capabilities  the URL of the capabilities document (GetCapabilities, or a WMTSCapabilities.xml)
 * @param layer         the WMTS layer's identifier
 * @param style         its style's identifier; null for its default style
 * @param format        the tiles' format (a ResourceURL's); null for image/png if offered, else its first
 * @param tileMatrixSet the identifier of the WMTS's matrix set; null for the one matching the layer's set
 */
public record WmtsSourceConfig(URI capabilities, String layer, String style, String format, String tileMatrixSet,
                               Set<Integer> emptyStatuses, TileSourceConfig.Resampling resampling,
                               Duration connectTimeout, Duration timeout, int retries, Duration retryDelay)
        implements SourceConfig, HttpSource {

    public WmtsSourceConfig {
        emptyStatuses = Set.copyOf(emptyStatuses);
    }

    @Override
    public String upstream() {
        return HttpSource.upstreamOf(capabilities);
    }
}
