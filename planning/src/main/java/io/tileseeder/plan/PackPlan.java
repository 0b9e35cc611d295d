package io.tileseeder.plan;

import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileRange;
import io.tileseeder.job.JobSpec;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * The plan of a {@link io.tileseeder.job.Mode#PACK pack} job: one task, the archive, counted as one tile of the job's
 * first zoom (the top-left one), so that a pack's progress reads 0 of 1 until the archive is durable.
 */
final class PackPlan implements MetatilePlan {

    private final JobSpec spec;

    PackPlan(JobSpec spec) {
        this.spec = spec;
    }

    @Override
    public JobSpec spec() {
        return spec;
    }

    @Override
    public long taskCount(int z) {
        return z == spec.minZoom() ? 1 : 0;
    }

    @Override
    public long tileCount(int z) {
        return taskCount(z);
    }

    @Override
    public Iterator<PlannedMetatile> from(long seq) {
        MetatilePlan.checkSeq(seq);
        if (seq > 0) {
            return Collections.emptyIterator();
        }
        int z = spec.minZoom();
        return List.of(new PlannedMetatile(0, new Metatile(spec.tileMatrixSet(), z, 0, 0, new MetatileSize(1, 1)),
                new TileRange(z, 0, 0, 0, 0))).iterator();
    }
}
