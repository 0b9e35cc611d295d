package io.tileseeder.app;

import io.tileseeder.app.health.Monitored;
import io.tileseeder.coordinator.job.JobService;
import io.tileseeder.port.TileStore;
import io.tileseeder.worker.layer.LayerCatalogConfig;

/**
 * What the REST API and the command line run on: the embedded engine (coordinator and workers in this JVM) or
 * a distributed coordinator (workers elsewhere, state in Redis, tasks on Kafka). Chosen by {@code seeder.mode}.
 */
public interface Engine extends Monitored, AutoCloseable {

    JobService jobs();

    LayerCatalogConfig layers();

    TileStore store();

    @Override
    void close();
}
