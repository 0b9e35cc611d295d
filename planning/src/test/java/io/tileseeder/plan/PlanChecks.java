package io.tileseeder.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import io.tileseeder.message.MetatileTask;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/** What every plan over an area must hold, checked against the area tested tile by tile. */
final class PlanChecks {

    private PlanChecks() {
    }

    /**
     * Every tile of the area in exactly one task, inside its metatile, no other tile; the tile and task counts per zoom
     * exact; sequence numbers dense from 0; {@code from(k)} the same tail as the whole plan's, for k across the plan.
     */
    static void assertHoldsExactly(MetatilePlan plan, Predicate<TileCoord> inArea) {
        JobSpec spec = plan.spec();
        MetatileSize size = spec.metatile();
        List<PlannedMetatile> tasks = new ArrayList<>();
        plan.forEach(tasks::add);
        Map<Integer, Set<TileCoord>> planned = new TreeMap<>();
        Map<Integer, Long> tasksPerZoom = new TreeMap<>();
        for (int i = 0; i < tasks.size(); i++) {
            PlannedMetatile task = tasks.get(i);
            assertThat(task.seq()).as("sequence number").isEqualTo(i);
            int z = task.metatile().z();
            tasksPerZoom.merge(z, 1L, Long::sum);
            List<TileCoord> tiles = tilesOf(task);
            assertThat(tiles).as("task %d stores at least one tile", i).isNotEmpty();
            assertThat((long) tiles.size()).isEqualTo(task.tileCount());
            for (TileCoord tile : tiles) {
                assertThat(task.metatile().tiles().contains(tile)).as("%s in the metatile of task %d", tile, i).isTrue();
                assertThat(planned.computeIfAbsent(z, k -> new HashSet<>()).add(tile))
                        .as("tile %s planned twice", tile).isTrue();
            }
        }
        for (int z = spec.minZoom(); z <= spec.maxZoom(); z++) {
            Set<TileCoord> expected = new HashSet<>();
            for (TileCoord tile : spec.tileMatrixSet().fullRange(z)) {
                if (inArea.test(tile)) {
                    expected.add(tile);
                }
            }
            assertThat(planned.getOrDefault(z, Set.of())).as("the tiles of zoom %d", z).isEqualTo(expected);
            assertThat(plan.tileCount(z)).as("tile count of zoom %d", z).isEqualTo(expected.size());
            long metatiles = expected.stream().map(t -> (long) (t.y() / size.height()) << 32 | (t.x() / size.width()))
                    .distinct().count();
            assertThat(plan.taskCount(z)).as("task count of zoom %d", z).isEqualTo(metatiles);
            assertThat(tasksPerZoom.getOrDefault(z, 0L)).as("tasks of zoom %d", z).isEqualTo(metatiles);
        }
        assertThat(plan.tileCount()).isEqualTo(planned.values().stream().mapToLong(Set::size).sum());
        assertResumesAnywhere(plan, tasks);
    }

    /** {@code from(k)} is the same tail as the whole plan's ({@code tasks}), for k across the plan and past it. */
    static void assertResumesAnywhere(MetatilePlan plan, List<PlannedMetatile> tasks) {
        for (long k : List.of(0L, 1L, tasks.size() / 3L, tasks.size() / 2L, tasks.size() - 1L, (long) tasks.size(),
                tasks.size() + 7L)) {
            if (k < 0) {
                continue;
            }
            List<PlannedMetatile> resumed = new ArrayList<>();
            plan.from(k).forEachRemaining(resumed::add);
            assertThat(resumed).as("from(%d) of %d tasks", k, tasks.size())
                    .isEqualTo(k >= tasks.size() ? List.of() : tasks.subList((int) k, tasks.size()));
        }
    }

    /** The tiles a task stores, as a worker reads them from its message. */
    static List<TileCoord> tilesOf(PlannedMetatile task) {
        return MetatileTask.of("j", task.seq(), "world", TileFormat.PNG, Mode.SEED, task.metatile(), task.tiles(),
                task.mask(), null).tilesToStore();
    }
}
