package io.tileseeder.area;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.grid.WebMercator;
import java.util.ArrayList;
import java.util.List;
import org.locationtech.jts.densify.Densifier;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.CoordinateSequenceFilter;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;

/**
 * CRS84 geometries into a tile matrix set's CRS, vertex by vertex ({@link TileMatrixSet#project}).
 *
 * <p>First the geometry is cut to the part of the world the set covers: ±85.0511° of latitude for WebMercatorQuad,
 * the CRS84 envelope of its extent ({@link TileMatrixSet#crs84Bounds}) for the sets other than the two built-in
 * ones. Those may bend straight lines of longitude and latitude, so their edges are densified first, to a vertex
 * every {@value #DENSIFY_DEGREES}°, and a part with a vertex the CRS cannot take (the far side of a polar projection)
 * is left out.
 */
public final class Projection {

    /** The longest edge, in degrees, projected as a straight line into a CRS that bends lines. */
    static final double DENSIFY_DEGREES = 0.5;

    private Projection() {
    }

    /** A projected copy of {@code crs84}, cut to what the set covers; empty if nothing of it is. */
    public static Geometry project(Geometry crs84, TileMatrixSet tms) {
        if (tms == TileMatrixSet.WORLD_CRS84_QUAD) {
            return crs84.copy();
        }
        boolean builtIn = tms == TileMatrixSet.WEB_MERCATOR_QUAD;
        Bounds area = builtIn ? new Bounds(-180, -WebMercator.MAX_LATITUDE, 180, WebMercator.MAX_LATITUDE)
                : tms.crs84Bounds();
        Geometry clipped = crs84;
        if (!new Envelope(area.minX(), area.maxX(), area.minY(), area.maxY()).contains(crs84.getEnvelopeInternal())) {
            clipped = crs84.intersection(crs84.getFactory().toGeometry(
                    new Envelope(area.minX(), area.maxX(), area.minY(), area.maxY())));
        }
        if (builtIn) {
            return projected(clipped, tms);
        }
        Geometry dense = Densifier.densify(clipped, DENSIFY_DEGREES);
        List<Geometry> parts = new ArrayList<>();
        for (int i = 0; i < dense.getNumGeometries(); i++) {
            Geometry part = projected(dense.getGeometryN(i), tms);
            if (!part.isEmpty() && Double.isFinite(part.getEnvelopeInternal().getWidth())
                    && !hasNaN(part)) {
                parts.add(part);
            }
        }
        return parts.size() == dense.getNumGeometries() && parts.size() == 1 ? parts.getFirst()
                : crs84.getFactory().buildGeometry(parts);
    }

    private static Geometry projected(Geometry crs84, TileMatrixSet tms) {
        Geometry projected = crs84.copy();
        projected.apply(new Filter(tms));
        projected.geometryChanged();
        return projected;
    }

    private static boolean hasNaN(Geometry geometry) {
        for (Coordinate c : geometry.getCoordinates()) {
            if (Double.isNaN(c.x) || Double.isNaN(c.y)) {
                return true;
            }
        }
        return false;
    }

    private record Filter(TileMatrixSet tms) implements CoordinateSequenceFilter {

        @Override
        public void filter(CoordinateSequence sequence, int i) {
            double[] xy = tms.project(sequence.getX(i), sequence.getY(i));
            sequence.setOrdinate(i, Coordinate.X, xy[0]);
            sequence.setOrdinate(i, Coordinate.Y, xy[1]);
        }

        @Override
        public boolean isDone() {
            return false;
        }

        @Override
        public boolean isGeometryChanged() {
            return true;
        }
    }
}
