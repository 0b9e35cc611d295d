package io.tileseeder.coordinator.embedded;

import io.tileseeder.coordinator.job.JobService;
import io.tileseeder.job.JobSpecValidator;
import io.tileseeder.worker.layer.LayerCatalogConfig;
import io.tileseeder.worker.layer.LayerCatalogFile;
import io.tileseeder.worker.lock.LocalMetatileLock;
import io.tileseeder.worker.queue.InMemoryTaskQueue;
import io.tileseeder.port.TileStore;
import io.tileseeder.worker.store.FileTileStore;
import io.tileseeder.worker.store.S3TileStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
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
    private final TileStore store;
    private final StageTimes times = new StageTimes();
    private final JobService jobs;
    private final TaskWorkers workers;

    private EmbeddedEngine(EngineSettings settings) {
        this.settings = settings;
        this.catalog = settings.layersFile().map(LayerCatalogFile::read).orElseGet(LayerCatalogFile::bundled);
        this.store = openStore(settings);
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

    /** A folder, or an S3 bucket for a store given as {@code s3://bucket/prefix}. */
    private static TileStore openStore(EngineSettings settings) {
        if (!settings.store().startsWith("s3://")) {
            return new FileTileStore(Path.of(settings.store()));
        }
        S3TileStore.Location location = S3TileStore.Location.parse(settings.store());
        EngineSettings.S3Connection s3 = settings.s3().orElseThrow(() -> new IllegalArgumentException(
                "the store " + settings.store() + " needs an S3 endpoint: set seeder.s3.endpoint, "
                        + "seeder.s3.access-key and seeder.s3.secret-key (SEEDER_S3_ENDPOINT, ...)"));
        try {
            return new S3TileStore(s3.endpoint(), s3.accessKey(), s3.secretKey(), s3.region(), location,
                    S3TileStore.Options.defaults());
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
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

    public TileStore store() {
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
        if (store instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new IllegalStateException("cannot close the store " + store.describe(), e);
            }
        }
    }
}
