package io.tileseeder.plan;

import io.tileseeder.area.Area;
import io.tileseeder.area.Area.Overlap;
import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.JobSpec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;

/**
 * The plan of a job over an {@link Area}. Its metatiles must be squares of {@code 2^k} tiles a side, so that a
 * metatile at zoom {@code z} is exactly the cell of one tile at zoom {@code z - k}: counting and planning are walks
 * down the quadtree that skip a cell outside the area and take a cell inside it whole, so their cost grows with the
 * area's edge, not with its surface.
 *
 * <p>Each zoom's metatiles come in Z order (the quadtree's depth-first order), and a task's sequence number maps back
 * to its position by walking down with the count of each cell.
 *
 * <p>Counting a large area to a deep zoom and reading its geometry cost time: {@link MetatilePlans} keeps the last
 * few plans.
 */
final class AreaPlan extends CountedPlan {

    private final TileMatrixSet tms;
    private final Area area;
    /** log2 of the metatile's side. */
    private final int shift;

    /** @throws TooManyTiles once the job's tiles are more than {@code maxTiles} (counting stops there) */
    private AreaPlan(JobSpec spec, long maxTiles) {
        super(spec, maxTiles);
        int side = spec.metatile().width();
        if (!isPowerOfTwoSquare(spec.metatile().width(), spec.metatile().height())) {
            throw new IllegalArgumentException("a plan over an area needs square metatiles of 1, 2, 4, 8 or 16 tiles "
                    + "a side, not " + side + "x" + spec.metatile().height());
        }
        this.tms = spec.tileMatrixSet();
        this.area = Area.of(spec.area(), tms);
        this.shift = Integer.numberOfTrailingZeros(side);
        for (int y = 0; y < tms.matrixHeight(0); y++) {
            for (int x = 0; x < tms.matrixWidth(0); x++) {
                count(0, x, y);
            }
        }
        for (int z = 0; z < Math.min(shift, tileCounts.length); z++) {
            taskCounts[z] = Math.min(1, tileCounts[z]);
        }
    }

    /** The plan of {@code spec}, counted; @throws TooManyTiles if the job has more than {@code maxTiles} tiles */
    static AreaPlan count(JobSpec spec, long maxTiles) {
        return new AreaPlan(spec, maxTiles);
    }

    /** Counting stopped: the job has more tiles than it may. */
    static final class TooManyTiles extends RuntimeException {
        TooManyTiles() {
            super(null, null, false, false);
        }
    }

    /** Whether a metatile of {@code width × height} tiles can plan an area. */
    static boolean isPowerOfTwoSquare(int width, int height) {
        return width == height && Integer.bitCount(width) == 1;
    }

    /**
     * Counts the tiles of the cell and its descendants, and the metatiles whose cell it is; answers the zoom levels
     * at which it holds tiles, one bit each. A cell whose descendants all turn out outside (an area thinner than
     * the tests' precision along the cell's middle) holds its own tile and no metatile of deeper zoom levels.
     */
    private long count(int z, int x, int y) {
        Overlap overlap = area.overlap(z, x, y);
        if (overlap == Overlap.OUTSIDE) {
            return 0;
        }
        if (overlap == Overlap.INSIDE) {
            for (int level = z; level < tileCounts.length; level++) {
                long inside = 1L << (2 * (level - z));
                tileCounts[level] += inside;
                if (level + shift < tileCounts.length) {
                    taskCounts[level + shift] += inside;
                }
                spend(level, inside);
            }
            return levelsFrom(z);
        }
        tileCounts[z]++;
        spend(z, 1);
        long levels = 1L << z;
        if (z + 1 < tileCounts.length) {
            for (int i = 0; i < 4; i++) {
                levels |= count(z + 1, 2 * x + (i & 1), 2 * y + (i >> 1));
            }
        }
        if (z + shift < tileCounts.length && (levels & 1L << (z + shift)) != 0) {
            taskCounts[z + shift]++;
        }
        return levels;
    }

    /** Bits {@code z..maxZoom}. */
    private long levelsFrom(int z) {
        return (1L << tileCounts.length) - (1L << z);
    }

    @Override
    protected Iterator<PlannedMetatile> cursor(long seq) {
        return new Cursor(seq);
    }

    /** A quadtree cell on the walk; {@code inside} when an ancestor was found inside the area. */
    private record Cell(int z, int x, int y, boolean inside) {
    }

    private Overlap overlap(Cell cell) {
        return cell.inside ? Overlap.INSIDE : area.overlap(cell.z, cell.x, cell.y);
    }

    /** Pushes the cell's children so that they pop in Z order. */
    private static void pushChildren(Deque<Cell> stack, Cell cell, boolean inside) {
        for (int i = 3; i >= 0; i--) {
            stack.push(new Cell(cell.z + 1, 2 * cell.x + (i & 1), 2 * cell.y + (i >> 1), inside));
        }
    }

