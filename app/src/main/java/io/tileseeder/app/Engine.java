package io.tileseeder.app;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tileseeder.app.distributed.ClusterAdapters;
import io.tileseeder.app.distributed.ClusterSettings;
import io.tileseeder.app.dryrun.DryRun;
import io.tileseeder.app.embedded.LocalAdapters;
import io.tileseeder.app.health.Monitored;
import io.tileseeder.app.settings.Settings;
import io.tileseeder.app.wiring.Adapters;
import io.tileseeder.app.wiring.CoordinatorRole;
import io.tileseeder.app.wiring.WorkerRole;
import io.tileseeder.coordinator.job.JobService;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.layer.LayerCatalogConfig;
import io.tileseeder.layer.LayerCatalogFile;
import io.tileseeder.port.TileStore;
import io.tileseeder.worker.task.WorkerMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What one process runs: a set of adapters, and the coordinator's job lifecycle, the worker's pipeline or both
 * on it. The embedded mode is both roles on the in-process adapters; {@code seeder serve} in the distributed mode
 * is the coordinator and {@code seeder worker} the worker, each on the Kafka, Redis and S3 adapters. Nothing else
 * tells the modes apart.
 */
public final class Engine implements Monitored, AutoCloseable {

    private final Settings settings;
    private final LayerCatalogConfig layers;
    private final Adapters adapters;
    /** Null in a worker process. */
    private final CoordinatorRole coordinator;
    /** Null in a distributed coordinator. */
    private final WorkerRole worker;
    /** Null in a worker process. */
    private final DryRun dryRun;

    private Engine(Settings settings, LayerCatalogConfig layers, Adapters adapters, boolean coordinates,
                   boolean works, MeterRegistry registry) {
        this.settings = settings;
        this.layers = layers;
        this.adapters = adapters;
        this.coordinator = coordinates ? new CoordinatorRole(adapters, layers, settings.jobs(), registry) : null;
        this.dryRun = coordinates ? new DryRun(layers, settings.workers().wmsRequestsPerUpstream(),
                settings.jobs().dryRunSamples(), settings.workers().threads()) : null;
        try {
            this.worker = works ? new WorkerRole(adapters, layers, settings.workers(), registry) : null;
        } catch (RuntimeException e) {
            if (coordinator != null) {
                coordinator.close();
            }
            throw e;
        }
    }

    /** Coordinator and workers in this JVM, with meters of their own (nobody scrapes them). */
    public static Engine embedded(Settings settings) {
        return embedded(settings, new SimpleMeterRegistry());
    }

    /** Coordinator and workers in this JVM, their meters in {@code registry}. */
    public static Engine embedded(Settings settings, MeterRegistry registry) {
        return start(settings, () -> new LocalAdapters(settings), true, true, registry);
    }

    /** A distributed coordinator: connects to Kafka, Redis and the store, and starts consuming results. */
    public static Engine coordinator(Settings settings, ClusterSettings cluster, MeterRegistry registry) {
        return start(settings, () -> ClusterAdapters.open(settings.store(), settings.outageBudget(), cluster), true,
                false, registry);
    }

    /** A distributed worker: connects to Kafka, Redis and the store, and starts taking tasks. */
    public static Engine worker(Settings settings, ClusterSettings cluster, MeterRegistry registry) {
        return start(settings, () -> ClusterAdapters.open(settings.store(), settings.outageBudget(), cluster), false,
                true, registry);
    }

    /** Reads the layers first, so that a broken layer file is named before any connection is made. */
    private static Engine start(Settings settings, Supplier<Adapters> open, boolean coordinates, boolean works,
                                MeterRegistry registry) {
        LayerCatalogConfig layers = settings.layersFile().map(LayerCatalogFile::read)
                .orElseGet(LayerCatalogFile::bundled);
        Adapters adapters = open.get();
        try {
            return new Engine(settings, layers, adapters, coordinates, works, registry);
        } catch (RuntimeException e) {
            adapters.close();
            throw e;
        }
    }

    public Settings settings() {
        return settings;
    }

    /** The job service; a worker process has none. */
    public JobService jobs() {
        if (coordinator == null) {
            throw new IllegalStateException("a worker process runs no job service");
        }
        return coordinator.jobs();
    }

    /** Estimates jobs without running them; a worker process has none. */
    public DryRun dryRun() {
        if (dryRun == null) {
            throw new IllegalStateException("a worker process runs no dry runs");
        }
        return dryRun;
    }

    public LayerCatalog layers() {
        return layers;
    }

    public TileStore store() {
        return adapters.store();
    }

    /** The pipeline's meters; a distributed coordinator has no pipeline. */
    public WorkerMetrics metrics() {
        if (worker == null) {
            throw new IllegalStateException("a distributed coordinator runs no workers");
        }
        return worker.metrics();
    }

    @Override
    public Map<String, Probe> dependencies() {
        return adapters.dependencies();
    }

    @Override
    public List<String> deadLoops() {
        List<String> dead = new ArrayList<>();
        if (coordinator != null) {
            dead.addAll(coordinator.jobs().deadLoops());
        }
        dead.addAll(adapters.deadLoops());
        if (worker != null) {
            dead.addAll(worker.deadLoops());
        }
        return dead;
    }

    /**
     * Stops the workers first (they finish what they hold within the drain timeout, publishing through the
     * adapters), then the coordinator, then closes the adapters.
     */
    @Override
    public void close() {
        try {
            if (worker != null) {
                worker.close();
            }
        } finally {
            try {
                if (coordinator != null) {
                    coordinator.close();
                }
            } finally {
                adapters.close();
            }
        }
    }
}
