package io.tileseeder.plan;

import io.tileseeder.job.JobSpec;
import io.tileseeder.job.Mode;
import java.util.Iterator;

/**
 * The metatile tasks of a job, as a stream, zoom by zoom and numbered from 0. Nothing is held in memory beyond the
 * current position (and, for a job over an {@link io.tileseeder.job.JobArea area}, that area), and any task's
 * sequence number maps back to its position, so a planner that stopped after task {@code n} resumes with
 * {@link #from(long) from(n + 1)}.
 *
 * <p>Every tile of the job lies in exactly one task.
 */
public interface MetatilePlan extends Iterable<PlannedMetatile> {

    /**
     * The plan of {@code spec}, over its bbox or over its area, made anew: a plan over an area counts the area's
     * tiles first. Whoever asks for a job's plan more than once keeps a {@link MetatilePlans}.
     */
    static MetatilePlan of(JobSpec spec) {
        if (spec.mode() == Mode.PACK) {
            return new PackPlan(spec);
        }
        return inCaches(spec.area() == null ? new BboxPlan(spec) : oneCache(spec, Long.MAX_VALUE));
    }

    /** The plan of a job in every one of its caches, from its plan in one ({@link CachesPlan}). */
    static MetatilePlan inCaches(MetatilePlan one) {
        return one.spec().dimensions().isEmpty() ? one : new CachesPlan(one);
    }

    /**
     * The plan of a job over an area in one of its caches, its tiles counted: a quadtree walk on a quad set, a walk
     * per zoom on any other.
     *
     * @throws AreaPlan.TooManyTiles if the job has more than {@code maxTiles} tiles in one cache
     */
    static MetatilePlan oneCache(JobSpec spec, long maxTiles) {
        return spec.tileMatrixSet().isQuad() ? AreaPlan.count(spec, maxTiles) : GridAreaPlan.count(spec, maxTiles);
    }

    JobSpec spec();

    /** The number of metatile tasks at zoom {@code z}; they follow those of the zooms above it. */
    long taskCount(int z);

    /** The number of tiles the job stores at zoom {@code z}. */
    long tileCount(int z);

    /** The tasks from sequence number {@code seq} on. */
    Iterator<PlannedMetatile> from(long seq);

    /** The number of metatile tasks in the whole job. */
    default long taskCount() {
        long count = 0;
        for (int z = spec().minZoom(); z <= spec().maxZoom(); z++) {
            count += taskCount(z);
        }
        return count;
    }

    /** The number of tiles the job stores over all its zoom levels. */
    default long tileCount() {
        long count = 0;
        for (int z = spec().minZoom(); z <= spec().maxZoom(); z++) {
            count += tileCount(z);
        }
        return count;
    }

    @Override
    default Iterator<PlannedMetatile> iterator() {
        return from(0);
    }

    static void checkSeq(long seq) {
        if (seq < 0) {
            throw new IllegalArgumentException("sequence numbers start at 0, got " + seq);
        }
    }
}
