package io.tileseeder.app.embedded;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tileseeder.adapters.memory.InMemoryJobStore;
import io.tileseeder.adapters.memory.InMemoryTaskQueue;
import io.tileseeder.adapters.memory.LocalJobGate;
import io.tileseeder.adapters.memory.LocalMetatileLock;
import io.tileseeder.adapters.s3.S3TileStore;
import io.tileseeder.app.Engine;
import io.tileseeder.coordinator.job.CoordinatorSettings;
import io.tileseeder.coordinator.job.JobService;
import io.tileseeder.job.JobSpecValidator;
import io.tileseeder.outage.Outages;
import io.tileseeder.port.TileStore;
import io.tileseeder.worker.layer.LayerCatalogConfig;
import io.tileseeder.worker.layer.LayerCatalogFile;
import io.tileseeder.worker.task.LayerResources;
import io.tileseeder.worker.task.MetatileProcessor;
import io.tileseeder.worker.task.TaskWorkers;
import io.tileseeder.worker.task.WorkerMetrics;
import io.tileseeder.worker.wms.WmsClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Coordinator and worker engine in one JVM with the embedded adapters: an in-memory bounded queue,
 * in-process metatile locks, in-memory job records and tiles on the local filesystem. Same planner, same
 * pipeline, same API as the distributed mode.
 */
public final class EmbeddedEngine implements Engine {

    /** Nothing outlives this JVM's job records, so recovery only ever finds this process's own jobs. */
    private static final Duration RECOVER_EVERY = Duration.ofSeconds(10);

    private final EngineSettings settings;
    private final LayerCatalogConfig catalog;
    private final TileStore store;
    private final WorkerMetrics metrics;
    private final Outages outages;
    private final JobService jobs;
    private final TaskWorkers workers;

    private EmbeddedEngine(EngineSettings settings, MeterRegistry registry) {
        this.settings = settings;
        this.catalog = settings.layersFile().map(LayerCatalogFile::read).orElseGet(LayerCatalogFile::bundled);
        this.store = settings.openStore();
        // Deliveries out at once: one per CPU thread plus one per store slot.
        InMemoryTaskQueue queue = new InMemoryTaskQueue(settings.queueCapacity(),
                settings.workerThreads() + settings.ioThreads());
        InMemoryJobStore records = new InMemoryJobStore(Clock.systemUTC(), settings.retainJobs());
        LocalJobGate gate = new LocalJobGate(records);
        this.outages = new Outages(settings.outageBudget(), Clock.systemUTC());
        this.jobs = new JobService(catalog, new JobSpecValidator(catalog, settings.limits()), records, queue, store,
                event -> { }, new LocalMetatileLock(), gate, outages, Clock.systemUTC(), new CoordinatorSettings(
                settings.maxRunningJobs(), settings.maxWaiters(), settings.queueCapacity(), RECOVER_EVERY), registry);
        WmsClient wms = new WmsClient(settings.wmsRequestsPerUpstream());
        this.metrics = new WorkerMetrics(registry).watchStoreRetries(() -> store instanceof S3TileStore s3 ? s3.retries() : 0).watch(catalog, wms);
        MetatileProcessor processor = new MetatileProcessor(new LayerResources(catalog, wms), store,
                new LocalMetatileLock(), settings.lockWait(), metrics);
        this.workers = new TaskWorkers(queue, processor, jobs, gate, settings.workerThreads(), settings.ioThreads(),
                settings.maxDeliveries(), outages, settings.drainTimeout());
    }

    /** Reads the layers and starts the worker threads, with meters of its own (nobody scrapes them). */
    public static EmbeddedEngine start(EngineSettings settings) {
        return start(settings, new SimpleMeterRegistry());
    }

    /** Reads the layers and starts the worker threads, with the coordinator's and workers' meters in {@code registry}. */
    public static EmbeddedEngine start(EngineSettings settings, MeterRegistry registry) {
        return new EmbeddedEngine(settings, registry);
    }

    public EngineSettings settings() {
        return settings;
    }

    @Override
    public LayerCatalogConfig layers() {
        return catalog;
    }

    @Override
    public TileStore store() {
        return store;
    }

    @Override
    public JobService jobs() {
        return jobs;
    }

    @Override
    public Map<String, Probe> dependencies() {
        return Map.of(STORE, store::probe);
    }

    @Override
    public List<String> deadLoops() {
        List<String> dead = new ArrayList<>(jobs.deadLoops());
        workers.deadThreads().forEach(thread -> dead.add("worker thread " + thread));
        return dead;
    }

    public WorkerMetrics metrics() {
        return metrics;
    }

    @Override
    public void close() {
        workers.close();
        jobs.close();
        if (store instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new IllegalStateException("cannot close the store " + store.describe(), e);
            }
        }
    }
}