    private void pushRoots(Deque<Cell> stack) {
        for (int y = tms.matrixHeight(0) - 1; y >= 0; y--) {
            for (int x = tms.matrixWidth(0) - 1; x >= 0; x--) {
                stack.push(new Cell(0, x, y, false));
            }
        }
    }

    /** How many cells of {@code level} in the cell hold tiles of zoom {@code z}: the metatiles of zoom z in it. */
    private long countAt(Cell cell, int level, int z) {
        Overlap overlap = overlap(cell);
        if (overlap == Overlap.OUTSIDE) {
            return 0;
        }
        if (overlap == Overlap.INSIDE) {
            return 1L << (2 * (level - cell.z));
        }
        if (cell.z == level) {
            return holdsTile(cell, z) ? 1 : 0;
        }
        long count = 0;
        for (int i = 0; i < 4; i++) {
            count += countAt(new Cell(cell.z + 1, 2 * cell.x + (i & 1), 2 * cell.y + (i >> 1), false), level, z);
        }
        return count;
    }

    /** Whether the walk from the cell down finds a tile of zoom {@code z}. */
    private boolean holdsTile(Cell cell, int z) {
        Overlap overlap = overlap(cell);
        if (overlap != Overlap.PARTIAL || cell.z == z) {
            return overlap != Overlap.OUTSIDE;
        }
        for (int i = 0; i < 4; i++) {
            if (holdsTile(new Cell(cell.z + 1, 2 * cell.x + (i & 1), 2 * cell.y + (i >> 1), false), z)) {
                return true;
            }
        }
        return false;
    }

    /** Adds the tiles of zoom {@code level} in the cell that are in the area. */
    private void collect(Cell cell, int level, List<int[]> into) {
        Overlap overlap = overlap(cell);
        if (overlap == Overlap.OUTSIDE) {
            return;
        }
        if (cell.z == level) {
            into.add(new int[] {cell.x, cell.y});
            return;
        }
        for (int i = 0; i < 4; i++) {
            collect(new Cell(cell.z + 1, 2 * cell.x + (i & 1), 2 * cell.y + (i >> 1), overlap == Overlap.INSIDE),
                    level, into);
        }
    }

    private final class Cursor extends Lookahead<PlannedMetatile> {
        private final Deque<Cell> stack = new ArrayDeque<>();
        private long seq;
        private int z;
        /** The level of the cells that are this zoom's metatiles. */
        private int level;

        Cursor(long start) {
            seq = start;
            Position position = position(start);
            z = position.z();
            long skip = position.skip();
            if (z <= spec.maxZoom()) {
                enterZoom();
                while (skip > 0) {
                    Cell cell = stack.pop();
                    long count = countAt(cell, level, z);
                    if (count <= skip) {
                        skip -= count;
                    } else {
                        pushChildren(stack, cell, overlap(cell) == Overlap.INSIDE);
                    }
                }
            }
        }

        private void enterZoom() {
            level = Math.max(0, z - shift);
            stack.clear();
            pushRoots(stack);
        }

        @Override
        protected PlannedMetatile advance() {
            while (z <= spec.maxZoom()) {
                if (z < shift) {
                    // One metatile holds the whole zoom level: its tiles are those of the area, from the roots.
                    PlannedMetatile task = task(new Metatile(tms, z, 0, 0, spec.metatile()), new ArrayList<>(stack),
                            false);
                    z++;
                    if (z <= spec.maxZoom()) {
                        enterZoom();
                    }
                    if (task != null) {
                        return task;
                    }
                    continue;
                }
                while (!stack.isEmpty()) {
                    Cell cell = stack.pop();
                    Overlap overlap = overlap(cell);
                    if (overlap == Overlap.OUTSIDE) {
                        continue;
                    }
                    if (cell.z == level) {
                        PlannedMetatile task = task(new Metatile(tms, z, cell.x, cell.y, spec.metatile()),
                                List.of(cell), overlap == Overlap.INSIDE);
                        if (task != null) {
                            return task;
                        }
                        continue;
                    }
                    pushChildren(stack, cell, overlap == Overlap.INSIDE);
                }
                z++;
                if (z <= spec.maxZoom()) {
                    enterZoom();
                }
            }
            return null;
        }

        /**
         * The task of {@code metatile}, whose tiles in the area are those of zoom z in {@code cells}; null if there
         * are none.
         */
        private PlannedMetatile task(Metatile metatile, List<Cell> cells, boolean inside) {
            if (inside) {
                return new PlannedMetatile(seq++, metatile, metatile.tiles());
            }
            List<int[]> tiles = new ArrayList<>();
            for (Cell cell : cells) {
                collect(cell, z, tiles);
            }
            if (tiles.isEmpty()) {
                return null;
            }
            return PlannedMetatile.of(seq++, metatile, tiles);
        }
    }
}
