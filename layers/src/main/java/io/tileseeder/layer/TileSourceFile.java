package io.tileseeder.layer;

import static io.tileseeder.layer.LayerCatalogFile.check;

import io.tileseeder.grid.TileMatrixSet;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Reads the {@code source} of a {@code tile} layer. The keys, with defaults:
 *
 * <pre>{@code
 * source:
 *   type: tile
 *   url: https://tiles.example.com/{z}/{x}/{y}.png   # required; {z}, {x}, and {y} or {-y} (TMS), or {quadkey}
 *   tileSize: 256                        # the upstream's tiles, pixels a side: 64..2048
 *   zoom: {min: 0, max: 18}              # the upstream's levels; deeper metatiles enlarge its deepest (overzoom)
 *   tileMatrixSet: WebMercatorQuad       # the upstream's grid; default: the layer's own (resampled, and warped from
 *                                        # another CRS, when it is not)
 *   emptyStatuses: [204, 404]            # answers that mean "no tile here": transparent, not a failure
 *   resampling: bilinear                 # or nearest: upstream pixels drawn at another resolution
 *   connectTimeout: 5s
 *   timeout: 60s                         # a whole tile, body included
 *   retries: 3                           # on 5xx, I/O errors, timeouts and truncated images; never on 4xx
 *   retryDelay: 500ms
 * }</pre>
 */
final class TileSourceFile {

    private static final int MIN_TILE_SIZE = 64;
    private static final int MAX_TILE_SIZE = 2048;
    private static final Set<String> GRID = Set.of("z", "x", "y", "-y", "quadkey");

    private TileSourceFile() {
    }

    /** @param dimensions the layer's dimensions' names: the template may name them */
    static TileSourceConfig parse(LayerCatalogFile.RawSource raw, String at, List<String> dimensions) {
        java.util.Map<String, Object> others = new java.util.LinkedHashMap<>();
        others.put("data", raw.data());
        others.put("version", raw.version());
        others.put("layers", raw.layers());
        others.put("styles", raw.styles());
        others.put("format", raw.format());
        others.put("transparent", raw.transparent());
        others.put("params", raw.params());
        others.put("maxSize", raw.maxSize());
        others.put("layer", raw.layer());
        others.put("style", raw.style());
        others.forEach((key, value) -> check(value == null, at, key + ": another source's key; a tile "
                + "source takes url, tileSize, zoom, tileMatrixSet, emptyStatuses, resampling, timeouts and retries"));
        check(raw.url() != null && !raw.url().isBlank(), at, "url: required, the upstream's tile URL template, e.g. "
                + "https://tiles.example.com/{z}/{x}/{y}.png");
        String template = raw.url().strip();
        Set<String> variables = TileSourceConfig.variables(template);
        boolean xyz = variables.contains("z") && variables.contains("x")
                && (variables.contains("y") || variables.contains("-y"));
        check(xyz || variables.contains("quadkey"), at, "url: '" + template + "' names no tile: it needs {z}, {x} and "
                + "{y} (or {-y} for TMS rows), or {quadkey}");
        for (String variable : variables) {
            check(GRID.contains(variable) || dimensions.contains(variable), at, "url: {" + variable + "} is not "
                    + "{z}, {x}, {y}, {-y}, {quadkey}" + (dimensions.isEmpty() ? "" : " or a dimension of the layer ("
                    + String.join(", ", dimensions) + ")"));
        }
        for (String dimension : dimensions) {
            check(variables.contains(dimension), at, "url: names no {" + dimension + "}: each of the layer's "
                    + "dimensions must be in the URL, or all its values would fetch the same tiles");
        }
        WmsSourceFile.httpUrl(template.replaceAll("\\{-?[A-Za-z_][A-Za-z0-9_]*}", "0"), "the tile URL", at);

        int tileSize = Objects.requireNonNullElse(raw.tileSize(), TileMatrixSet.TILE_SIZE);
        check(tileSize >= MIN_TILE_SIZE && tileSize <= MAX_TILE_SIZE, at, "tileSize: must be " + MIN_TILE_SIZE + ".."
                + MAX_TILE_SIZE + " pixels, got " + tileSize);
        int minZoom = raw.zoom() == null || raw.zoom().min() == null ? 0 : raw.zoom().min();
        int maxZoom = raw.zoom() == null || raw.zoom().max() == null ? 18 : raw.zoom().max();
        check(minZoom >= 0 && minZoom <= maxZoom && maxZoom <= TileMatrixSet.MAX_ZOOM, at, "zoom: need 0 <= min <= "
                + "max <= " + TileMatrixSet.MAX_ZOOM + ", got " + minZoom + ".." + maxZoom);
        TileMatrixSet grid = raw.tileMatrixSet() == null ? null : TileMatrixSet.byId(raw.tileMatrixSet())
                .orElseThrow(() -> new LayerConfigException(at + ".tileMatrixSet: unknown '" + raw.tileMatrixSet()
                        + "'; the upstream's grid is a well-known set (WebMercatorQuad, WorldCRS84Quad, ...) or one "
                        + "of tileMatrixSetFiles"));
        Calls calls = calls(raw, at);
        return new TileSourceConfig(template, tileSize, minZoom, maxZoom, calls.empty(), calls.resampling(),
                calls.connectTimeout(), calls.timeout(), calls.retries(), calls.retryDelay(), Map.of(), grid);
    }

