package io.tileseeder.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.job.DimensionValues;
import io.tileseeder.job.Fixtures;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.ShowFailingCase;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The plan of a job on a layer with dimensions, against the plan of the same job in one cache: every task of that
 * plan once in every cache, zoom by zoom, cache by cache within a zoom, numbered densely; resumable at any task.
 */
@ExtendWith(ShowFailingCase.class)
class CachesPlanPropertyTest {

    static Stream<Named<JobSpec>> everyCacheGetsTheTasksOfTheJobInOneCache() {
        SplittableRandom random = new SplittableRandom(0x5EED_CAC4L);
        return Fixtures.planningSpecs(0x5EED_CAC5L, 200, 6, 4).map(spec -> {
            Map<String, List<String>> dimensions = new LinkedHashMap<>();
            int count = 1 + random.nextInt(2);
            for (int d = 0; d < count; d++) {
                List<String> values = new ArrayList<>();
                int n = 1 + random.nextInt(3);
                for (int v = 0; v < n; v++) {
                    values.add("v" + v);
                }
                dimensions.put("DIM_" + d, values);
            }
            JobSpec withDimensions = new JobSpec(spec.layer(), spec.tileMatrixSet(), spec.minZoom(), spec.maxZoom(),
                    spec.bbox(), spec.format(), spec.mode(), spec.metatile(), spec.refreshBefore(), spec.priority(),
                    spec.labels(), spec.area(), spec.crsBbox(), dimensions);
            return Named.of(Fixtures.describe(spec) + " " + dimensions, withDimensions);
        });
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource
    void everyCacheGetsTheTasksOfTheJobInOneCache(JobSpec spec) {
        MetatilePlan plan = MetatilePlan.of(spec);
        MetatilePlan one = spec.area() == null ? new BboxPlan(spec) : MetatilePlan.oneCache(spec, Long.MAX_VALUE);
        List<DimensionValues> caches = spec.combinations();
        assertThat((long) caches.size()).isEqualTo(spec.combinationCount());

        List<PlannedMetatile> tasks = new ArrayList<>();
        plan.forEach(tasks::add);
        List<PlannedMetatile> expected = new ArrayList<>();
        for (int z = spec.minZoom(); z <= spec.maxZoom(); z++) {
            List<PlannedMetatile> ofZoom = new ArrayList<>();
            for (PlannedMetatile task : one) {
                if (task.metatile().z() == z) {
                    ofZoom.add(task);
                }
            }
            for (DimensionValues cache : caches) {
                for (PlannedMetatile task : ofZoom) {
                    expected.add(new PlannedMetatile(expected.size(), task.metatile(), task.tiles(), task.mask(),
                            cache));
                }
            }
            assertThat(plan.taskCount(z)).isEqualTo(one.taskCount(z) * caches.size());
            assertThat(plan.tileCount(z)).isEqualTo(one.tileCount(z) * caches.size());
        }
        assertThat(tasks).isEqualTo(expected);
        PlanChecks.assertResumesAnywhere(plan, tasks);
    }
}
