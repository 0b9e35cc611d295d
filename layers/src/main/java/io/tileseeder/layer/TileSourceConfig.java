package io.tileseeder.layer;

import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.DimensionValues;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code tile} source: the tiles of an upstream tile server (an XYZ or TMS URL template), in the grid of a tile
 * matrix set ({@code grid}, by default the layer's own): its level {@code z} covers what the set's matrix {@code z}
 * covers, in tiles of {@code tileSize} pixels. A metatile is drawn from the upstream tiles of the coarsest level at least as fine as it,
 * within {@code minZoom..maxZoom} (past {@code maxZoom}, the deepest level's tiles are enlarged: overzoom).
 *
 * @param template      the tile URL, with {@code {z}}, {@code {x}} and {@code {y}} (row 0 at the top) or
 *                      {@code {-y}} (row 0 at the bottom, TMS), or {@code {quadkey}}; and {@code {NAME}} for each of
 *                      the layer's dimensions
 * @param tileSize      the upstream's tiles' width and height, in pixels
 * @param minZoom       the upstream's first level
 * @param maxZoom       the upstream's last level
 * @param emptyStatuses HTTP statuses that mean "no tile here": drawn transparent, not a failure
 * @param resampling    how upstream pixels are drawn at another resolution than their own
 * @param matrixIds     for a WMTS's template ({@code {TileMatrix}}, {@code {TileRow}}, {@code {TileCol}}): the
 *                      identifier of its tile matrix at each level; empty for a template of levels
 * @param grid          the upstream's tile matrix set, when it is not the layer's: its tiles are resampled, and
 *                      warped from another CRS; null for the layer's own
 */
public record TileSourceConfig(String template, int tileSize, int minZoom, int maxZoom, Set<Integer> emptyStatuses,
                               Resampling resampling, Duration connectTimeout, Duration timeout, int retries,
                               Duration retryDelay, Map<Integer, String> matrixIds, TileMatrixSet grid)
        implements SourceConfig, HttpSource {

    /** How upstream pixels are drawn at another resolution (Java2D's interpolation). */
    public enum Resampling {
        /** Each pixel takes the nearest upstream pixel's value: crisp, blocky when enlarged. */
        NEAREST,
        /** Each pixel is interpolated from the four nearest upstream pixels. */
        BILINEAR
    }

    private static final Pattern VARIABLE = Pattern.compile("\\{(-?[A-Za-z_][A-Za-z0-9_]*)}");

    public TileSourceConfig {
        emptyStatuses = Set.copyOf(emptyStatuses);
        matrixIds = Map.copyOf(matrixIds);
    }

    /** A tile server's source in the layer's own grid: its template names levels ({@code {z}}). */
    public TileSourceConfig(String template, int tileSize, int minZoom, int maxZoom, Set<Integer> emptyStatuses,
                            Resampling resampling, Duration connectTimeout, Duration timeout, int retries,
                            Duration retryDelay) {
        this(template, tileSize, minZoom, maxZoom, emptyStatuses, resampling, connectTimeout, timeout, retries,
                retryDelay, Map.of(), null);
    }

    /** The host and port of the template's URLs, its variables left out (a dimension's value may hold anything). */
    @Override
    public String upstream() {
        return HttpSource.upstreamOf(URI.create(VARIABLE.matcher(template).replaceAll("0")));
    }

    /**
     * The URL of the upstream tile at level {@code z}, column {@code x} and row {@code y} (from the top) of a matrix
     * {@code height} rows high, in the cache of the given dimension values (each value percent-encoded as the
     * seeder's own cache folders are, {@link DimensionValues#folder}).
     */
    public String url(int z, int x, int y, int height, DimensionValues dimensions) {
        Matcher variables = VARIABLE.matcher(template);
        StringBuilder url = new StringBuilder();
        while (variables.find()) {
            String name = variables.group(1);
            String value = switch (name) {
                case "z" -> Integer.toString(z);
                case "x", "TileCol" -> Integer.toString(x);
                case "y", "TileRow" -> Integer.toString(y);
                case "TileMatrix" -> matrixIds.getOrDefault(z, Integer.toString(z));
                case "-y" -> Integer.toString(height - 1 - y);
                case "quadkey" -> quadkey(z, x, y);
                default -> dimensions.values().entrySet().stream().filter(e -> e.getKey().equals(name))
                        .map(e -> DimensionValues.folder(e.getValue())).findFirst().orElse(variables.group());
            };
            variables.appendReplacement(url, Matcher.quoteReplacement(value));
        }
        variables.appendTail(url);
        return url.toString();
    }

    /** The variables of a template: {@code z}, {@code -y}, {@code TIME}, ... */
    static Set<String> variables(String template) {
        Set<String> names = new java.util.LinkedHashSet<>();
        Matcher variables = VARIABLE.matcher(template);
        while (variables.find()) {
            names.add(variables.group(1));
        }
        return names;
    }

    /** Bing's quadkey of a tile: a digit per level, from the top, 0..3 for the quadrant. */
    static String quadkey(int z, int x, int y) {
        StringBuilder key = new StringBuilder(z);
        for (int level = z; level > 0; level--) {
            int mask = 1 << (level - 1);
            key.append((char) ('0' + ((x & mask) != 0 ? 1 : 0) + ((y & mask) != 0 ? 2 : 0)));
        }
        return key.toString();
    }
}
