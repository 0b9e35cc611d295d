package io.tileseeder.runtime.worker;

import io.micrometer.core.instrument.MeterRegistry;
import io.tileseeder.layer.LayerCatalogConfig;
import io.tileseeder.runtime.distributed.ClusterAdapters;
import io.tileseeder.runtime.distributed.ClusterSettings;
import io.tileseeder.runtime.health.Monitored;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.runtime.wiring.Adapters;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A worker of the distributed mode: the Kafka, Redis and store adapters, and the metatile pipeline over them. */
public final class WorkerProcess implements Monitored, AutoCloseable {

    private final Adapters adapters;
    private final WorkerRole worker;

    private WorkerProcess(Adapters adapters, WorkerRole worker) {
        this.adapters = adapters;
        this.worker = worker;
    }

    /**
     * Reads the layers first, so that a broken layer file is named before any connection is made, then connects
     * and starts taking tasks.
     */
    public static WorkerProcess start(Settings settings, ClusterSettings cluster, MeterRegistry registry) {
        LayerCatalogConfig layers = settings.layers();
        Adapters adapters = ClusterAdapters.open(settings.store(), settings.outageBudget(), cluster);
        try {
            return new WorkerProcess(adapters, new WorkerRole(adapters, layers, settings, registry));
        } catch (RuntimeException e) {
            adapters.close();
            throw e;
        }
    }

    @Override
    public Map<String, Probe> dependencies() {
        return adapters.dependencies();
    }

    @Override
    public List<String> deadLoops() {
        List<String> dead = new ArrayList<>(adapters.deadLoops());
        dead.addAll(worker.deadLoops());
        return dead;
    }

    /** Stops taking tasks, lets those at work finish within the drain timeout, then closes the adapters. */
    @Override
    public void close() {
        try {
            worker.close();
        } finally {
            adapters.close();
        }
    }
}
