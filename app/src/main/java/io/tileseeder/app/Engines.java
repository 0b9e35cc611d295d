package io.tileseeder.app;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.LaunchMode;
import io.tileseeder.adapters.redis.RedisTopology;
import io.tileseeder.app.distributed.ClusterSettings;
import io.tileseeder.app.health.Monitored;
import io.tileseeder.app.settings.Settings;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * Holds what this process runs: an {@link Engine} behind the API (embedded or a distributed coordinator, by
 * {@code seeder.mode}), or a distributed worker, as the command line starts it ({@code seeder serve --out …}).
 * The HTTP server answers before the command has started its engine: until then the API answers 503 and
 * readiness is DOWN. In Quarkus's dev and test modes, which run no command, the engine starts on first use from
 * {@link SeederConfig}.
 */
@Singleton
public class Engines {

    private final SeederConfig config;
    private final MeterRegistry metrics;
    /** Written under the lock, read without it by health, which must answer while an engine is starting. */
    private volatile Engine engine;
    private volatile Engine worker;

    public Engines(SeederConfig config, MeterRegistry metrics) {
        this.config = config;
        this.metrics = metrics;
    }

    public synchronized Engine engine() {
        if (engine == null) {
            if (!LaunchMode.current().isDevOrTest()) {
                throw new EngineNotStartedException();
            }
            engine = open(settings());
        }
        return engine;
    }

    /** The engine or worker running, for health; never waits for one that is starting. */
    public Optional<Monitored> monitored() {
        Engine running = engine;
        return Optional.ofNullable(running != null ? running : worker);
    }

    /** Whether an engine or a worker runs: what readiness reports. */
    public synchronized boolean running() {
        return engine != null || worker != null;
    }

    /** Starts the engine of the configured mode with these settings; fails if it is running already. */
    public synchronized Engine start(Settings settings) {
        requireNothingRunning();
        engine = open(settings);
        return engine;
    }

    /** Starts the embedded engine whatever the mode ({@code seeder seed} seeds in-process). */
    public synchronized Engine startEmbedded(Settings settings) {
        requireNothingRunning();
        engine = Engine.embedded(settings, metrics);
        return engine;
    }

    /** Starts a distributed worker; needs the distributed mode's settings. */
    public synchronized Engine startWorker(Settings settings) {
        requireNothingRunning();
        worker = Engine.worker(settings, cluster(), metrics);
        return worker;
    }

    private void requireNothingRunning() {
        if (engine != null || worker != null) {
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
        return cluster(config);
    }

    /** The distributed mode's services in {@code config}; also for the benchmarks, which run without Quarkus. */
    public static ClusterSettings cluster(SeederConfig config) {
        SeederConfig.Kafka kafka = config.kafka();
        SeederConfig.Redis redis = config.redis();
        if (kafka.bootstrap().isEmpty() || redis.url().isEmpty()) {
            throw new IllegalArgumentException("the distributed mode needs Kafka and Redis: set seeder.kafka.bootstrap "
                    + "(SEEDER_KAFKA_BOOTSTRAP, e.g. 127.0.0.1:9092) and seeder.redis.url (SEEDER_REDIS_URL, e.g. "
                    + "redis://127.0.0.1:6379)");
        }
        int consumers = kafka.consumers().orElse(Settings.defaultThreads());
        RedisTopology topology;
        try {
            topology = RedisTopology.of(redis.mode(), redis.url().get(),
                    redis.masterName().orElse(null));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("seeder.redis.mode, seeder.redis.url, seeder.redis.master-name "
                    + "(SEEDER_REDIS_MODE, SEEDER_REDIS_URL, SEEDER_REDIS_MASTER_NAME): " + e.getMessage(), e);
        }
        return new ClusterSettings(kafka.bootstrap().get(), kafka.tasksTopic(), kafka.resultsTopic(), kafka.eventsTopic(),
                kafka.partitions(), kafka.workerGroup(), kafka.coordinatorGroup(), consumers, topology,
                redis.syncReplicas(), redis.keyPrefix(), redis.retainFinished(), kafka.connectTimeout(),
                kafka.sessionTimeout(),
                config.expiry().enabled() ? kafka.expiryTopic() : null, new ClusterSettings.Expiry(
                        config.expiry().window(), config.expiry().maxBatches(), config.expiry().priority()));
    }

    /** The settings from configuration. */
    public Settings settings() {
        return Settings.from(config);
    }

    @PreDestroy
    synchronized void stop() {
        if (worker != null) {
            worker.close();
        }
        if (engine != null) {
            engine.close();
        }
    }
}
