package io.tileseeder.plan;

import io.tileseeder.grid.Metatile;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.grid.TileRange;
import java.util.BitSet;
import java.util.List;

/**
 * One unit of work of a job: a metatile, and which of its tiles the job covers (a metatile on the edge of a
 * bbox or an area renders whole, but only the job's tiles are stored). {@code seq} numbers a job's tasks from 0.
 *
 * @param tiles the range of the tiles to store
 * @param mask  which tiles of {@code tiles} to store, bit {@code i} for the tile {@code i % width} columns right
 *              and {@code i / width} rows down from its top left; null for all of them. Not to be modified
 * @param dimensions the cache the tiles go to, on a layer with dimensions; {@link DimensionValues#NONE} if it has none
 */
public record PlannedMetatile(long seq, Metatile metatile, TileRange tiles, BitSet mask,
                              DimensionValues dimensions) {

    public PlannedMetatile(long seq, Metatile metatile, TileRange tiles) {
        this(seq, metatile, tiles, null);
    }

    public PlannedMetatile(long seq, Metatile metatile, TileRange tiles, BitSet mask) {
        this(seq, metatile, tiles, mask, DimensionValues.NONE);
    }

    /**
     * The task of {@code metatile} storing {@code tiles} ({x, y} pairs of the metatile's zoom, each once): their
     * bounding range, with a mask unless they fill it; null if there are none.
     */
    static PlannedMetatile of(long seq, Metatile metatile, List<int[]> tiles) {
        if (tiles.isEmpty()) {
            return null;
        }
        int minX = Integer.MAX_VALUE;
        int minY = Integer.MAX_VALUE;
        int maxX = -1;
        int maxY = -1;
        for (int[] tile : tiles) {
            minX = Math.min(minX, tile[0]);
            minY = Math.min(minY, tile[1]);
            maxX = Math.max(maxX, tile[0]);
            maxY = Math.max(maxY, tile[1]);
        }
        TileRange range = new TileRange(metatile.z(), minX, minY, maxX, maxY);
        if (range.count() == tiles.size()) {
            return new PlannedMetatile(seq, metatile, range);
        }
        BitSet mask = new BitSet((int) range.count());
        for (int[] tile : tiles) {
            mask.set((tile[1] - minY) * range.width() + tile[0] - minX);
        }
        return new PlannedMetatile(seq, metatile, range, mask);
    }

    /** How many tiles the task stores. */
    public long tileCount() {
        return mask == null ? tiles.count() : mask.cardinality();
    }
}
