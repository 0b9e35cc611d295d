package io.tileseeder.layer;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code wms} source: one GetMap per metatile (plus its gutter) from an upstream WMS.
 *
 * @param url            the GetMap base URL; may carry parameters of its own (e.g. {@code ?map=/srv/world.map})
 * @param version        {@code 1.1.1} or {@code 1.3.0}
 * @param layers         the WMS layers drawn, bottom first
 * @param styles         one style per layer (empty: the layers' default styles)
 * @param format         the image format asked for, e.g. {@code image/png}
 * @param transparent    whether to ask for a transparent background
 * @param params         extra (vendor) parameters added to each GetMap
 * @param connectTimeout how long to wait for a connection
 * @param timeout        how long a whole GetMap may take, body included
 * @param retries        tries after the first on a 5xx answer, an I/O error, a timeout or a truncated image
 * @param retryDelay     the wait before the first retry; it doubles with each further one, with jitter
 * @param maxWidth       the widest image the upstream accepts, in pixels (metatile plus gutter)
 * @param maxHeight      the tallest image the upstream accepts, in pixels
 */
public record WmsSourceConfig(URI url, String version, List<String> layers, List<String> styles, String format,
                              boolean transparent, Map<String, String> params, Duration connectTimeout,
                              Duration timeout, int retries, Duration retryDelay, int maxWidth, int maxHeight)
        implements SourceConfig, HttpSource {

    public static final String V111 = "1.1.1";
    public static final String V130 = "1.3.0";
    /** GetMap parameters the seeder sets itself (upper case; WMS parameter names ignore case). */
    public static final Set<String> RESERVED = Set.of("SERVICE", "REQUEST", "VERSION", "LAYERS", "STYLES", "SRS",
            "CRS", "BBOX", "WIDTH", "HEIGHT", "FORMAT", "TRANSPARENT", "EXCEPTIONS");

    public WmsSourceConfig {
        layers = List.copyOf(layers);
        styles = List.copyOf(styles);
        params = Map.copyOf(params);
    }

    @Override
    public String upstream() {
        return HttpSource.upstreamOf(url);
    }
}
