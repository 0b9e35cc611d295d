package io.tileseeder.area;

import io.tileseeder.grid.TileLists;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.JobArea;

/**
 * A set of tiles on every zoom level of one tile matrix set, shaped like a quadtree: a tile is in the area if and
 * only if at least one of its four children is. A cell is the tile {@code (z, x, y)} seen as the block of all its
 * descendants; {@link #overlap} says how much of that block is in the area, which lets a planner skip a block
 * outside and take a block inside whole, testing tiles one by one only along the area's edge.
 */
public interface Area {

    /** How the tiles of a cell, itself and its descendants on every deeper zoom level, relate to an area. */
    enum Overlap {
        /** None of them is in the area. */
        OUTSIDE,
        /** The cell's tile is in the area, and some of its descendants are not (or may not be). */
        PARTIAL,
        /** All of them are in the area. */
        INSIDE
    }

    /** How the cell of tile {@code (z, x, y)} relates to the area; its tile is in the area unless OUTSIDE. */
    Overlap overlap(int z, int x, int y);

    /** The area of a job on the tiles of {@code tms}. Parses its data: callers that ask often keep the result. */
    static Area of(JobArea area, TileMatrixSet tms) {
        return switch (area.kind()) {
            case COVERAGE -> new GeometryArea(tms, Coverages.read(area.data()));
            case TILES -> new TileListArea(TileLists.read(area.data()));
        };
    }
}
