package io.tileseeder.port;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrix;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.TileFormat;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * How a folder or an object store names a cache's tiles below its root: the folder of each cache and the name of each
 * tile in it, as the servers that read such caches expect them.
 *
 * <ul>
 *   <li>{@link #XYZ}: {@code {layer}/{set}/{z}/{x}/{y}.{ext}}, row 0 at the top (the default; OpenStreetMap's and
 *   TileJSON's scheme).</li>
 *   <li>{@link #TMS}: {@code {layer}/{set}/{z}/{x}/{y}.{ext}} with row 0 at the bottom, as OSGeo's Tile Map Service,
 *   gdal2tiles and MapProxy's {@code tms} layout count rows.</li>
 *   <li>{@link #WMTS}: {@code {layer}/default/{set}/{z}/{y}/{x}.{ext}}, the RESTful encoding of OGC WMTS 1.0 (07-057r7,
 *   §10) as TileCloud-chain writes it: style {@code default}, then tile matrix, row and column.</li>
 *   <li>{@link #QUADKEY}: {@code {layer}/{set}/{quadkey}.{ext}}, Bing Maps' tile names, all in the cache's folder, as
 *   MapProxy's {@code quadkey} layout keeps them; zoom 0's single tile has the empty key ({@code .png}).</li>
 * </ul>
 *
 * A layer with dimensions has a folder per value below the set's folder in every layout ({@link TileCache#path}).
 * Documents (manifest, TileJSON, capabilities) and change lists live in the cache's or the set's folder.
 */
public enum Layout {
    XYZ, TMS, WMTS, QUADKEY;

    /** The style of the WMTS layout's folders: the one style a seeded layer has. */
    public static final String WMTS_STYLE = "default";

    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,9}");
    private static final Pattern QUADKEY_DIGITS = Pattern.compile("[0-3]*");
    private static final Set<String> TILE_EXTENSIONS = Arrays.stream(TileFormat.values()).map(TileFormat::extension)
            .collect(Collectors.toUnmodifiableSet());

    /** Its name on the command line, in settings and in documents: {@code xyz}, {@code tms}, ... */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The layout a name means (any case).
     *
     * @throws IllegalArgumentException naming the layouts there are
     */
    public static Layout parse(String id) {
        String wanted = id == null ? "" : id.strip();
        return Arrays.stream(values()).filter(layout -> layout.id().equalsIgnoreCase(wanted)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown layout '" + id + "'; one of "
                        + Arrays.stream(values()).map(Layout::id).collect(Collectors.joining(", "))));
    }

    /** Why this layout cannot name the tiles of {@code set}, if it cannot. */
    public Optional<String> refuses(TileMatrixSet set) {
        if (this == QUADKEY && !(set.isQuad() && set.matrixWidth(0) == 1 && set.matrixHeight(0) == 1)) {
            return Optional.of("the quadkey layout names the tiles of a quadtree grown from one tile at zoom 0; "
                    + set.id() + " has " + set.matrixWidth(0) + " x " + set.matrixHeight(0) + " at zoom 0"
                    + (set.isQuad() ? "" : " and is no quadtree"));
        }
        if (this == TMS && !sharesOneExtent(set)) {
            return Optional.of("the tms layout counts rows from the bottom of one extent every zoom level shares; "
                    + "the zoom levels of " + set.id() + " cover different extents");
        }
        return Optional.empty();
    }

    private static boolean sharesOneExtent(TileMatrixSet set) {
        Bounds first = set.matrix(0).bounds();
        double tolerance = 1e-9 * Math.max(first.maxX() - first.minX(), first.maxY() - first.minY());
        return set.matrices().stream().map(TileMatrix::bounds).allMatch(b -> Math.abs(b.minX() - first.minX())
                <= tolerance && Math.abs(b.minY() - first.minY()) <= tolerance
                && Math.abs(b.maxX() - first.maxX()) <= tolerance && Math.abs(b.maxY() - first.maxY()) <= tolerance);
    }

    /** The folder of a cache (or, for {@link TileCache#set()}, of a set's caches) below the store's root. */
    public String folder(TileCache cache) {
        if (this != WMTS) {
            return cache.path();
        }
        String set = cache.layer() + "/" + WMTS_STYLE + "/" + cache.tileMatrixSet().id();
        return cache.dimensions().isEmpty() ? set : set + "/" + cache.dimensions().path();
    }

    /** Where the tile is below the store's root: its cache's {@link #folder} and its {@link #name}. */
    public String path(TileKey key) {
        return folder(key.cache()) + "/" + name(key.tileMatrixSet(), key.tile(), key.format());
    }

    /** The tile's name below its cache's folder. */
    public String name(TileMatrixSet set, TileCoord tile, TileFormat format) {
        String ext = "." + format.extension();
        return switch (this) {
            case XYZ -> tile.z() + "/" + tile.x() + "/" + tile.y() + ext;
            case TMS -> tile.z() + "/" + tile.x() + "/" + (set.matrixHeight(tile.z()) - 1 - tile.y()) + ext;
            case WMTS -> tile.z() + "/" + tile.y() + "/" + tile.x() + ext;
            case QUADKEY -> quadkey(tile) + ext;
        };
    }

    /**
     * The folder below a cache's that holds the tiles of zoom {@code z}, ending in {@code /}; empty for
     * {@link #QUADKEY}, whose tiles of every zoom are in the cache's own folder.
     */
    public String zoomFolder(int z) {
        return this == QUADKEY ? "" : z + "/";
    }

    /**
     * The tile of zoom {@code z} that a name below the zoom's folder ({@link #zoomFolder}) stands for, in the
     * format's extension; empty for any other name (a document, a tile of another zoom or format, a stray file).
     */
    public Optional<TileCoord> tileOf(TileMatrixSet set, int z, String name, TileFormat format) {
        String suffix = "." + format.extension();
        if (!name.endsWith(suffix)) {
            return Optional.empty();
        }
        String stem = name.substring(0, name.length() - suffix.length());
        if (this == QUADKEY) {
            return stem.length() == z && QUADKEY_DIGITS.matcher(stem).matches()
                    ? Optional.of(ofQuadkey(stem)) : Optional.empty();
        }
        int slash = stem.indexOf('/');
        if (slash <= 0) {
            return Optional.empty();
        }
        String first = stem.substring(0, slash);
        String second = stem.substring(slash + 1);
        if (!DIGITS.matcher(first).matches() || !DIGITS.matcher(second).matches()) {
            return Optional.empty();
        }
        int a = Integer.parseInt(first);
        int b = Integer.parseInt(second);
        int height = set.matrixHeight(z);
        int x = this == WMTS ? b : a;
        int y = switch (this) {
            case TMS -> height - 1 - b;
            case WMTS -> a;
            default -> b;
        };
        return x < set.matrixWidth(z) && y >= 0 && y < height ? Optional.of(new TileCoord(z, x, y)) : Optional.empty();
    }

    /**
     * Whether a name in a cache's folder is one of its tiles of zoom {@code z}, in any format: in the quadkey layout,
     * whose folder holds the tiles of every zoom (and the cache's documents), {@code z} quadkey digits and a tile
     * format's extension.
     */
    public boolean isTileOfZoom(String name, int z) {
        int dot = name.indexOf('.');
        return dot == z && TILE_EXTENSIONS.contains(name.substring(dot + 1))
                && QUADKEY_DIGITS.matcher(name.substring(0, dot)).matches();
    }

    /**
     * Whether an object or file below a cache's folder (its name relative to that folder) is a tile rather than one
     * of the cache's documents, which a truncate deletes last: anything in a folder below it, or in the quadkey
     * layout a name with a quadkey.
     */
    public boolean isTile(String relativeName) {
        int dot = relativeName.indexOf('.');
        return relativeName.indexOf('/') >= 0
                || this == QUADKEY && dot >= 0 && isTileOfZoom(relativeName, dot);
    }

    /**
     * The tile URL template below a cache's folder URL with the given variables for zoom, column and row (a TileJSON's
     * {@code {z}}, a WMTS ResourceURL's {@code {TileMatrix}}), in this layout's order; for {@link #TMS} the row
     * variable counts from the bottom (TileJSON {@code "scheme": "tms"}), for {@link #QUADKEY} the template is
     * {@code {quadkey}.{ext}}, which MapLibre and Leaflet's Bing plugins read.
     */
    public String template(TileFormat format, String z, String x, String y) {
        String ext = "." + format.extension();
        return switch (this) {
            case XYZ, TMS -> z + "/" + x + "/" + y + ext;
            case WMTS -> z + "/" + y + "/" + x + ext;
            case QUADKEY -> "{quadkey}" + ext;
        };
    }

    /** Whether a WMTS ResourceURL template (rows from the top, by zoom, column and row) can name the tiles. */
    public boolean wmtsTemplate() {
        return this == XYZ || this == WMTS;
    }

    /** Bing's key: a digit per zoom below 0, each the tile's quadrant in its parent (1 right, 2 below). */
    static String quadkey(TileCoord tile) {
        StringBuilder key = new StringBuilder(tile.z());
        for (int level = tile.z(); level > 0; level--) {
            int mask = 1 << (level - 1);
            key.append((char) ('0' + ((tile.x() & mask) != 0 ? 1 : 0) + ((tile.y() & mask) != 0 ? 2 : 0)));
        }
        return key.toString();
    }

    static TileCoord ofQuadkey(String key) {
        int x = 0;
        int y = 0;
        for (int i = 0; i < key.length(); i++) {
            int digit = key.charAt(i) - '0';
            x = (x << 1) | (digit & 1);
            y = (y << 1) | (digit >> 1);
        }
        return new TileCoord(key.length(), x, y);
    }
}
