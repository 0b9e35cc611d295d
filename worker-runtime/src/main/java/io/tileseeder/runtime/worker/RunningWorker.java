package io.tileseeder.runtime.worker;

import io.micrometer.core.instrument.MeterRegistry;
import io.tileseeder.runtime.SeederConfig;
import io.tileseeder.runtime.distributed.ClusterSettings;
import io.tileseeder.runtime.health.Running;
import io.tileseeder.runtime.settings.Settings;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

/**
 * The distributed worker this process runs (the worker application's, or {@code seeder worker}'s), drained when
 * Quarkus shuts down (SIGTERM): the tasks at work finish and report within the drain timeout while the application
 * is still up, before the JVM exits.
 */
@Singleton
public class RunningWorker {

    private final SeederConfig config;
    private final MeterRegistry registry;
    private final Running running;
    private WorkerProcess worker;

    public RunningWorker(SeederConfig config, MeterRegistry registry, Running running) {
        this.config = config;
        this.registry = registry;
        this.running = running;
    }

    /** Connects and starts taking tasks with the configured settings; throws naming what is wrong. */
    public void start() {
        start(Settings.from(config));
    }

    /** As {@link #start()}, with {@code settings} (the command line's overrides applied). */
    public synchronized void start(Settings settings) {
        worker = WorkerProcess.start(settings, ClusterSettings.from(config), registry);
        running.started(worker);
    }

    @PreDestroy
    synchronized void stop() {
        if (worker != null) {
            worker.close();
        }
    }
}
