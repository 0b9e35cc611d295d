package io.tileseeder.coordinator.job;

import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.JobLimits;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.TileFormat;
import io.tileseeder.message.TaskResult;
import io.tileseeder.message.TileCounts;
import io.tileseeder.plan.JobSpecValidator;
import io.tileseeder.plan.MetatilePlan;
import io.tileseeder.port.JobStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;

/** One layer of 1×1 metatiles, so that zooms 0 to n make 1 + 4 + … + 4^n tasks, and jobs of it in a store. */
final class JobFixtures {

    static final LayerCatalog LAYERS = LayerCatalog.of(new LayerInfo("world", "World", "", 0, 10,
            Set.of(TileMatrixSet.WEB_MERCATOR_QUAD), Set.of(TileFormat.PNG), new MetatileSize(1, 1)));
    static final JobSpecValidator VALIDATOR = new JobSpecValidator(LAYERS, new JobLimits(100_000_000, 32, 100_000, 100_000));

    private JobFixtures() {
    }

    static JobRequest world(int maxZoom) {
        return new JobRequest("world", null, new JobRequest.Zoom(0, maxZoom), null, null, null, null, null, null, null);
    }

    static JobRequest world(int maxZoom, int priority) {
        return new JobRequest("world", null, new JobRequest.Zoom(0, maxZoom), null, null, null, null, null, priority,
                null);
    }

    /** A job of zooms 0 to {@code maxZoom}, just submitted. */
    static JobStatus submitted(JobStore store, int maxZoom) {
        return submitted(store, maxZoom, 0);
    }

    /** A job of zooms 0 to {@code maxZoom} and this priority, just submitted. */
    static JobStatus submitted(JobStore store, int maxZoom, int priority) {
        JobSpec spec = VALIDATOR.validate(world(maxZoom, priority));
        return store.create(JobStatus.submitted(UUID.randomUUID().toString(), spec, MetatilePlan.of(spec).tileCount(), Instant.now(),
                null));
    }

    /** Shares that give every job {@code ahead} tasks (no rate is measured in these tests), whatever its priority. */
    static Shares fixedShares(JobStore store, int ahead) {
        return new Shares(store, Duration.ofSeconds(2), ahead, ahead, System::nanoTime);
    }

    static TaskResult succeeded(String jobId, long seq) {
        return new TaskResult(TaskResult.VERSION, jobId, seq, true, new TileCounts(1, 0, 0, 0, 0, 100, 0), null);
    }

    static TaskResult failed(String jobId, long seq, String error) {
        return new TaskResult(TaskResult.VERSION, jobId, seq, false, new TileCounts(0, 0, 0, 0, 1, 0, 0), error);
    }
}
