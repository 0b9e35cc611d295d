package io.tileseeder.grid;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A tile matrix set as the OGC Two Dimensional Tile Matrix Set standard (OGC 17-083r4) models it: a CRS and an
 * ordered list of {@link TileMatrix tile matrices}. Zoom level {@code z} is the matrix at position {@code z}.
 *
 * <p>Built in, from annex D of the standard:
 * <ul>
 *   <li>{@link #WEB_MERCATOR_QUAD}: EPSG:3857, one tile at zoom 0 covering ±20 037 508.34 m (the world up to
 *       ±85.0511° latitude).</li>
 *   <li>{@link #WORLD_CRS84_QUAD}: CRS84 longitude/latitude, two tiles (2×1) at zoom 0 covering the world.</li>
 * </ul>
 * Both have 256 px tiles, the origin at the top-left corner, and each zoom level doubling the matrix.
 */
public final class TileMatrixSet {

    /** The tile width and height, in pixels, of the built-in sets. */
    public static final int TILE_SIZE = 256;
    /** The deepest zoom level supported (matrix sizes and tile counts stay within int/long). */
    public static final int MAX_ZOOM = 24;

    public static final TileMatrixSet WEB_MERCATOR_QUAD = quad("WebMercatorQuad", "EPSG:3857",
            new Bounds(-WebMercator.HALF_WORLD, -WebMercator.HALF_WORLD, WebMercator.HALF_WORLD, WebMercator.HALF_WORLD),
            1, 1);
    public static final TileMatrixSet WORLD_CRS84_QUAD = quad("WorldCRS84Quad", "OGC:CRS84", Bounds.WORLD_CRS84, 2, 1);

    private static final List<TileMatrixSet> BUILT_IN = List.of(WEB_MERCATOR_QUAD, WORLD_CRS84_QUAD);

    /**
     * Tolerance, in tiles, for a bbox edge that lies on a tile edge up to floating-point error. Projection
     * round-off reaches ~1e-8 tiles at zoom 24; a millionth of a tile is 2.4 µm there.
     */
    private static final double EDGE_EPSILON = 1e-6;

    private final String id;
    private final String crs;
    private final List<TileMatrix> matrices;

    private TileMatrixSet(String id, String crs, List<TileMatrix> matrices) {
        if (matrices.isEmpty() || matrices.size() > MAX_ZOOM + 1) {
            throw new IllegalArgumentException("tile matrix set " + id + ": need 1 to " + (MAX_ZOOM + 1)
                    + " matrices, got " + matrices.size());
        }
        this.id = id;
        this.crs = crs;
        this.matrices = List.copyOf(matrices);
    }

    /**
     * A quad set over {@code bounds}: {@code width0 × height0} tiles of {@value #TILE_SIZE} px at zoom 0, each zoom
     * doubling the matrix, down to {@link #MAX_ZOOM}.
     */
    private static TileMatrixSet quad(String id, String crs, Bounds bounds, int width0, int height0) {
        List<TileMatrix> matrices = new ArrayList<>();
        for (int z = 0; z <= MAX_ZOOM; z++) {
            int width = width0 << z;
            double cellSize = bounds.width() / width / TILE_SIZE;
            matrices.add(new TileMatrix(Integer.toString(z), cellSize, bounds.minX(), bounds.maxY(), TILE_SIZE,
                    TILE_SIZE, width, height0 << z));
        }
        return new TileMatrixSet(id, crs, matrices);
    }

    /** The identifier the OGC standard gives it, e.g. {@code WebMercatorQuad}. */
    public String id() {
        return id;
    }

    public String crs() {
        return crs;
    }

    /** The extent of the first matrix in CRS units. */
    public Bounds crsBounds() {
        return matrices.getFirst().bounds();
    }

    /** The sets every layer may use, in the order the product lists them. */
    public static List<TileMatrixSet> builtIn() {
        return BUILT_IN;
    }

    public static Optional<TileMatrixSet> byId(String id) {
        return BUILT_IN.stream().filter(t -> t.id.equals(id)).findFirst();
    }

    /** The deepest zoom level of this set: its last matrix. */
    public int maxZoom() {
        return matrices.size() - 1;
    }

    /** The matrix of zoom {@code z}. */
    public TileMatrix matrix(int z) {
        if (z < 0 || z >= matrices.size()) {
            throw new IllegalArgumentException("zoom " + z + " is outside 0.." + maxZoom() + " of " + id);
        }
        return matrices.get(z);
    }

    public int matrixWidth(int z) {
        return matrix(z).matrixWidth();
    }

    public int matrixHeight(int z) {
        return matrix(z).matrixHeight();
    }

    /** The width and height of a tile in pixels at zoom {@code z}. */
    public int tileSize(int z) {
        return matrix(z).tileWidth();
    }

    /** The width of one tile in CRS units at zoom {@code z}. */
    public double tileSpan(int z) {
        return matrix(z).tileSpanX();
    }

    /** CRS units per pixel at zoom {@code z}. */
    public double resolution(int z) {
        return matrix(z).cellSize();
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
        TileMatrix matrix = matrix(range.z());
        double spanX = matrix.tileSpanX();
        double spanY = matrix.tileSpanY();
        return new Bounds(matrix.left() + range.minX() * spanX, matrix.top() - (range.maxY() + 1) * spanY,
                matrix.left() + (range.maxX() + 1) * spanX, matrix.top() - range.minY() * spanY);
    }

    /**
     * The tiles of zoom {@code z} that intersect a CRS84 bbox. Tiles that only touch the bbox along an edge
     * are not included; a bbox of zero width or height still selects the tiles it lies in.
     */
    public TileRange tileRange(Bounds crs84, int z) {
        TileMatrix matrix = matrix(z);
        double[] lowerLeft = project(crs84.minX(), crs84.minY());
        double[] upperRight = project(crs84.maxX(), crs84.maxY());
        double col0 = (lowerLeft[0] - matrix.left()) / matrix.tileSpanX();
        double col1 = (upperRight[0] - matrix.left()) / matrix.tileSpanX();
        double row0 = (matrix.top() - upperRight[1]) / matrix.tileSpanY();
        double row1 = (matrix.top() - lowerLeft[1]) / matrix.tileSpanY();
        int maxCol = matrix.matrixWidth() - 1;
        int maxRow = matrix.matrixHeight() - 1;
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

    @Override
    public String toString() {
        return id;
    }
}
