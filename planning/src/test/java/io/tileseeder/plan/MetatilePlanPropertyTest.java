package io.tileseeder.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.grid.TileRange;
import io.tileseeder.job.Fixtures;
import io.tileseeder.job.Gen;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.ShowFailingCase;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The planning arithmetic: every tile in exactly one task, numbered in order, resumable anywhere. Each test runs
 * on specs from {@link Fixtures#planningSpecs} with its own fixed seed: the edge cases, then random ones.
 */
@ExtendWith(ShowFailingCase.class)
class MetatilePlanPropertyTest {

    /** Zoom levels 0..8 and metatile sides 1..8 keep a job's tiles countable one by one. */
    private static final int MAX_ZOOM = 8;
    private static final int MAX_SIDE = 8;

    static Stream<Named<JobSpec>> everyTileOfTheJobIsPlannedInExactlyOneTask() {
        return jobs(0x9A7E_0001L, 200);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource
    void everyTileOfTheJobIsPlannedInExactlyOneTask(JobSpec spec) {
        TileMatrixSet tms = spec.tileMatrixSet();
        MetatilePlan plan = MetatilePlan.of(spec);
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
        assertThat(tiles).isEqualTo(MetatilePlan.of(spec).tileCount());
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

    /** With one to four cut points in 0..1, the first cases cutting at the very start and the very end. */
    static Stream<Arguments> resumingFromAnySequenceNumberYieldsTheRestOfThePlan() {
        List<JobSpec> specs = Fixtures.planningSpecs(0x9A7E_0002L, 200, MAX_ZOOM, MAX_SIDE).toList();
        List<List<Double>> cuts = Gen.cases(0x9A7E_1002L, specs.size(),
                List.of(List.of(0.0), List.of(1.0), List.of(0.0, 0.5, 0.99, 1.0)),
                g -> g.list(1, 4, () -> g.between(0.0, 1.0))).toList();
        return IntStream.range(0, specs.size()).mapToObj(i -> Arguments.of(named(specs.get(i)), cuts.get(i)));
    }

    @ParameterizedTest(name = "[{index}] {0}, cuts {1}")
    @MethodSource
    void resumingFromAnySequenceNumberYieldsTheRestOfThePlan(JobSpec spec, List<Double> cuts) {
        MetatilePlan plan = MetatilePlan.of(spec);
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

    static Stream<Named<JobSpec>> anIteratorStopsAtTheEnd() {
        return jobs(0x9A7E_0003L, 100);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource
    void anIteratorStopsAtTheEnd(JobSpec spec) {
        MetatilePlan plan = MetatilePlan.of(spec);
        Iterator<PlannedMetatile> rest = plan.from(Math.max(0, plan.taskCount() - 1));
        assertThat(rest.hasNext()).isTrue();
        assertThat(rest.next().seq()).isEqualTo(plan.taskCount() - 1);
        assertThat(rest.hasNext()).isFalse();
    }

    private static Stream<Named<JobSpec>> jobs(long seed, int count) {
        return Fixtures.planningSpecs(seed, count, MAX_ZOOM, MAX_SIDE).map(MetatilePlanPropertyTest::named);
    }

    private static Named<JobSpec> named(JobSpec spec) {
        return Named.of(Fixtures.describe(spec), spec);
    }

    private static long order(PlannedMetatile task) {
        Metatile m = task.metatile();
        return ((long) m.z() << 50) | ((long) m.y() << 25) | m.x();
    }
}
