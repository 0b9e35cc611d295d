package io.tileseeder.plan;

import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.TileRange;
import java.util.BitSet;

/**
 * One unit of work of a job: a metatile, and which of its tiles the job covers (a metatile on the edge of a
 * bbox or an area renders whole, but only the job's tiles are stored). {@code seq} numbers a job's tasks from 0.
 *
 * @param tiles the range of the tiles to store
 * @param mask  which tiles of {@code tiles} to store, bit {@code i} for the tile {@code i % width} columns right
 *              and {@code i / width} rows down from its top left; null for all of them. Not to be modified
 */
public record PlannedMetatile(long seq, Metatile metatile, TileRange tiles, BitSet mask) {

    public PlannedMetatile(long seq, Metatile metatile, TileRange tiles) {
        this(seq, metatile, tiles, null);
    }

    /** How many tiles the task stores. */
    public long tileCount() {
        return mask == null ? tiles.count() : mask.cardinality();
    }
}
