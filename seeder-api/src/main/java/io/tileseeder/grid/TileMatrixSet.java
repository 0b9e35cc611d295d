package io.tileseeder.grid;

import java.util.Arrays;
import java.util.Optional;

/**
 * The two tile matrix sets of the OGC Two Dimensional Tile Matrix Set standard (OGC 17-083r4, annex D) that
 * web maps use: 256 px tiles, the origin at the top-left corner, each zoom level doubling the matrix.
 *
 * <ul>
 *   <li>{@link #WEB_MERCATOR_QUAD}: EPSG:3857, one tile at zoom 0 covering ±20 037 508.34 m (the world up to
 *       ±85.0511° latitude).</li>
 *   <li>{@link #WORLD_CRS84_QUAD}: CRS84 longitude/latitude, two tiles (2×1) at zoom 0 covering the world.</li>
 * </ul>
 */
public enum TileMatrixSet {
    WEB_MERCATOR_QUAD("WebMercatorQuad", "EPSG:3857",
            new Bounds(-WebMercator.HALF_WORLD, -WebMercator.HALF_WORLD, WebMercator.HALF_WORLD, WebMercator.HALF_WORLD),
            1, 1),
    WORLD_CRS84_QUAD("WorldCRS84Quad", "OGC:CRS84", Bounds.WORLD_CRS84, 2, 1);

    /** Tile width and height in pixels. */
    public static final int TILE_SIZE = 256;
    /** The deepest zoom level supported (matrix sizes and tile counts stay within int/long). */
    public static final int MAX_ZOOM = 24;

    /**
     * Tolerance, in tiles, for a bbox edge that lies on a tile edge up to floating-point error. Projection
     * round-off reaches ~1e-8 tiles at zoom 24; a millionth of a tile is 2.4 µm there.
     */
    private static final double EDGE_EPSILON = 1e-6;

    private final String id;
    private final String crs;
    private final Bounds crsBounds;
    private final int matrixWidth0;
    private final int matrixHeight0;

    TileMatrixSet(String id, String crs, Bounds crsBounds, int matrixWidth0, int matrixHeight0) {
        this.id = id;
        this.crs = crs;
        this.crsBounds = crsBounds;
        this.matrixWidth0 = matrixWidth0;
        this.matrixHeight0 = matrixHeight0;
    }

    /** The identifier the OGC standard gives it, e.g. {@code WebMercatorQuad}. */
    public String id() {
        return id;
    }

    public String crs() {
        return crs;
    }

    /** The extent of the matrix in CRS units. */
    public Bounds crsBounds() {
        return crsBounds;
    }

    public static Optional<TileMatrixSet> byId(String id) {
        return Arrays.stream(values()).filter(t -> t.id.equals(id)).findFirst();
    }

    public int matrixWidth(int z) {
        checkZoom(z);
        return matrixWidth0 << z;
    }

    public int matrixHeight(int z) {
        checkZoom(z);
        return matrixHeight0 << z;
    }

    /** The width of one tile in CRS units at zoom {@code z}. */
    public double tileSpan(int z) {
        return crsBounds.width() / matrixWidth(z);
    }

    /** CRS units per pixel at zoom {@code z}. */
    public double resolution(int z) {
        return tileSpan(z) / TILE_SIZE;
    }

    /** Every tile of zoom {@code z}. */
    public TileRange fullRange(int z) {
        return new TileRange(z, 0, 0, matrixWidth(z) - 1, matrixHeight(z) - 1);
    }

    /** The tile's envelope in CRS units. */
    public Bounds tileBounds(TileCoord tile) {
        return rangeBounds(new TileRange(tile.z(), tile.x(), tile.y(), tile.x(), tile.y()));
    }

    /** The envelope of a range of tiles in CRS units. */
    public Bounds rangeBounds(TileRange range) {
        double span = tileSpan(range.z());
        double left = crsBounds.minX();
        double top = crsBounds.maxY();
        return new Bounds(left + range.minX() * span, top - (range.maxY() + 1) * span,
                left + (range.maxX() + 1) * span, top - range.minY() * span);
    }

    /**
     * The tiles of zoom {@code z} that intersect a CRS84 bbox. Tiles that only touch the bbox along an edge
     * are not included; a bbox of zero width or height still selects the tiles it lies in.
     */
    public TileRange tileRange(Bounds crs84, int z) {
        double[] lowerLeft = project(crs84.minX(), crs84.minY());
        double[] upperRight = project(crs84.maxX(), crs84.maxY());
        double span = tileSpan(z);
        double col0 = (lowerLeft[0] - crsBounds.minX()) / span;
        double col1 = (upperRight[0] - crsBounds.minX()) / span;
        double row0 = (crsBounds.maxY() - upperRight[1]) / span;
        double row1 = (crsBounds.maxY() - lowerLeft[1]) / span;
        int maxCol = matrixWidth(z) - 1;
        int maxRow = matrixHeight(z) - 1;
        int minX = clamp((int) Math.floor(col0 + EDGE_EPSILON), maxCol);
        int minY = clamp((int) Math.floor(row0 + EDGE_EPSILON), maxRow);
        int maxX = Math.max(minX, clamp((int) Math.ceil(col1 - EDGE_EPSILON) - 1, maxCol));
        int maxY = Math.max(minY, clamp((int) Math.ceil(row1 - EDGE_EPSILON) - 1, maxRow));
        return new TileRange(z, minX, minY, maxX, maxY);
    }

    /** CRS84 longitude/latitude to this matrix set's CRS, as {x, y}. */
    public double[] project(double lon, double lat) {
        return this == WEB_MERCATOR_QUAD ? WebMercator.project(lon, lat) : new double[] {lon, lat};
    }

    private static int clamp(int value, int max) {
        return Math.max(0, Math.min(max, value));
    }

    private static void checkZoom(int z) {
        if (z < 0 || z > MAX_ZOOM) {
            throw new IllegalArgumentException("zoom " + z + " is outside 0.." + MAX_ZOOM);
        }
    }

    @Override
    public String toString() {
        return id;
    }
}
