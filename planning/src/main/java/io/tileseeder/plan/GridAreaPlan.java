package io.tileseeder.plan;

import io.tileseeder.area.Area.Overlap;
import io.tileseeder.area.Coverages;
import io.tileseeder.area.GeometryArea;
import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.TileMatrix;
import io.tileseeder.grid.TileLists;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.grid.TileRange;
import io.tileseeder.job.JobArea;
import io.tileseeder.job.JobSpec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;

/**
 * The plan of a job over a coverage or a tile list on a tile matrix set whose matrices are not a quadtree (a free
 * list of resolutions, each matrix its own size); a tile list is the area of its tiles
 * ({@link GeometryArea#ofTiles}). A zoom level's tiles are no parent's children, so each zoom is walked on
 * its own. Its metatiles (any size) are the leaves of a quadtree laid over its metatile grid, whose root is the
 * smallest square of 2^d metatiles that holds the grid; a cell is the rectangle of the matrix's tiles under it, and
 * is skipped outside the coverage, taken whole inside it, and split along its edge. A metatile on the edge is tested
 * tile by tile. So counting and planning cost, per zoom, about the coverage's edge in tiles, not its surface.
 *
 * <p>Each zoom's metatiles come in Z order of that quadtree, and a task's sequence number maps back to its position
 * by walking down with the count of each cell, as {@link AreaPlan} does for a quad set.
 */
final class GridAreaPlan extends CountedPlan {

    private final TileMatrixSet tms;
    private final GeometryArea area;
    private final int metatileWidth;
    private final int metatileHeight;

    /** @throws AreaPlan.TooManyTiles once the job's tiles are more than {@code maxTiles} (counting stops there) */
    private GridAreaPlan(JobSpec spec, long maxTiles) {
        super(spec, maxTiles);
        this.tms = spec.tileMatrixSet();
        this.area = spec.area().kind() == JobArea.Kind.COVERAGE
                ? new GeometryArea(tms, Coverages.read(spec.area().data()))
                : GeometryArea.ofTiles(tms, TileLists.read(spec.area().data()));
        this.metatileWidth = spec.metatile().width();
        this.metatileHeight = spec.metatile().height();
        for (int z = spec.minZoom(); z <= spec.maxZoom(); z++) {
            count(new Cell(z, 0, 0, 0, false));
        }
    }

    /** The plan of {@code spec}, counted; @throws AreaPlan.TooManyTiles past {@code maxTiles} tiles */
    static GridAreaPlan count(JobSpec spec, long maxTiles) {
        return new GridAreaPlan(spec, maxTiles);
    }

    @Override
    protected Iterator<PlannedMetatile> cursor(long seq) {
        return new Cursor(seq);
    }

    /**
     * A cell of zoom {@code z}'s quadtree: at depth {@code depth}, column {@code x} and row {@code y} of that depth's
     * cells; {@code inside} when an ancestor was found inside the coverage.
     */
    private record Cell(int z, int depth, int x, int y, boolean inside) {
    }

