package io.tileseeder.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.LaunchMode;
import io.tileseeder.coordinator.job.JobService;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.port.TileStore;
import io.tileseeder.runtime.SeederConfig;
import io.tileseeder.runtime.health.Running;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.server.api.JobWaits;
import io.tileseeder.server.dryrun.DryRun;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Holds the {@link Engine} behind the API (a distributed coordinator, or in the seeder command line the embedded
 * engine, as its {@link EngineOpener} opens them), as the application's command or main starts it, and produces the
 * engine's services for injection into the API's resources. The HTTP server answers before the engine has started:
 * until then those services are a 503 and readiness is DOWN. In Quarkus's dev and test modes, which run no command,
 * the engine starts on first use from {@link SeederConfig}.
 */
@Singleton
public class Engines {

    private final SeederConfig config;
    private final MeterRegistry metrics;
    private final Running running;
    private final EngineOpener opener;
    /** Written under the lock; read without it by every API request once started. */
    private volatile Engine engine;

    public Engines(SeederConfig config, MeterRegistry metrics, Running running, EngineOpener opener) {
        this.config = config;
        this.metrics = metrics;
        this.running = running;
        this.opener = opener;
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
                started(opener.open(settings(), metrics));
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

    /** What the engine's jobs wait for, for the API's views of them. */
    @Produces
    @Dependent
    JobWaits jobWaits() {
        return engine()::waitingFor;
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

    /** Starts the engine of the configured mode with these settings; fails if anything runs already. */
    public Engine start(Settings settings) {
        return start(settings, opener);
    }

    /** Starts the engine {@code open} opens ({@code seeder seed}: the embedded one whatever the mode). */
    public synchronized Engine start(Settings settings, EngineOpener open) {
        requireNothingRunning();
        return started(open.open(settings, metrics));
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

    /** Whether {@code seeder.mode} is {@code distributed}. */
    public boolean distributed() {
        return config.mode() == SeederConfig.Mode.DISTRIBUTED;
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
