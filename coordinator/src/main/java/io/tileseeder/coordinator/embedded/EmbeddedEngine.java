package io.tileseeder.coordinator.embedded;

import io.tileseeder.coordinator.job.JobService;
import io.tileseeder.job.JobSpecValidator;
import io.tileseeder.worker.layer.LayerCatalogConfig;
import io.tileseeder.worker.layer.LayerCatalogFile;
import io.tileseeder.worker.lock.LocalMetatileLock;
import io.tileseeder.worker.store.FileTileStore;
import io.tileseeder.worker.task.LayerResources;
import io.tileseeder.worker.task.MetatileProcessor;
import io.tileseeder.worker.task.StageTimes;
import io.tileseeder.worker.task.TaskWorkers;
import java.time.Clock;

/**
 * Coordinator and worker engine in one JVM with the embedded adapters: an in-memory bounded queue,
 * in-process metatile locks, in-memory job records and tiles on the local filesystem. Same planner, same
 * pipeline, same API as the distributed mode.
 */
public final class EmbeddedEngine implements AutoCloseable {

    private final EngineSettings settings;
    private final LayerCatalogConfig catalog;
    private final FileTileStore store;
    private final StageTimes times = new StageTimes();
    private final JobService jobs;
    private final TaskWorkers workers;

    private EmbeddedEngine(EngineSettings settings) {
        this.settings = settings;
        this.catalog = settings.layersFile().map(LayerCatalogFile::read).orElseGet(LayerCatalogFile::bundled);
        this.store = new FileTileStore(settings.storeRoot());
        // Deliveries out at once: one per CPU thread plus one per store slot.
        InMemoryTaskQueue queue = new InMemoryTaskQueue(settings.queueCapacity(),
                settings.workerThreads() + settings.ioThreads());
        this.jobs = new JobService(catalog, new JobSpecValidator(catalog, settings.limits()),
                new InMemoryJobStore(Clock.systemUTC(), settings.retainJobs()), queue, store, Clock.systemUTC(),
                settings.maxRunningJobs(), settings.maxWaiters());
        MetatileProcessor processor = new MetatileProcessor(new LayerResources(catalog), store,
                new LocalMetatileLock(), settings.lockWait(), times);
        this.workers = new TaskWorkers(queue, processor, jobs, jobs::isCancelled, settings.workerThreads(),
                settings.ioThreads(), settings.maxDeliveries());
    }

    /** Reads the layers and starts the worker threads. */
    public static EmbeddedEngine start(EngineSettings settings) {
        return new EmbeddedEngine(settings);
    }

    public EngineSettings settings() {
        return settings;
    }

    public LayerCatalogConfig layers() {
        return catalog;
    }

    public FileTileStore store() {
        return store;
    }

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
    }
}
