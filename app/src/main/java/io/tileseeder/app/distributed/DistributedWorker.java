package io.tileseeder.app.distributed;

import io.micrometer.core.instrument.MeterRegistry;
import io.tileseeder.adapters.kafka.KafkaResultSink;
import io.tileseeder.adapters.kafka.KafkaTaskQueue;
import io.tileseeder.adapters.s3.S3TileStore;
import io.tileseeder.app.embedded.EngineSettings;
import io.tileseeder.app.health.Monitored;
import io.tileseeder.port.TileStore;
import io.tileseeder.worker.layer.LayerCatalogConfig;
import io.tileseeder.worker.task.LayerResources;
import io.tileseeder.worker.task.MetatileProcessor;
import io.tileseeder.worker.task.TaskWorkers;
import io.tileseeder.worker.task.WorkerMetrics;
import io.tileseeder.worker.wms.WmsClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A worker process of the distributed mode: takes metatile tasks from the Kafka share group, locks each
 * metatile in Redis, renders, encodes and stores its tiles, then publishes the result to Kafka and only then
 * accepts the task. Bounded: {@code workerThreads} render at once, {@code ioThreads} store at once, and the
 * share consumers hold at most a small batch each.
 */
public final class DistributedWorker implements Monitored, AutoCloseable {

    private final Services services;
    private final LayerCatalogConfig catalog;
    private final TileStore store;
    private final TaskWorkers workers;
    private final KafkaTaskQueue tasks;

    private DistributedWorker(EngineSettings settings, ClusterSettings cluster, Services services,
                              MeterRegistry registry) {
        this.services = services;
        this.catalog = services.layers();
        this.store = services.store();
        KafkaResultSink results = services.add(new KafkaResultSink(services.producerTo(cluster.resultsTopic())));
        this.tasks = services.tasks(cluster.consumers());
        WmsClient wms = new WmsClient(settings.wmsRequestsPerUpstream());
        MetatileProcessor processor = new MetatileProcessor(new LayerResources(catalog, wms), store, services.locks(),
                settings.lockWait(), new WorkerMetrics(registry).watchStoreRetries(() -> store instanceof S3TileStore s3 ? s3.retries() : 0).watch(catalog, wms));
        this.workers = services.add(new TaskWorkers(tasks, processor, results, services.gate(),
                settings.workerThreads(), settings.ioThreads(), settings.maxDeliveries(), services.outages(),
                settings.drainTimeout()));
    }

    /** Connects to Kafka, Redis and the store, and starts taking tasks; its meters go to {@code registry}. */
    public static DistributedWorker start(EngineSettings settings, ClusterSettings cluster, MeterRegistry registry) {
        return Services.open(settings, cluster, services -> new DistributedWorker(settings, cluster, services, registry));
    }

    @Override
    public Map<String, Probe> dependencies() {
        return services.probes();
    }

    @Override
    public List<String> deadLoops() {
        List<String> dead = new ArrayList<>();
        tasks.consumerFailure().ifPresent(failure -> dead.add("a Kafka task consumer: " + failure));
        workers.deadThreads().forEach(thread -> dead.add("worker thread " + thread));
        return dead;
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
}
