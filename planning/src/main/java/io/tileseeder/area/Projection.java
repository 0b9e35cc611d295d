package io.tileseeder.area;

import io.tileseeder.grid.TileMatrixSet;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.CoordinateSequenceFilter;
import org.locationtech.jts.geom.Geometry;

/** CRS84 geometries into a tile matrix set's CRS, vertex by vertex ({@link TileMatrixSet#project}). */
public final class Projection {

    private Projection() {
    }

    /** A projected copy of {@code crs84}. */
    public static Geometry project(Geometry crs84, TileMatrixSet tms) {
        Geometry projected = crs84.copy();
        projected.apply(new Filter(tms));
        projected.geometryChanged();
        return projected;
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
