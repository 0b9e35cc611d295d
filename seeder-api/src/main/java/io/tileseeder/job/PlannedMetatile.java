package io.tileseeder.job;

import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.TileRange;

/**
 * One unit of work of a job: a metatile, and which of its tiles the job covers (a metatile on the edge of a
 * bbox renders whole, but only the job's tiles are stored). {@code seq} numbers a job's tasks from 0.
 */
public record PlannedMetatile(long seq, Metatile metatile, TileRange tiles) {
}