    /**
     * The source of a {@code wmts} layer: {@code url} (its capabilities), {@code layer} (required), {@code style},
     * {@code format}, {@code tileMatrixSet}, and the keys of a tile source but {@code tileSize} and {@code zoom}
     * (the capabilities give them).
     */
    static WmtsSourceConfig parseWmts(LayerCatalogFile.RawSource raw, String at) {
        java.util.Map<String, Object> others = new java.util.LinkedHashMap<>();
        others.put("data", raw.data());
        others.put("version", raw.version());
        others.put("layers", raw.layers());
        others.put("styles", raw.styles());
        others.put("transparent", raw.transparent());
        others.put("params", raw.params());
        others.put("maxSize", raw.maxSize());
        others.put("tileSize", raw.tileSize());
        others.put("zoom", raw.zoom());
        others.forEach((key, value) -> check(value == null, at, key + ": another source's key; a wmts source "
                + "takes url (its capabilities), layer, style, format, tileMatrixSet, emptyStatuses, resampling, "
                + "timeouts and retries"));
        URI url = WmsSourceFile.httpUrl(raw.url(), "the WMTS's capabilities URL", at);
        check(raw.layer() != null && !raw.layer().isBlank(), at, "layer: required, the WMTS layer's identifier");
        Calls calls = calls(raw, at);
        return new WmtsSourceConfig(url, raw.layer(), raw.style(), raw.format(), raw.tileMatrixSet(), calls.empty(),
                calls.resampling(), calls.connectTimeout(), calls.timeout(), calls.retries(), calls.retryDelay());
    }

    /** How an upstream of tiles is called, and what its answers mean. */
    private record Calls(Set<Integer> empty, TileSourceConfig.Resampling resampling, Duration connectTimeout,
                         Duration timeout, int retries, Duration retryDelay) {
    }

    private static Calls calls(LayerCatalogFile.RawSource raw, String at) {
        Set<Integer> empty = new LinkedHashSet<>(Objects.requireNonNullElse(raw.emptyStatuses(), List.of(204, 404)));
        for (Integer status : empty) {
            check(status != null && status >= 200 && status <= 599 && status != 200, at, "emptyStatuses: " + status
                    + " is not an HTTP status other than 200");
        }
        TileSourceConfig.Resampling resampling = TileSourceConfig.Resampling.BILINEAR;
        if (raw.resampling() != null) {
            try {
                resampling = TileSourceConfig.Resampling.valueOf(raw.resampling().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new LayerConfigException(at + ".resampling: '" + raw.resampling() + "' is not nearest or "
                        + "bilinear");
            }
        }
        return new Calls(empty, resampling,
                WmsSourceFile.duration(raw.connectTimeout(), Duration.ofSeconds(5), at + ".connectTimeout"),
                WmsSourceFile.duration(raw.timeout(), Duration.ofSeconds(60), at + ".timeout"),
                WmsSourceFile.retries(raw.retries(), at),
                WmsSourceFile.duration(raw.retryDelay(), Duration.ofMillis(500), at + ".retryDelay"));
    }

}
