package io.tileseeder.grid;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

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
    /** The deepest zoom level a layer or a job may reach (matrix sizes and tile counts stay within int/long). */
    public static final int MAX_ZOOM = 24;
    /**
     * The most matrices a set may have: more than a zoom range reaches, for a set defined so (CanadianNAD83_LCC has
     * 26); those past {@link #MAX_ZOOM} are never seeded.
     */
    public static final int MAX_MATRICES = 30;

    /** What an identifier may hold: it is a path segment of the cache and a WMTS identifier. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    public static final TileMatrixSet WEB_MERCATOR_QUAD = quad("WebMercatorQuad", Crs.known(3857, false),
            new Bounds(-WebMercator.HALF_WORLD, -WebMercator.HALF_WORLD, WebMercator.HALF_WORLD, WebMercator.HALF_WORLD),
            1, 1, TILE_SIZE, MAX_ZOOM + 1);
    public static final TileMatrixSet WORLD_CRS84_QUAD = quad("WorldCRS84Quad", Crs.CRS84, Bounds.WORLD_CRS84, 2, 1,
            TILE_SIZE, MAX_ZOOM + 1);

    private static final List<TileMatrixSet> BUILT_IN = List.of(WEB_MERCATOR_QUAD, WORLD_CRS84_QUAD);
    /** Sets added by layer files, by id. */
    private static final Map<String, TileMatrixSet> REGISTERED = new ConcurrentHashMap<>();

    private static final int MIN_TILE_SIZE = 16;
    private static final int MAX_TILE_SIZE = 4096;
    private static final int MAX_MATRIX_SIZE = 1 << 25;
    /** Points per side sampled when an envelope is projected into a CRS that bends straight lines. */
    private static final int ENVELOPE_SAMPLES = 33;
    /** Segments per edge sampled when an envelope is projected: the edges are where its extremes usually lie. */
    private static final int EDGE_SAMPLES = 256;

    /**
     * Tolerance, in tiles, for a bbox edge that lies on a tile edge up to floating-point error. Projection
     * round-off reaches ~1e-8 tiles at zoom 24; a millionth of a tile is 2.4 µm there.
     */
    private static final double EDGE_EPSILON = 1e-6;

    private final String id;
    private final Crs crs;
    private final List<TileMatrix> matrices;
    private final Bounds extent;
    /** {@link #crs84Bounds}, computed on first use: a thousand inverse transforms. */
    private volatile Bounds crs84Bounds;
    /** The last bbox {@link #projectedEnvelope} projected, and its envelope: plans ask again for each zoom level. */
    private volatile Projected lastProjected;

    private record Projected(Bounds crs84, Bounds envelope) {
    }

    private TileMatrixSet(String id, Crs crs, List<TileMatrix> matrices) {
        this.id = id;
        this.crs = crs;
        this.matrices = List.copyOf(matrices);
        double[] common = {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
                Double.POSITIVE_INFINITY};
        for (TileMatrix matrix : matrices) {
            Bounds b = matrix.bounds();
            common = new double[] {Math.max(common[0], b.minX()), Math.max(common[1], b.minY()),
                    Math.min(common[2], b.maxX()), Math.min(common[3], b.maxY())};
        }
        if (!(common[0] < common[2] && common[1] < common[3])) {
            throw new IllegalArgumentException("tile matrix set " + id + ": its matrices cover no common area");
        }
        this.extent = new Bounds(common[0], common[1], common[2], common[3]);
    }

    /**
     * A tile matrix set from its parts, checked: an identifier a path can hold, 1 to {@value #MAX_MATRICES}
     * matrices with distinct identifiers, square tiles of 16 to 4096 px, cell sizes decreasing from one matrix to
     * the next, and matrices of at most 2^25 tiles a side.
     *
     * @throws IllegalArgumentException naming the set and the matrix that is wrong
     */
    public static TileMatrixSet of(String id, Crs crs, List<TileMatrix> matrices) {
        if (id == null || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("tile matrix set id '" + id + "' must be 1 to 64 letters, digits, "
                    + "'_', '.' or '-', starting with a letter or digit");
        }
        if (matrices.isEmpty() || matrices.size() > MAX_MATRICES) {
            throw new IllegalArgumentException("tile matrix set " + id + ": need 1 to " + MAX_MATRICES
                    + " tile matrices, got " + matrices.size());
        }
        Set<String> ids = new HashSet<>();
        TileMatrix previous = null;
        for (TileMatrix matrix : matrices) {
            String at = "tile matrix set " + id + ", matrix " + matrix.id() + ": ";
            if (!ids.add(matrix.id())) {
                throw new IllegalArgumentException(at + "the id is used twice");
            }
            if (matrix.tileWidth() != matrix.tileHeight()) {
                throw new IllegalArgumentException(at + "tiles must be square, got " + matrix.tileWidth() + "x"
                        + matrix.tileHeight() + " px");
            }
            if (matrix.tileWidth() < MIN_TILE_SIZE || matrix.tileWidth() > MAX_TILE_SIZE) {
                throw new IllegalArgumentException(at + "tiles must be " + MIN_TILE_SIZE + " to " + MAX_TILE_SIZE
                        + " px, got " + matrix.tileWidth());
            }
            if (matrix.matrixWidth() > MAX_MATRIX_SIZE || matrix.matrixHeight() > MAX_MATRIX_SIZE) {
                throw new IllegalArgumentException(at + "at most " + MAX_MATRIX_SIZE + " tiles a side, got "
                        + matrix.matrixWidth() + "x" + matrix.matrixHeight());
            }
            if (previous != null && !(matrix.cellSize() < previous.cellSize())) {
                throw new IllegalArgumentException(at + "the cell size " + matrix.cellSize() + " is not smaller "
                        + "than the previous matrix's " + previous.cellSize() + "; matrices go from coarse to fine");
            }
            previous = matrix;
        }
        return new TileMatrixSet(id, crs, matrices);
    }

    /**
     * A quad set over {@code bounds}: {@code width0 × height0} tiles of {@code tileSize} px in its first matrix, each
     * next matrix doubling the matrix, {@code levels} matrices in all, identified {@code 0, 1, …}.
     */
    public static TileMatrixSet quad(String id, Crs crs, Bounds bounds, int width0, int height0, int tileSize,
                                     int levels) {
        List<TileMatrix> matrices = new ArrayList<>();
        for (int z = 0; z < levels; z++) {
            int width = width0 << z;
            double cellSize = bounds.width() / width / tileSize;
            matrices.add(new TileMatrix(Integer.toString(z), cellSize, bounds.minX(), bounds.maxY(), tileSize,
                    tileSize, width, height0 << z));
        }
        return of(id, crs, matrices);
    }

    /** The identifier the OGC standard gives it, e.g. {@code WebMercatorQuad}. */
    public String id() {
        return id;
    }

    /** {@code EPSG:n} or {@code OGC:CRS84}. */
    public String crs() {
        return crs.code();
    }

    public Crs referenceSystem() {
        return crs;
    }

    /** The tile matrices, coarse to fine: the matrix of zoom {@code z} at position {@code z}. */
    public List<TileMatrix> matrices() {
        return matrices;
    }

    /**
     * The extent of the set in CRS units: what the tiles of every matrix cover. Quad sets' matrices all cover the
     * same; a set with a free list of resolutions covers its bounding box with a ragged edge of tiles that differs from
     * one matrix to the next.
     */
    public Bounds crsBounds() {
        return extent;
    }

    /** The sets a layer offers unless its layer file says otherwise, in the order the product lists them. */
    public static List<TileMatrixSet> builtIn() {
        return BUILT_IN;
    }

    /** The well-known sets of the OGC registry this product has ({@link WellKnownTileMatrixSets}). */
    public static List<TileMatrixSet> wellKnown() {
        return WellKnownTileMatrixSets.all();
    }

    /** A well-known set of the OGC registry, or a set a layer file {@link #register registered}. */
    public static Optional<TileMatrixSet> byId(String id) {
        return WellKnownTileMatrixSets.byId(id).or(() -> Optional.ofNullable(REGISTERED.get(id)));
    }

    /**
     * Makes a layer file's own set known to {@link #byId} in this process (workers and coordinators read the same
     * layer files, so each knows the sets its tasks name).
     *
     * @return the set registered under its id: {@code set} or an equal one registered before
     * @throws IllegalArgumentException if the id is a well-known set's, or another definition holds it
     */
    public static TileMatrixSet register(TileMatrixSet set) {
        if (WellKnownTileMatrixSets.byId(set.id).isPresent()) {
            throw new IllegalArgumentException("tile matrix set " + set.id + " is a well-known set of the OGC "
                    + "registry; give your own set another id");
        }
        TileMatrixSet known = REGISTERED.putIfAbsent(set.id, set);
        if (known != null && !known.sameDefinition(set)) {
            throw new IllegalArgumentException("tile matrix set " + set.id + " is defined twice, differently");
        }
        return known == null ? set : known;
    }

    private boolean sameDefinition(TileMatrixSet other) {
        return crs.equals(other.crs) && matrices.equals(other.matrices);
    }

    /**
     * Whether each matrix is the previous one split in four: same corner, twice the width and height in tiles of the
     * same pixel size, half the cell size. Coverage and tile-list plans walk such a quadtree.
     */
    public boolean isQuad() {
        for (int z = 1; z < matrices.size(); z++) {
            TileMatrix parent = matrices.get(z - 1);
            TileMatrix child = matrices.get(z);
            if (child.matrixWidth() != 2 * parent.matrixWidth() || child.matrixHeight() != 2 * parent.matrixHeight()
                    || child.tileWidth() != parent.tileWidth() || child.cellSize() != parent.cellSize() / 2
                    || child.left() != parent.left() || child.top() != parent.top()) {
                return false;
            }
        }
        return true;
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
        return tileRangeOf(projectedEnvelope(crs84), z);
    }

    /**
     * The tiles of zoom {@code z} that intersect an envelope in this set's CRS, clamped to the matrix, with the same
     * edge rules as {@link #tileRange}.
     */
    public TileRange tileRangeOf(Bounds envelope, int z) {
        TileMatrix matrix = matrix(z);
        double col0 = (envelope.minX() - matrix.left()) / matrix.tileSpanX();
        double col1 = (envelope.maxX() - matrix.left()) / matrix.tileSpanX();
        double row0 = (matrix.top() - envelope.maxY()) / matrix.tileSpanY();
        double row1 = (matrix.top() - envelope.minY()) / matrix.tileSpanY();
        int maxCol = matrix.matrixWidth() - 1;
        int maxRow = matrix.matrixHeight() - 1;
        int minX = clamp((int) Math.floor(col0 + EDGE_EPSILON), maxCol);
        int minY = clamp((int) Math.floor(row0 + EDGE_EPSILON), maxRow);
        int maxX = Math.max(minX, clamp((int) Math.ceil(col1 - EDGE_EPSILON) - 1, maxCol));
        int maxY = Math.max(minY, clamp((int) Math.ceil(row1 - EDGE_EPSILON) - 1, maxRow));
        return new TileRange(z, minX, minY, maxX, maxY);
    }

    /**
     * The envelope, in this set's CRS, of a CRS84 bbox. The two built-in sets map straight lines of longitude and
     * latitude to straight lines, so the corners give it exactly; any other CRS may bend them, so the bbox is
     * sampled on a {@value #ENVELOPE_SAMPLES}² grid (a pole or a projection's centre inside the bbox is among the
     * points) and at {@value #EDGE_SAMPLES} segments along each edge, and the envelope grown by a thousandth of its
     * size, so that it holds the bbox's curved edges. Points the CRS cannot take are left out. The last bbox's
     * envelope is kept: a plan asks for it once per zoom level.
     *
     * @throws IllegalArgumentException if no point of the bbox has a place in this CRS
     */
    public Bounds projectedEnvelope(Bounds crs84) {
        if (this == WEB_MERCATOR_QUAD || this == WORLD_CRS84_QUAD) {
            double[] lowerLeft = project(crs84.minX(), crs84.minY());
            double[] upperRight = project(crs84.maxX(), crs84.maxY());
            return new Bounds(lowerLeft[0], lowerLeft[1], upperRight[0], upperRight[1]);
        }
        Projected last = lastProjected;
        if (last != null && last.crs84().equals(crs84)) {
            return last.envelope();
        }
        double[] envelope = {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                Double.NEGATIVE_INFINITY};
        int steps = ENVELOPE_SAMPLES - 1;
        for (int i = 0; i <= steps; i++) {
            for (int j = 0; j <= steps; j++) {
                include(envelope, crs84.minX() + crs84.width() * i / steps, crs84.minY() + crs84.height() * j / steps);
            }
        }
        for (int i = 0; i <= EDGE_SAMPLES; i++) {
            double lon = crs84.minX() + crs84.width() * i / EDGE_SAMPLES;
            double lat = crs84.minY() + crs84.height() * i / EDGE_SAMPLES;
            include(envelope, lon, crs84.minY());
            include(envelope, lon, crs84.maxY());
            include(envelope, crs84.minX(), lat);
            include(envelope, crs84.maxX(), lat);
        }
        double minX = envelope[0];
        double minY = envelope[1];
        double maxX = envelope[2];
        double maxY = envelope[3];
        if (minX > maxX) {
            throw new IllegalArgumentException("the bbox " + crs84 + " has no point in " + crs + " of " + id);
        }
        double slackX = (maxX - minX) * 1e-3;
        double slackY = (maxY - minY) * 1e-3;
        Bounds projected = new Bounds(minX - slackX, minY - slackY, maxX + slackX, maxY + slackY);
        lastProjected = new Projected(crs84, projected);
        return projected;
    }

    private void include(double[] envelope, double lon, double lat) {
        double[] xy = project(lon, lat);
        if (!Double.isNaN(xy[0])) {
            envelope[0] = Math.min(envelope[0], xy[0]);
            envelope[1] = Math.min(envelope[1], xy[1]);
            envelope[2] = Math.max(envelope[2], xy[0]);
            envelope[3] = Math.max(envelope[3], xy[1]);
        }
    }

    /**
     * Whether some of a CRS84 bbox lies in the set's extent: a point sampled in the bbox (as {@link #projectedEnvelope}
     * samples it) projects into the extent, or a point sampled in the extent has its CRS84 place in the bbox. (The
     * envelope alone cannot tell: the far side of the globe from an azimuthal projection's centre projects to a ring
     * around everything else.) The two built-in sets take every bbox, as they always have.
     */
    public boolean overlaps(Bounds crs84) {
        if (this == WEB_MERCATOR_QUAD || this == WORLD_CRS84_QUAD) {
            return true;
        }
        int steps = ENVELOPE_SAMPLES - 1;
        for (int i = 0; i <= steps; i++) {
            for (int j = 0; j <= steps; j++) {
                double[] xy = project(crs84.minX() + crs84.width() * i / steps,
                        crs84.minY() + crs84.height() * j / steps);
                if (!Double.isNaN(xy[0]) && extent.minX() <= xy[0] && xy[0] <= extent.maxX()
                        && extent.minY() <= xy[1] && xy[1] <= extent.maxY()) {
                    return true;
                }
                double[] lonLat = crs.toCrs84(extent.minX() + extent.width() * i / steps,
                        extent.minY() + extent.height() * j / steps);
                if (!Double.isNaN(lonLat[0]) && crs84.minX() <= lonLat[0] && lonLat[0] <= crs84.maxX()
                        && crs84.minY() <= lonLat[1] && lonLat[1] <= crs84.maxY()) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The CRS84 envelope of this set's {@link #crsBounds extent}: the extent sampled on a {@value #ENVELOPE_SAMPLES}²
     * grid and transformed, clamped to the world; what WMTS capabilities give as a layer's {@code WGS84BoundingBox},
     * and what geometry is cut to before it is projected. Computed once.
     */
    public Bounds crs84Bounds() {
        Bounds known = crs84Bounds;
        if (known == null) {
            known = computeCrs84Bounds();
            crs84Bounds = known;
        }
        return known;
    }

    private Bounds computeCrs84Bounds() {
        if (this == WEB_MERCATOR_QUAD) {
            return new Bounds(-180, -WebMercator.MAX_LATITUDE, 180, WebMercator.MAX_LATITUDE);
        }
        if (this == WORLD_CRS84_QUAD) {
            return Bounds.WORLD_CRS84;
        }
        return crs84Envelope(extent);
    }

    /**
     * The CRS84 envelope of {@code area}, a rectangle in this set's CRS (easting and northing), sampled on a
     * {@value #ENVELOPE_SAMPLES}² grid and transformed, clamped to the world; the world if no point has a place.
     */
    public Bounds crs84Envelope(Bounds area) {
        if (crs == Crs.CRS84) {
            return area;
        }
        double minLon = 180;
        double minLat = 90;
        double maxLon = -180;
        double maxLat = -90;
        int steps = ENVELOPE_SAMPLES - 1;
        for (int i = 0; i <= steps; i++) {
            for (int j = 0; j <= steps; j++) {
                double[] lonLat = crs.toCrs84(area.minX() + area.width() * i / steps,
                        area.minY() + area.height() * j / steps);
                if (Double.isNaN(lonLat[0])) {
                    continue;
                }
                minLon = Math.min(minLon, lonLat[0]);
                minLat = Math.min(minLat, lonLat[1]);
                maxLon = Math.max(maxLon, lonLat[0]);
                maxLat = Math.max(maxLat, lonLat[1]);
            }
        }
        return minLon > maxLon ? Bounds.WORLD_CRS84 : new Bounds(Math.max(-180, minLon), Math.max(-90, minLat),
                Math.min(180, maxLon), Math.min(90, maxLat));
    }

    /**
     * CRS84 longitude/latitude to this matrix set's CRS, as {easting, northing}; {NaN, NaN} where the CRS has no
     * such point.
     */
    public double[] project(double lon, double lat) {
        if (this == WEB_MERCATOR_QUAD) {
            return WebMercator.project(lon, lat);
        }
        return crs == Crs.CRS84 ? new double[] {lon, lat} : crs.fromCrs84(lon, lat);
    }

    private static int clamp(int value, int max) {
        return Math.max(0, Math.min(max, value));
    }

    @Override
    public String toString() {
        return id;
    }
}
