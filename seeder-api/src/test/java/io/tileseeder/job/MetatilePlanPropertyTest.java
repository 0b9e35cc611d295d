package io.tileseeder.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.grid.TileRange;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Size;

/** The planning arithmetic: every tile in exactly one task, numbered in order, resumable anywhere. */
class MetatilePlanPropertyTest {

    @Provide
    Arbitrary<JobSpec> jobs() {
        return Fixtures.planningSpecs(8, 8);
    }

    @Property(tries = 200)
    void everyTileOfTheJobIsPlannedInExactlyOneTask(@ForAll("jobs") JobSpec spec) {
        TileMatrixSet tms = spec.tileMatrixSet();
        MetatilePlan plan = new MetatilePlan(spec);
        Map<Integer, BitSet> planned = new HashMap<>();
        long seq = 0;
        long tiles = 0;
        PlannedMetatile previous = null;

        for (PlannedMetatile task : plan) {
            assertThat(task.seq()).as("sequence number").isEqualTo(seq++);
            Metatile metatile = task.metatile();
            int z = metatile.z();
            assertThat(z).isBetween(spec.minZoom(), spec.maxZoom());
            assertThat(metatile.tileMatrixSet()).isEqualTo(tms);
            assertThat(metatile.size()).isEqualTo(spec.metatile());
            assertThat(task.tiles().z()).isEqualTo(z);
            assertThat(metatile.tiles().intersection(task.tiles()))
                    .as("tiles of task %d lie within its metatile %s", task.seq(), metatile)
                    .contains(task.tiles());
            if (previous != null) {
                assertThat(order(previous)).as("tasks in zoom, row, column order").isLessThan(order(task));
            }
            previous = task;

            BitSet bits = planned.computeIfAbsent(z, k -> new BitSet());
            int width = tms.matrixWidth(z);
            for (TileCoord tile : task.tiles()) {
                int index = tile.y() * width + tile.x();
                assertThat(bits.get(index)).as("tile %s planned twice (again in task %d)", tile, task.seq()).isFalse();
                bits.set(index);
                tiles++;
            }
        }

        assertThat(plan.taskCount()).isEqualTo(seq);
        assertThat(tiles).isEqualTo(spec.tileCount());
        for (int z = spec.minZoom(); z <= spec.maxZoom(); z++) {
            TileRange expected = spec.tiles(z);
            BitSet bits = planned.getOrDefault(z, new BitSet());
            assertThat((long) bits.cardinality()).as("tiles planned at zoom %d", z).isEqualTo(expected.count());
            int width = tms.matrixWidth(z);
            for (TileCoord tile : expected) {
                assertThat(bits.get(tile.y() * width + tile.x())).as("tile %s planned", tile).isTrue();
            }
        }
    }

    @Property(tries = 200)
    void resumingFromAnySequenceNumberYieldsTheRestOfThePlan(
            @ForAll("jobs") JobSpec spec,
            @ForAll @Size(min = 1, max = 4) List<@DoubleRange(min = 0, max = 1) Double> cuts) {
        MetatilePlan plan = new MetatilePlan(spec);
        List<PlannedMetatile> all = new ArrayList<>();
        plan.forEach(all::add);
        int n = all.size();
        assertThat(plan.taskCount()).isEqualTo(n);

        List<Long> starts = new ArrayList<>(List.of(0L, (long) n - 1, (long) n, (long) n + 1, (long) n + 1000));
        cuts.forEach(c -> starts.add((long) Math.floor(c * n)));
        for (long k : starts) {
            if (k < 0) {
                continue;
            }
            List<PlannedMetatile> resumed = new ArrayList<>();
            plan.from(k).forEachRemaining(resumed::add);
            List<PlannedMetatile> expected = k >= n ? List.of() : all.subList((int) k, n);
            assertThat(resumed).as("from(%d) of %d tasks", k, n).isEqualTo(expected);
        }
    }

    @Property(tries = 100)
    void anIteratorStopsAtTheEnd(@ForAll("jobs") JobSpec spec) {
        MetatilePlan plan = new MetatilePlan(spec);
        Iterator<PlannedMetatile> rest = plan.from(Math.max(0, plan.taskCount() - 1));
        assertThat(rest.hasNext()).isTrue();
        assertThat(rest.next().seq()).isEqualTo(plan.taskCount() - 1);
        assertThat(rest.hasNext()).isFalse();
    }

    private static long order(PlannedMetatile task) {
        Metatile m = task.metatile();
        return ((long) m.z() << 50) | ((long) m.y() << 25) | m.x();
    }
}
