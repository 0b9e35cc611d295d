package io.tileseeder.coordinator.distributed;

import io.micrometer.core.instrument.MeterRegistry;
import io.tileseeder.coordinator.embedded.EngineSettings;
import io.tileseeder.coordinator.job.RedisJobStore;
import io.tileseeder.job.JobState;
import io.tileseeder.port.TileStore;
import io.tileseeder.worker.layer.LayerCatalogConfig;
import io.tileseeder.worker.queue.KafkaResultSink;
import io.tileseeder.worker.queue.KafkaTaskQueue;
import io.tileseeder.worker.task.LayerResources;
import io.tileseeder.worker.wms.WmsClient;
import io.tileseeder.worker.task.MetatileProcessor;
import io.tileseeder.worker.task.WorkerMetrics;
import io.tileseeder.worker.task.TaskWorkers;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Predicate;

/**
 * A worker process of the distributed mode: takes metatile tasks from the Kafka share group, locks each
 * metatile in Redis, renders, encodes and stores its tiles, then publishes the result to Kafka and only then
 * accepts the task. Bounded: {@code workerThreads} render at once, {@code ioThreads} store at once, and the
 * share consumers hold at most a small batch each.
 */
public final class DistributedWorker implements AutoCloseable {

    private final Services services;
    private final LayerCatalogConfig catalog;
    private final TileStore store;
    private final TaskWorkers workers;

    private DistributedWorker(EngineSettings settings, ClusterSettings cluster, Services services,
                              MeterRegistry registry) {
        this.services = services;
        this.catalog = services.layers();
        this.store = services.store();
        KafkaResultSink results = services.add(new KafkaResultSink(services.producerTo(cluster.resultsTopic())));
        KafkaTaskQueue tasks = services.tasks(cluster.consumers());
        WmsClient wms = new WmsClient(settings.wmsRequestsPerUpstream());
        MetatileProcessor processor = new MetatileProcessor(new LayerResources(catalog, wms), store, services.locks(),
                settings.lockWait(), new WorkerMetrics(registry).watch(store).watch(catalog, wms));
        this.workers = services.add(new TaskWorkers(tasks, processor, results, new CancelledJobs(services.records()),
                settings.workerThreads(), settings.ioThreads(), settings.maxDeliveries(), settings.outageWait(),
                settings.drainTimeout()));
    }

    /** Connects to Kafka, Redis and the store, and starts taking tasks; its meters go to {@code registry}. */
    public static DistributedWorker start(EngineSettings settings, ClusterSettings cluster, MeterRegistry registry) {
        return Services.open(settings, cluster, services -> new DistributedWorker(settings, cluster, services, registry));
    }

    public TileStore store() {
        return store;
    }

    public LayerCatalogConfig layers() {
        return catalog;
    }

    /**
     * Stops taking tasks, finishes those at work for at most the drain timeout, gives back the rest; then
     * disconnects.
     */
    @Override
    public void close() {
        services.close();
    }

    /**
     * Whether a job was cancelled or is unknown (its record expired, or Redis lost it), from Redis, remembered for
     * a moment: every task asks, and the answer may be a second late (a task of a cancelled job stored anyway is
     * harmless). A job's record exists before any of its tasks is planned, so an unknown job's tasks are dropped
     * as a cancelled job's are: nobody would count their results. Bounded: cleared when it grows past
     * {@link #MAX_JOBS} jobs.
     */
    private static final class CancelledJobs implements Predicate<String> {
        private static final int MAX_JOBS = 1024;
        private static final long FRESH_NANOS = Duration.ofSeconds(1).toNanos();

        private record Known(boolean cancelled, long at) {
        }

        private final RedisJobStore records;
        private final ConcurrentMap<String, Known> known = new ConcurrentHashMap<>();

        CancelledJobs(RedisJobStore records) {
            this.records = records;
        }

        @Override
        public boolean test(String jobId) {
            long now = System.nanoTime();
            Known k = known.get(jobId);
            if (k == null || now - k.at() > FRESH_NANOS) {
                if (known.size() >= MAX_JOBS) {
                    known.clear();
                }
                k = new Known(records.state(jobId).map(state -> state == JobState.CANCELLED).orElse(true), now);
                known.put(jobId, k);
            }
            return k.cancelled();
        }
    }
}