    /** The depth of zoom {@code z}'s quadtree: its leaves are single metatiles. */
    private int depth(int z) {
        TileMatrix matrix = tms.matrix(z);
        int side = Math.max(ceilDiv(matrix.matrixWidth(), metatileWidth), ceilDiv(matrix.matrixHeight(), metatileHeight));
        return 32 - Integer.numberOfLeadingZeros(side - 1);
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    /** The tiles under a cell, cut to the matrix; null if the cell lies wholly beyond it. */
    private TileRange range(Cell cell) {
        TileMatrix matrix = tms.matrix(cell.z);
        int span = 1 << (depth(cell.z) - cell.depth);
        long minX = (long) cell.x * span * metatileWidth;
        long minY = (long) cell.y * span * metatileHeight;
        if (minX >= matrix.matrixWidth() || minY >= matrix.matrixHeight()) {
            return null;
        }
        long maxX = Math.min(minX + (long) span * metatileWidth, matrix.matrixWidth()) - 1;
        long maxY = Math.min(minY + (long) span * metatileHeight, matrix.matrixHeight()) - 1;
        return new TileRange(cell.z, (int) minX, (int) minY, (int) maxX, (int) maxY);
    }

    private Overlap overlap(Cell cell, TileRange range) {
        return cell.inside ? Overlap.INSIDE : area.overlap(range);
    }

    private boolean isLeaf(Cell cell) {
        return cell.depth == depth(cell.z);
    }

    /** The cell's children in Z order, those within the matrix. */
    private List<Cell> children(Cell cell, boolean inside) {
        List<Cell> children = new ArrayList<>(4);
        for (int i = 0; i < 4; i++) {
            Cell child = new Cell(cell.z, cell.depth + 1, 2 * cell.x + (i & 1), 2 * cell.y + (i >> 1), inside);
            if (range(child) != null) {
                children.add(child);
            }
        }
        return children;
    }

    private void count(Cell cell) {
        TileRange range = range(cell);
        Overlap overlap = range == null ? Overlap.OUTSIDE : overlap(cell, range);
        if (overlap == Overlap.OUTSIDE) {
            return;
        }
        if (overlap == Overlap.INSIDE) {
            add(cell.z, range.count(), metatilesIn(cell, range));
        } else if (isLeaf(cell)) {
            long in = tilesInArea(range).size();
            if (in > 0) {
                add(cell.z, in, 1);
            }
        } else {
            for (Cell child : children(cell, false)) {
                count(child);
            }
        }
    }

    private void add(int z, long tileCount, long metatileCount) {
        tileCounts[z] += tileCount;
        taskCounts[z] += metatileCount;
        spend(z, tileCount);
    }

    /** The metatiles under a cell: its tile range in metatiles. */
    private long metatilesIn(Cell cell, TileRange range) {
        return (long) ceilDiv(range.maxX() + 1 - range.minX(), metatileWidth)
                * ceilDiv(range.maxY() + 1 - range.minY(), metatileHeight);
    }

    /** The tiles of a range (a metatile's) that are in the coverage, row by row. */
    private List<int[]> tilesInArea(TileRange range) {
        List<int[]> in = new ArrayList<>();
        for (int y = range.minY(); y <= range.maxY(); y++) {
            for (int x = range.minX(); x <= range.maxX(); x++) {
                if (area.overlap(new TileRange(range.z(), x, y, x, y)) != Overlap.OUTSIDE) {
                    in.add(new int[] {x, y});
                }
            }
        }
        return in;
    }

    /** How many metatiles under the cell hold a tile of the coverage. */
    private long metatilesAt(Cell cell) {
        TileRange range = range(cell);
        Overlap overlap = range == null ? Overlap.OUTSIDE : overlap(cell, range);
        if (overlap == Overlap.OUTSIDE) {
            return 0;
        }
        if (overlap == Overlap.INSIDE) {
            return metatilesIn(cell, range);
        }
        if (isLeaf(cell)) {
            return tilesInArea(range).isEmpty() ? 0 : 1;
        }
        long count = 0;
        for (Cell child : children(cell, false)) {
            count += metatilesAt(child);
        }
        return count;
    }

    private final class Cursor extends Lookahead<PlannedMetatile> {
        private final Deque<Cell> stack = new ArrayDeque<>();
        private long seq;
        private int z;

        Cursor(long start) {
            seq = start;
            Position position = position(start);
            z = position.z();
            long skip = position.skip();
            if (z <= spec.maxZoom()) {
                stack.push(new Cell(z, 0, 0, 0, false));
                while (skip > 0) {
                    Cell cell = stack.pop();
                    long count = metatilesAt(cell);
                    if (count <= skip) {
                        skip -= count;
                    } else {
                        push(cell, overlap(cell, range(cell)) == Overlap.INSIDE);
                    }
                }
            }
        }

        private void push(Cell cell, boolean inside) {
            List<Cell> children = children(cell, inside);
            for (int i = children.size() - 1; i >= 0; i--) {
                stack.push(children.get(i));
            }
        }

        @Override
        protected PlannedMetatile advance() {
            while (z <= spec.maxZoom()) {
                while (!stack.isEmpty()) {
                    Cell cell = stack.pop();
                    TileRange range = range(cell);
                    Overlap overlap = overlap(cell, range);
                    if (overlap == Overlap.OUTSIDE) {
                        continue;
                    }
                    if (!isLeaf(cell)) {
                        push(cell, overlap == Overlap.INSIDE);
                        continue;
                    }
                    PlannedMetatile task = task(new Metatile(tms, z, cell.x, cell.y, spec.metatile()), range,
                            overlap == Overlap.INSIDE);
                    if (task != null) {
                        return task;
                    }
                }
                z++;
                if (z <= spec.maxZoom()) {
                    stack.push(new Cell(z, 0, 0, 0, false));
                }
            }
            return null;
        }

        /** The task of a metatile whose tiles are {@code range}: all of them, or those in the coverage; null if none. */
        private PlannedMetatile task(Metatile metatile, TileRange range, boolean inside) {
            if (inside) {
                return new PlannedMetatile(seq++, metatile, range);
            }
            List<int[]> in = tilesInArea(range);
            if (in.isEmpty()) {
                return null;
            }
            return PlannedMetatile.of(seq++, metatile, in);
        }
    }
}
