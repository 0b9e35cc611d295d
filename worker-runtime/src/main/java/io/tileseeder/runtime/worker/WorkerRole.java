package io.tileseeder.runtime.worker;

import io.micrometer.core.instrument.MeterRegistry;
import io.tileseeder.layer.LayerCatalogConfig;
import io.tileseeder.port.TileStore;
import io.tileseeder.render.LayerResources;
import io.tileseeder.render.wms.WmsClient;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.runtime.settings.Settings.WorkerSettings;
import io.tileseeder.runtime.wiring.Adapters;
import io.tileseeder.runtime.wiring.ArchivePacking;
import io.tileseeder.runtime.wiring.Role;
import io.tileseeder.runtime.wiring.Stores;
import io.tileseeder.worker.task.MetatileProcessor;
import io.tileseeder.worker.task.TaskWorkers;
import io.tileseeder.worker.task.WorkerMetrics;
import java.nio.file.Path;
import java.util.List;

/** The metatile pipeline over a set of adapters: the same in the embedded and the distributed mode. */
public final class WorkerRole implements Role {

    private final WorkerMetrics metrics;
    private final TaskWorkers workers;

    /** @param all the settings: the workers', and the clouds' for a pack into a bucket */
    public WorkerRole(Adapters adapters, LayerCatalogConfig layers, Settings all, MeterRegistry registry) {
        WorkerSettings settings = all.workers();
        TileStore store = adapters.store();
        WmsClient wms = new WmsClient(settings.wmsRequestsPerUpstream(), settings.wmsClusterRequestsPerUpstream(),
                adapters.upstreams(), settings.wmsAdaptive());
        this.metrics = new WorkerMetrics(registry)
                .watchStoreRetries(() -> Stores.retries(store)).watch(layers, wms);
        MetatileProcessor processor = new MetatileProcessor(new LayerResources(layers, wms), store, adapters.locks(),
                settings.lockWait(), metrics, new ArchivePacking(all, store, ArchivePacking.READERS,
                        Path.of(System.getProperty("java.io.tmpdir"))));
        this.workers = new TaskWorkers(adapters.workerTasks(), processor, adapters.results(), adapters.gate(),
                settings.threads(), settings.storeThreads(), settings.maxDeliveries(), adapters.outages(),
                settings.drainTimeout());
    }

    public WorkerMetrics metrics() {
        return metrics;
    }

    /** The pipeline's threads that died. */
    @Override
    public List<String> deadLoops() {
        return workers.deadThreads().stream().map(thread -> "worker thread " + thread).toList();
    }

    /** Stops taking tasks, finishes those at work for at most the drain timeout, gives back the rest. */
    @Override
    public void close() {
        workers.close();
    }
}
