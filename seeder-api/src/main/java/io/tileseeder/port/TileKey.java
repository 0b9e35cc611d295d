package io.tileseeder.port;

import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.TileFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/** Names one stored tile. Its {@link #path()} is the layout every store uses below its prefix. */
public record TileKey(TileCache cache, TileCoord tile, TileFormat format) {

    /** A column or row in a name: at most 9 digits (a zoom's tiles number fewer than 2^30 a side). */
    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,9}");

    /** A tile of a layer without dimensions. */
    public TileKey(String layer, TileMatrixSet tileMatrixSet, TileCoord tile, TileFormat format) {
        this(new TileCache(layer, tileMatrixSet), tile, format);
    }

    public String layer() {
        return cache.layer();
    }

    public TileMatrixSet tileMatrixSet() {
        return cache.tileMatrixSet();
    }

    /** {@code {cache}/{z}/{x}/{y}.{ext}} ({@link TileCache#path}), row 0 at the top (XYZ). */
    public String path() {
        return cache.path() + "/" + tile.z() + "/" + tile.x() + "/" + tile.y() + "." + format.extension();
    }

    /**
     * The tile of zoom {@code z} a name below the zoom's folder stands for, {@code {x}/{y}.{ext}} in the format's
     * extension (the inverse of {@link #path}'s end), or empty for any other name.
     */
    public static Optional<TileCoord> tileOf(int z, String name, TileFormat format) {
        String suffix = "." + format.extension();
        int slash = name.indexOf('/');
        if (slash <= 0 || !name.endsWith(suffix) || slash >= name.length() - suffix.length()) {
            return Optional.empty();
        }
        String x = name.substring(0, slash);
        String y = name.substring(slash + 1, name.length() - suffix.length());
        if (!DIGITS.matcher(x).matches() || !DIGITS.matcher(y).matches()) {
            return Optional.empty();
        }
        return Optional.of(new TileCoord(z, Integer.parseInt(x), Integer.parseInt(y)));
    }
}
