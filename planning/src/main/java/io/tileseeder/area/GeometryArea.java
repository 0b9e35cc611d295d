package io.tileseeder.area;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.grid.TileRange;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.prep.PreparedGeometry;
import org.locationtech.jts.geom.prep.PreparedGeometryFactory;
import org.locationtech.jts.geom.util.GeometryFixer;
import org.locationtech.jts.operation.union.UnaryUnionOp;

/**
 * The tiles whose interior a polygonal geometry overlaps. The geometry, in CRS84, is projected vertex by vertex into
 * the tile matrix set's CRS once (as MapProxy and GeoWebCache transform a coverage), and prepared (JTS), so that each
 * test of a cell's rectangle costs an indexed lookup, not a walk over every vertex.
 *
 * <p>A tile that only touches the geometry along an edge or at a corner is not in the area, the rule
 * {@link TileMatrixSet#tileRange} applies to a bbox: each rectangle is tested shrunk by a millionth of its side.
 */
public final class GeometryArea implements Area {

    private static final double SHRINK = 1e-6;

    private final TileMatrixSet tileMatrixSet;
    private final PreparedGeometry geometry;
    private final GeometryFactory factory;

    /**
     * @param crs84 a valid polygonal geometry in CRS84 longitudes and latitudes; what lies beyond the set's extent
     *              is cut off first ({@link Projection}), as no tile holds it
     */
    public GeometryArea(TileMatrixSet tileMatrixSet, Geometry crs84) {
        this(tileMatrixSet, PreparedGeometryFactory.prepare(valid(Projection.project(crs84, tileMatrixSet))));
    }

    /** @param geometry in the set's CRS */
    private GeometryArea(TileMatrixSet tileMatrixSet, PreparedGeometry geometry) {
        this.tileMatrixSet = tileMatrixSet;
        this.factory = geometry.getGeometry().getFactory();
        this.geometry = geometry;
    }

    /**
     * The tiles whose interior overlaps one of {@code tiles}: on a set that is not a quadtree, a listed tile's
     * ancestors and descendants are the tiles of the other matrices that overlap it (a matrix's tiles need not nest
     * in the previous one's), and on its own matrix it is the only one.
     */
    public static GeometryArea ofTiles(TileMatrixSet tileMatrixSet, Collection<TileCoord> tiles) {
        GeometryFactory factory = new GeometryFactory();
        List<Geometry> rectangles = new ArrayList<>(tiles.size());
        for (TileCoord tile : tiles) {
            Bounds b = tileMatrixSet.tileBounds(tile);
            rectangles.add(factory.toGeometry(new Envelope(b.minX(), b.maxX(), b.minY(), b.maxY())));
        }
        return new GeometryArea(tileMatrixSet, PreparedGeometryFactory.prepare(UnaryUnionOp.union(rectangles,
                factory)));
    }

    /** Straightened between projected vertices, two edges that passed close by may touch or cross: fixed then. */
    private static Geometry valid(Geometry projected) {
        return projected.isValid() ? projected : GeometryFixer.fix(projected);
    }

    @Override
    public Overlap overlap(int z, int x, int y) {
        return overlap(new TileRange(z, x, y, x, y));
    }

    /** How the rectangle of a range of tiles relates to the geometry, with the same edge rule as a single tile's. */
    public Overlap overlap(TileRange range) {
        Bounds cell = tileMatrixSet.rangeBounds(range);
        double dx = tileMatrixSet.matrix(range.z()).tileSpanX() * SHRINK;
        double dy = tileMatrixSet.matrix(range.z()).tileSpanY() * SHRINK;
        Geometry rectangle = factory.toGeometry(
                new Envelope(cell.minX() + dx, cell.maxX() - dx, cell.minY() + dy, cell.maxY() - dy));
        if (!geometry.intersects(rectangle)) {
            return Overlap.OUTSIDE;
        }
        return geometry.contains(rectangle) ? Overlap.INSIDE : Overlap.PARTIAL;
    }
}
