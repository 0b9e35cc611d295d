package io.tileseeder.coordinator.embedded;

import io.tileseeder.coordinator.Engine;
import io.tileseeder.coordinator.job.JobService;
import io.tileseeder.job.JobSpecValidator;
import io.tileseeder.worker.layer.LayerCatalogConfig;
import io.tileseeder.worker.layer.LayerCatalogFile;
import io.tileseeder.worker.lock.LocalMetatileLock;
import io.tileseeder.worker.queue.InMemoryTaskQueue;
import io.tileseeder.port.TileStore;
import java.time.Duration;
import io.tileseeder.worker.task.LayerResources;
import io.tileseeder.worker.wms.WmsClient;
import io.tileseeder.worker.task.MetatileProcessor;
import io.tileseeder.worker.task.StageTimes;
import io.tileseeder.worker.task.TaskWorkers;
import java.time.Clock;

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
    private final StageTimes times = new StageTimes();
    private final JobService jobs;
    private final TaskWorkers workers;

    private EmbeddedEngine(EngineSettings settings) {
        this.settings = settings;
        this.catalog = settings.layersFile().map(LayerCatalogFile::read).orElseGet(LayerCatalogFile::bundled);
        this.store = settings.openStore();
        // Deliveries out at once: one per CPU thread plus one per store slot.
        InMemoryTaskQueue queue = new InMemoryTaskQueue(settings.queueCapacity(),
                settings.workerThreads() + settings.ioThreads());
        this.jobs = new JobService(catalog, new JobSpecValidator(catalog, settings.limits()),
                new InMemoryJobStore(Clock.systemUTC(), settings.retainJobs()), queue, store, event -> { },
                new LocalMetatileLock(), Clock.systemUTC(), settings.maxRunningJobs(), settings.maxWaiters(),
                settings.queueCapacity(), RECOVER_EVERY);
        MetatileProcessor processor = new MetatileProcessor(new LayerResources(catalog, new WmsClient(settings.wmsRequestsPerUpstream())), store,
                new LocalMetatileLock(), settings.lockWait(), times);
        this.workers = new TaskWorkers(queue, processor, jobs, jobs::isCancelled, settings.workerThreads(),
                settings.ioThreads(), settings.maxDeliveries(), settings.outageWait());
    }

    /** Reads the layers and starts the worker threads. */
    public static EmbeddedEngine start(EngineSettings settings) {
        return new EmbeddedEngine(settings);
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

    public StageTimes times() {
        return times;
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
