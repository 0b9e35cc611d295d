package io.tileseeder.worker.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tileseeder.message.TileCounts;
import org.junit.jupiter.api.Test;

class WorkerMetricsTest {

    /**
     * {@code seeder_tiles_total{outcome}} has an outcome for every count of a task's tiles, deleted included (by a
     * truncate, or by a reseed: stored tiles that became empty).
     */
    @Test
    void everyCountOfATasksTilesIsAnOutcome() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        WorkerMetrics metrics = new WorkerMetrics(registry);

        metrics.tiles(new TileCounts(1, 2, 3, 4, 5, 600, 7));
        metrics.tiles(new TileCounts(0, 0, 0, 10, 0, 0, 0));

        assertThat(count(registry, "written")).isEqualTo(1);
        assertThat(count(registry, "empty")).isEqualTo(2);
        assertThat(count(registry, "skipped")).isEqualTo(3);
        assertThat(count(registry, "deleted")).isEqualTo(14);
        assertThat(count(registry, "failed")).isEqualTo(5);
        assertThat(count(registry, "unchanged")).isEqualTo(7);
        assertThat(registry.get("seeder.tiles").counters()).hasSize(6);
    }

    private static double count(SimpleMeterRegistry registry, String outcome) {
        return registry.get("seeder.tiles").tag("outcome", outcome).counter().count();
    }
}
