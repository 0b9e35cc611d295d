package io.tileseeder.plan;

import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileRange;
import io.tileseeder.job.JobSpec;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The plan of a job over a bbox: zoom by zoom, metatile rows top to bottom, columns left to right. Any task's
 * sequence number maps back to its position in constant time per zoom level.
 *
 * <p>A task's tiles are its metatile's tiles clipped to the job's tile range at that zoom.
 */
final class BboxPlan implements MetatilePlan {

    private final JobSpec spec;

    BboxPlan(JobSpec spec) {
        this.spec = spec;
    }

    @Override
    public JobSpec spec() {
        return spec;
    }

    @Override
    public long taskCount(int z) {
        return metatileRange(z).count();
    }

    @Override
    public long tileCount(int z) {
        return spec.tiles(z).count();
    }

    @Override
    public Iterator<PlannedMetatile> from(long seq) {
        MetatilePlan.checkSeq(seq);
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
