package io.tileseeder.plan;

import io.tileseeder.job.DimensionValues;
import io.tileseeder.job.JobSpec;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The plan of a job on a layer with dimensions: the same metatiles in each of the job's caches
 * ({@link JobSpec#combinations}), zoom by zoom, and within a zoom cache by cache, so every cache's low zooms are done
 * before any cache's deeper ones. Task {@code seq} of zoom {@code z} is task {@code seq % n} of that zoom in the
 * plan of one cache, in the cache {@code seq / n}, with {@code n} that plan's tasks at {@code z}.
 */
final class CachesPlan implements MetatilePlan {

    private final MetatilePlan one;
    private final List<DimensionValues> caches;

    /** @param one the plan of the job in one cache: the same in each */
    CachesPlan(MetatilePlan one) {
        this.one = one;
        this.caches = one.spec().combinations();
    }

    @Override
    public JobSpec spec() {
        return one.spec();
    }

    @Override
    public long taskCount(int z) {
        return one.taskCount(z) * caches.size();
    }

    @Override
    public long tileCount(int z) {
        return one.tileCount(z) * caches.size();
    }

    @Override
    public Iterator<PlannedMetatile> from(long seq) {
        MetatilePlan.checkSeq(seq);
        JobSpec spec = one.spec();
        int z = spec.minZoom();
        long skip = seq;
        long before = 0; // tasks of one cache at the zooms before z
        while (z <= spec.maxZoom() && skip >= taskCount(z)) {
            skip -= taskCount(z);
            before += one.taskCount(z);
            z++;
        }
        if (z > spec.maxZoom()) {
            return java.util.Collections.emptyIterator();
        }
        return new Cursor(seq, z, before, (int) (skip / one.taskCount(z)), skip % one.taskCount(z));
    }

    /** Walks the blocks of one cache's tasks at one zoom, opening the one-cache plan at each block's start. */
    private final class Cursor implements Iterator<PlannedMetatile> {

        private long seq;
        private int z;
        private long before;
        private int cache;
        private long left;
        private Iterator<PlannedMetatile> block;

        Cursor(long seq, int z, long before, int cache, long into) {
            this.seq = seq;
            this.z = z;
            this.before = before;
            this.cache = cache;
            this.left = one.taskCount(z) - into;
            this.block = one.from(before + into);
        }

        @Override
        public boolean hasNext() {
            while (left == 0) {
                if (++cache == caches.size()) {
                    cache = 0;
                    before += one.taskCount(z);
                    if (++z > one.spec().maxZoom()) {
                        return false;
                    }
                }
                left = one.taskCount(z);
                block = left == 0 ? null : one.from(before);
            }
            return true;
        }

        @Override
        public PlannedMetatile next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            PlannedMetatile task = block.next();
            left--;
            return new PlannedMetatile(seq++, task.metatile(), task.tiles(), task.mask(), caches.get(cache));
        }
    }
}
