package io.tileseeder.plan;

import io.tileseeder.job.JobSpec;
import java.util.Iterator;

/**
 * A plan over an area, whose tiles and tasks per zoom are counted when it is made: counting walks the area, and stops
 * once the job's tiles are more than it may have.
 */
abstract class CountedPlan implements MetatilePlan {

    protected final JobSpec spec;
    /** The tiles of the area at each zoom level, 0..maxZoom (the levels above minZoom only where a walk needs them). */
    protected final long[] tileCounts;
    /** The metatiles holding tiles of the area at each zoom level, 0..maxZoom. */
    protected final long[] taskCounts;
    private final long maxTiles;
    private long counted;

    CountedPlan(JobSpec spec, long maxTiles) {
        this.spec = spec;
        this.tileCounts = new long[spec.maxZoom() + 1];
        this.taskCounts = new long[spec.maxZoom() + 1];
        this.maxTiles = maxTiles;
    }

    /**
     * Counts {@code tiles} of zoom {@code level} against the job's limit (the job's zoom levels only).
     *
     * @throws AreaPlan.TooManyTiles once the job's tiles are more than the limit
     */
    protected final void spend(int level, long tiles) {
        if (level >= spec.minZoom()) {
            counted += tiles;
            if (counted > maxTiles) {
                throw new AreaPlan.TooManyTiles();
            }
        }
    }

    /** Where sequence number {@code seq} falls: its zoom level, and how many tasks of that zoom come before it. */
    protected record Position(int z, long skip) {
    }

    /** The position of task {@code seq}; a zoom beyond {@code maxZoom} when the plan has fewer tasks. */
    protected final Position position(long seq) {
        int z = spec.minZoom();
        long skip = seq;
        while (z <= spec.maxZoom() && skip >= taskCount(z)) {
            skip -= taskCount(z);
            z++;
        }
        return new Position(z, skip);
    }

    /** The tasks from sequence number {@code seq} on, {@code seq} checked. */
    protected abstract Iterator<PlannedMetatile> cursor(long seq);

    @Override
    public final JobSpec spec() {
        return spec;
    }

    @Override
    public final long taskCount(int z) {
        return taskCounts[z];
    }

    @Override
    public final long tileCount(int z) {
        return tileCounts[z];
    }

    @Override
    public final Iterator<PlannedMetatile> from(long seq) {
        MetatilePlan.checkSeq(seq);
        return cursor(seq);
    }
}
