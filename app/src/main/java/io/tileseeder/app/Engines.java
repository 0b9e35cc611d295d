package io.tileseeder.app;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.LaunchMode;
import io.tileseeder.app.dryrun.DryRun;
import io.tileseeder.coordinator.job.JobService;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.port.TileStore;
import io.tileseeder.runtime.SeederConfig;
import io.tileseeder.runtime.distributed.ClusterSettings;
import io.tileseeder.runtime.health.Running;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.runtime.worker.RunningWorker;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Holds the {@link Engine} behind the API (embedded or a distributed coordinator, by {@code seeder.mode}), or a
 * distributed worker, as the command line starts it ({@code seeder serve --out …}), and produces the engine's
 * services for injection into the API's resources. The HTTP server answers before the command has started its
 * engine: until then those services are a 503 and readiness is DOWN. In Quarkus's dev and test modes, which run
 * no command, the engine starts on first use from {@link SeederConfig}.
 */
@Singleton
public class Engines {

    private final SeederConfig config;
    private final MeterRegistry metrics;
    private final Running running;
    private final RunningWorker worker;
    /** Written under the lock; read without it by every API request once started. */
    private volatile Engine engine;

    public Engines(SeederConfig config, MeterRegistry metrics, Running running, RunningWorker worker) {
        this.config = config;
        this.metrics = metrics;
        this.running = running;
        this.worker = worker;
    }

    /** The engine the command started; in Quarkus's dev and test modes started now if it was not. */
    public Engine engine() {
        Engine started = engine;
        if (started != null) {
            return started;
        }
        synchronized (this) {
            if (engine == null) {
                if (!LaunchMode.current().isDevOrTest()) {
                    throw new EngineNotStartedException();
                }
                started(open(settings()));
            }
            return engine;
        }
    }

    /** The job service of the engine, for the API: until the command has started it, a 503. */
    @Produces
    @Dependent
    JobService jobService() {
        return engine().jobs();
    }

    /** The layers of the engine, for the API. */
    @Produces
    @Dependent
    LayerCatalog layerCatalog() {
        return engine().layers();
    }

    /** The engine's tile store, for the API. */
    @Produces
    @Dependent
    TileStore tileStore() {
        return engine().store();
    }

    /** The engine's dry runs, for the API. */
    @Produces
    @Dependent
    DryRun dryRun() {
        return engine().dryRun();
    }

    /** Starts the engine of the configured mode with these settings; fails if it is running already. */
    public synchronized Engine start(Settings settings) {
        requireNothingRunning();
        return started(open(settings));
    }

    /** Starts the embedded engine whatever the mode ({@code seeder seed} seeds in-process). */
    public synchronized Engine startEmbedded(Settings settings) {
        requireNothingRunning();
        return started(Engine.embedded(settings, metrics));
    }

    /** Starts a distributed worker; needs the distributed mode's settings. */
    public synchronized void startWorker(Settings settings) {
        requireNothingRunning();
        worker.start(settings);
    }

    private Engine started(Engine started) {
        engine = started;
        running.started(started);
        return started;
    }

    private void requireNothingRunning() {
        if (running.monitored().isPresent()) {
            throw new IllegalStateException("the engine is running already");
        }
    }

    private Engine open(Settings settings) {
        return distributed() ? Engine.coordinator(settings, cluster(), metrics) : Engine.embedded(settings, metrics);
    }

    /** Whether {@code seeder.mode} is {@code distributed}. */
    public boolean distributed() {
        return config.mode() == SeederConfig.Mode.DISTRIBUTED;
    }

    /** The distributed mode's services; names the missing settings. */
    public ClusterSettings cluster() {
        return ClusterSettings.from(config);
    }

    /** The settings from configuration. */
    public Settings settings() {
        return Settings.from(config);
    }

    @PreDestroy
    synchronized void stop() {
        if (engine != null) {
            engine.close();
        }
    }
}
