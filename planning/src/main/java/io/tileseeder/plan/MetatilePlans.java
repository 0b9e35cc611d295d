package io.tileseeder.plan;

import io.tileseeder.job.JobSpec;
import io.tileseeder.job.Mode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The plans of the last few jobs, by spec. Counting a large area down to a deep zoom and reading its geometry cost
 * time, and a job's plan is asked for several times (validated, admitted, planned, resumed, its manifest written),
 * so the plans over an area are kept: the last {@code kept} of them (one over a large coverage holds its indexed
 * geometry, megabytes). Plans over a bbox cost nothing to make and are not kept. An iterator keeps its plan, so a
 * plan dropped from here meanwhile is not read again under it.
 *
 * <p>Owned by whoever plans: one instance per coordinator (its validator's), shared by its threads.
 */
public final class MetatilePlans {

    private final Map<JobSpec, MetatilePlan> plans;

    /** @param kept how many plans over an area are kept, at least 1 */
    public MetatilePlans(int kept) {
        if (kept < 1) {
            throw new IllegalArgumentException("kept must be at least 1, not " + kept);
        }
        this.plans = new LinkedHashMap<>(kept, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<JobSpec, MetatilePlan> eldest) {
                return size() > kept;
            }
        };
    }

    /** The plan of {@code spec}: over its bbox, or over its area. */
    public MetatilePlan of(JobSpec spec) {
        if (spec.mode() == Mode.PACK) {
            return new PackPlan(spec);
        }
        return MetatilePlan.inCaches(spec.area() == null ? new BboxPlan(spec) : area(spec, Long.MAX_VALUE));
    }

    /**
     * The tiles of {@code spec}, or empty if they are more than {@code atMost}: counting an area down its quadtree
     * stops there rather than walk a deep edge for a job that is refused anyway.
     */
    public OptionalLong tileCount(JobSpec spec, long atMost) {
        long caches = spec.combinationCount();
        if (spec.mode() == Mode.PACK) {
            return OptionalLong.of(new PackPlan(spec).tileCount());
        }
        if (spec.area() == null) {
            long tiles = new BboxPlan(spec).tileCount();
            return tiles > atMost / caches ? OptionalLong.empty() : OptionalLong.of(tiles * caches);
        }
        try {
            return OptionalLong.of(area(spec, atMost / caches).tileCount() * caches);
        } catch (AreaPlan.TooManyTiles e) {
            return OptionalLong.empty();
        }
    }

    /** @throws AreaPlan.TooManyTiles if the job has more than {@code maxTiles} tiles */
    private MetatilePlan area(JobSpec spec, long maxTiles) {
        synchronized (plans) {
            MetatilePlan plan = plans.get(spec);
            if (plan != null) {
                if (plan.tileCount() > maxTiles) {
                    throw new AreaPlan.TooManyTiles();
                }
                return plan;
            }
        }
        MetatilePlan plan = MetatilePlan.oneCache(spec, maxTiles);
        synchronized (plans) {
            plans.put(spec, plan);
        }
        return plan;
    }
}
