package io.tileseeder.coordinator;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.tileseeder.worker.task.StageTimes;
import io.tileseeder.worker.task.StageTimes.Stage;
import java.util.Locale;

/**
 * The worker pipeline's counters on {@code /q/metrics}: {@code seeder_metatiles_rendered_total} and
 * {@code seeder_worker_stage_seconds_total{stage=lock|check|render|encode|store}} (summed over threads).
 */
final class WorkerMetrics {

    private WorkerMetrics() {
    }

    static void bind(MeterRegistry registry, StageTimes times) {
        FunctionCounter.builder("seeder.metatiles.rendered", times, t -> t.count(Stage.RENDER))
                .description("Metatiles rendered by this process").register(registry);
        for (Stage stage : Stage.values()) {
            FunctionCounter.builder("seeder.worker.stage", times, t -> t.nanos(stage) / 1e9)
                    .baseUnit("seconds").tag("stage", stage.name().toLowerCase(Locale.ROOT))
                    .description("Time the worker threads spent in each stage of the pipeline").register(registry);
        }
    }
}
