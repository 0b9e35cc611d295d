package io.tileseeder.layer;

import io.tileseeder.job.Timeouts;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import static io.tileseeder.layer.LayerCatalogFile.check;

/**
 * Reads the {@code source} of a {@code wms} layer. The keys, with defaults:
 *
 * <pre>{@code
 * source:
 *   type: wms
 *   url: http://maps.example.com/wms     # required; the GetMap base URL, may hold parameters (?map=...)
 *   version: 1.3.0                       # or 1.1.1
 *   layers: [countries, borders]         # required; bottom first
 *   styles: []                           # one per layer; default: each layer's default style
 *   format: image/png                    # what the upstream draws; any image/* it offers
 *   transparent: true
 *   params: {map_resolution: "96"}       # vendor parameters added to each GetMap
 *   connectTimeout: 5s
 *   timeout: 60s                         # a whole GetMap, body included
 *   retries: 3                           # on 5xx, I/O errors, timeouts and truncated images; never on 4xx
 *   retryDelay: 500ms                    # doubles with each retry, with jitter
 *   maxSize: {width: 4096, height: 4096} # the largest image the upstream accepts (metatile plus gutter)
 * }</pre>
 */
final class WmsSourceFile {

    private static final int MAX_RETRIES = 10;
    private static final int MAX_SIZE = 65_536;
    private static final int DEFAULT_SIZE = 4096;

    private WmsSourceFile() {
    }

    static WmsSourceConfig parse(LayerCatalogFile.RawSource raw, String at) {
        check(raw.data() == null, at, "data: only a vector source reads GeoJSON files; a wms source has a url");
        Map<String, Object> others = new LinkedHashMap<>();
        others.put("tileSize", raw.tileSize());
        others.put("zoom", raw.zoom());
        others.put("emptyStatuses", raw.emptyStatuses());
        others.put("resampling", raw.resampling());
        others.put("layer", raw.layer());
        others.put("style", raw.style());
        others.put("tileMatrixSet", raw.tileMatrixSet());
        others.forEach((key, value) -> check(value == null, at, key + ": a tile or wmts source's key; a wms source "
                + "draws each metatile in one GetMap of its layers and styles"));
        URI url = httpUrl(raw.url(), "the upstream's GetMap URL", at);

        String version = Objects.requireNonNullElse(raw.version(), WmsSourceConfig.V130);
        check(version.equals(WmsSourceConfig.V111) || version.equals(WmsSourceConfig.V130), at,
                "version: '" + version + "' is not supported; use 1.1.1 or 1.3.0");

        List<String> layers = raw.layers();
        check(layers != null && !layers.isEmpty(), at, "layers: list at least one layer of the WMS");
        names(layers, at + ".layers");
        List<String> styles = Objects.requireNonNullElse(raw.styles(), List.of());
        names(styles, at + ".styles");
        check(styles.isEmpty() || styles.size() == layers.size(), at, "styles: give one style per layer ("
                + layers.size() + "), or none for the default styles; got " + styles.size());

        String format = Objects.requireNonNullElse(raw.format(), "image/png").strip();
        check(format.startsWith("image/"), at, "format: '" + format + "' is not an image format like image/png");

        Map<String, String> params = new LinkedHashMap<>();
        if (raw.params() != null) {
            raw.params().forEach((key, value) -> {
                check(key != null && !key.isBlank() && value != null, at,
                        "params: every parameter needs a name and a value; got " + key + "=" + value);
                check(!WmsSourceConfig.RESERVED.contains(key.toUpperCase(Locale.ROOT)), at, "params: '" + key
                        + "' is set by the seeder itself and cannot be overridden");
                params.put(key, value);
            });
        }

        Duration connectTimeout = duration(raw.connectTimeout(), Duration.ofSeconds(5), at + ".connectTimeout");
        Duration timeout = duration(raw.timeout(), Duration.ofSeconds(60), at + ".timeout");
        Duration retryDelay = duration(raw.retryDelay(), Duration.ofMillis(500), at + ".retryDelay");
        int retries = retries(raw.retries(), at);
        int maxWidth = raw.maxSize() == null ? DEFAULT_SIZE : Objects.requireNonNullElse(raw.maxSize().width(), DEFAULT_SIZE);
        int maxHeight = raw.maxSize() == null ? DEFAULT_SIZE : Objects.requireNonNullElse(raw.maxSize().height(), DEFAULT_SIZE);
        check(maxWidth >= 1 && maxWidth <= MAX_SIZE && maxHeight >= 1 && maxHeight <= MAX_SIZE, at,
                "maxSize: width and height must be 1.." + MAX_SIZE + " pixels, got " + maxWidth + "x" + maxHeight);

        return new WmsSourceConfig(url, version, layers, styles, format,
                Objects.requireNonNullElse(raw.transparent(), true), params, connectTimeout, timeout, retries,
                retryDelay, maxWidth, maxHeight);
    }

    /** Layer and style names go into a comma-separated list: none may be blank or hold a comma. */
    private static void names(List<String> names, String at) {
        for (String name : names) {
            if (name == null || name.isBlank() || name.contains(",")) {
                throw new LayerConfigException(at + ": '" + name + "' is not a name (blank, or holds a comma)");
            }
        }
    }

    /**
     * An upstream's URL: required ({@code what} says what it is), http or https, with a host and no fragment.
     */
    static URI httpUrl(String text, String what, String at) {
        check(text != null && !text.isBlank(), at, "url: required, " + what);
        URI url;
        try {
            url = new URI(text.strip());
        } catch (URISyntaxException e) {
            throw new LayerConfigException(at + ".url: '" + text + "' is not a URL: " + e.getReason());
        }
        String scheme = Objects.requireNonNullElse(url.getScheme(), "").toLowerCase(Locale.ROOT);
        check((scheme.equals("http") || scheme.equals("https")) && url.getHost() != null && url.getFragment() == null,
                at, "url: '" + text + "' must be an http:// or https:// URL with a host and no #fragment");
        return url;
    }

    /** An upstream source's {@code retries}: 3 by default, at most {@value #MAX_RETRIES}. */
    static int retries(Integer given, String at) {
        int retries = Objects.requireNonNullElse(given, 3);
        check(retries >= 0 && retries <= MAX_RETRIES, at, "retries: must be 0.." + MAX_RETRIES + ", got " + retries);
        return retries;
    }

    /** An upstream source's duration: {@code fallback} if not given, else a positive one ({@link Timeouts#parse}). */
    static Duration duration(String text, Duration fallback, String at) {
        if (text == null) {
            return fallback;
        }
        Duration duration;
        try {
            duration = Timeouts.parse(text);
        } catch (IllegalArgumentException e) {
            throw new LayerConfigException(at + ": " + e.getMessage());
        }
        if (duration.isZero()) {
            throw new LayerConfigException(at + ": must be longer than zero");
        }
        return duration;
    }
}
