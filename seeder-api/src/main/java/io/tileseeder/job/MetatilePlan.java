package io.tileseeder.job;

import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileRange;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The metatile tasks of a job, as a stream: zoom by zoom, metatile rows top to bottom, columns left to right,
 * numbered from 0. Nothing is held in memory beyond the current position, and any task's sequence number
 * maps back to its position in constant time per zoom level, so a planner that stopped after task {@code n}
 * resumes with {@link #from(long) from(n + 1)}.
 *
 * <p>Every tile of the job lies in exactly one task: a task's tiles are its metatile's tiles clipped to the
 * job's tile range at that zoom.
 */
public final class MetatilePlan implements Iterable<PlannedMetatile> {

    private final JobSpec spec;

    public MetatilePlan(JobSpec spec) {
        this.spec = spec;
    }

    /** The number of metatile tasks in the whole job. */
    public long taskCount() {
        long count = 0;
        for (int z = spec.minZoom(); z <= spec.maxZoom(); z++) {
            count += taskCount(z);
        }
        return count;
    }

    /** The number of metatile tasks at zoom {@code z}; they follow those of the zooms above it. */
    public long taskCount(int z) {
        return metatileRange(z).count();
    }

    @Override
    public Iterator<PlannedMetatile> iterator() {
        return from(0);
    }

    /** The tasks from sequence number {@code seq} on. */
    public Iterator<PlannedMetatile> from(long seq) {
        if (seq < 0) {
            throw new IllegalArgumentException("sequence numbers start at 0, got " + seq);
        }
        return new Cursor(seq);
    }

    /** The metatiles, in metatile columns and rows, that hold the job's tiles at zoom {@code z}. */
    private TileRange metatileRange(int z) {
        TileRange tiles = spec.tiles(z);
        MetatileSize size = spec.metatile();
        return new TileRange(z, tiles.minX() / size.width(), tiles.minY() / size.height(),
                tiles.maxX() / size.width(), tiles.maxY() / size.height());
    }

    private final class Cursor implements Iterator<PlannedMetatile> {
        private long seq;
        private int z;
        private TileRange metatiles;
        private TileRange jobTiles;
        private long indexInZoom;

        Cursor(long start) {
            seq = start;
            z = spec.minZoom();
            long remaining = start;
            metatiles = metatileRange(z);
            while (remaining >= metatiles.count() && z < spec.maxZoom()) {
                remaining -= metatiles.count();
                metatiles = metatileRange(++z);
            }
            indexInZoom = remaining;
            jobTiles = spec.tiles(z);
        }

        @Override
        public boolean hasNext() {
            return indexInZoom < metatiles.count();
        }

        @Override
        public PlannedMetatile next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            int mx = metatiles.minX() + (int) (indexInZoom % metatiles.width());
            int my = metatiles.minY() + (int) (indexInZoom / metatiles.width());
            Metatile metatile = new Metatile(spec.tileMatrixSet(), z, mx, my, spec.metatile());
            TileRange tiles = metatile.tiles().intersection(jobTiles).orElseThrow();
            PlannedMetatile task = new PlannedMetatile(seq++, metatile, tiles);
            if (++indexInZoom == metatiles.count() && z < spec.maxZoom()) {
                metatiles = metatileRange(++z);
                jobTiles = spec.tiles(z);
                indexInZoom = 0;
            }
            return task;
        }
    }
}
