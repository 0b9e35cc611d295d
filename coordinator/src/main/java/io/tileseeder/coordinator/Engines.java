package io.tileseeder.coordinator;

import io.tileseeder.coordinator.embedded.EmbeddedEngine;
import io.tileseeder.coordinator.embedded.EngineSettings;
import io.tileseeder.job.JobLimits;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Holds the application's engine. It starts on first use from {@link SeederConfig}, unless the command line
 * started it first with its own options ({@code seeder serve --out …}).
 */
@Singleton
public class Engines {

    private final SeederConfig config;
    private EmbeddedEngine engine;

    public Engines(SeederConfig config) {
        this.config = config;
    }

    public synchronized EmbeddedEngine engine() {
        if (engine == null) {
            engine = EmbeddedEngine.start(settings());
        }
        return engine;
    }

    /** Starts the engine with these settings; fails if it is running already. */
    public synchronized EmbeddedEngine start(EngineSettings settings) {
        if (engine != null) {
            throw new IllegalStateException("the engine is running already");
        }
        engine = EmbeddedEngine.start(settings);
        return engine;
    }

    /** The settings from configuration. */
    public EngineSettings settings() {
        EngineSettings defaults = EngineSettings.defaults(config.store().path());
        Optional<EngineSettings.S3Connection> s3 = config.s3().endpoint().map(endpoint -> new EngineSettings.S3Connection(
                endpoint, config.s3().accessKey().orElse(""), config.s3().secretKey().orElse(""), config.s3().region()));
        return new EngineSettings(defaults.store(), s3, config.layers().file().map(Path::of),
                config.workers().threads().orElse(defaults.workerThreads()),
                config.store().ioThreads().orElse(defaults.ioThreads()), config.workers().queueCapacity(),
                config.workers().maxDeliveries(), config.workers().lockWait(),
                new JobLimits(config.limits().maxTilesPerJob(), config.limits().maxLabels()),
                config.limits().maxRunningJobs(), config.limits().maxWaiters(), config.limits().retainJobs());
    }

    @PreDestroy
    synchronized void stop() {
        if (engine != null) {
            engine.close();
        }
    }
}
