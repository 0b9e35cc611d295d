package io.tileseeder.runtime.distributed;

import io.tileseeder.adapters.redis.RedisTopology;
import io.tileseeder.job.Timeouts;
import io.tileseeder.runtime.SeederConfig;
import io.tileseeder.runtime.settings.Settings;
import java.time.Duration;
import java.util.Objects;

/**
 * Where the distributed mode's services are and how it names things in them.
 *
 * @param consumers      share consumers per worker process (each holds at most a small batch of tasks)
 * @param redis          the Redis deployment: standalone, Sentinel or Cluster
 * @param syncReplicas   replicas every write of a job record must reach before it counts
 * @param keyPrefix      prefix of every Redis key
 * @param retainFinished how long finished jobs stay in Redis
 * @param connectTimeout how long start-up waits for a service before it reports it unreachable
 * @param sessionTimeout the workers' share group's session timeout: how soon a dead worker's tasks go to others
 * @param expiryTopic    the tile-expiry topic the coordinators read, or null when they do not
 * @param expiry         how its events become reseed jobs (plain values: a worker has no coordinator classes)
 */
public record ClusterSettings(String kafkaBootstrap, String tasksTopic, String resultsTopic, String eventsTopic,
                              int partitions, String workerGroup, String coordinatorGroup, int consumers,
                              RedisTopology redis, int syncReplicas, String keyPrefix, Duration retainFinished,
                              Duration connectTimeout, Duration sessionTimeout, String expiryTopic,
                              Expiry expiry) {

    /** {@code seeder.expiry.*}: the merge window, the batches merging at once, the jobs' priority. */
    public record Expiry(Duration window, int maxBatches, int priority) {
    }

    public ClusterSettings {
        Objects.requireNonNull(kafkaBootstrap, "kafkaBootstrap");
        Objects.requireNonNull(redis, "redis");
        if (partitions < 1) {
            throw new IllegalArgumentException("seeder.kafka.partitions must be at least 1, got " + partitions);
        }
        if (syncReplicas < 0) {
            throw new IllegalArgumentException("seeder.redis.sync-replicas must not be negative, got " + syncReplicas);
        }
        if (sessionTimeout.isNegative() || sessionTimeout.isZero()) {
            throw new IllegalArgumentException("seeder.kafka.session-timeout must be positive, got "
                    + Timeouts.format(sessionTimeout));
        }
        if (consumers < 1) {
            throw new IllegalArgumentException("seeder.kafka.consumers must be at least 1, got " + consumers);
        }
    }

    /** The distributed mode's services in {@code config}; names the settings that are missing or wrong. */
    public static ClusterSettings from(SeederConfig config) {
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
            topology = RedisTopology.of(redis.mode(), redis.url().get(), redis.masterName().orElse(null));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("seeder.redis.mode, seeder.redis.url, seeder.redis.master-name "
                    + "(SEEDER_REDIS_MODE, SEEDER_REDIS_URL, SEEDER_REDIS_MASTER_NAME): " + e.getMessage(), e);
        }
        return new ClusterSettings(kafka.bootstrap().get(), kafka.tasksTopic(), kafka.resultsTopic(),
                kafka.eventsTopic(), kafka.partitions(), kafka.workerGroup(), kafka.coordinatorGroup(), consumers,
                topology, redis.syncReplicas(), redis.keyPrefix(), redis.retainFinished(), kafka.connectTimeout(),
                kafka.sessionTimeout(), config.expiry().enabled() ? kafka.expiryTopic() : null, new Expiry(
                        config.expiry().window(), config.expiry().maxBatches(), config.expiry().priority()));
    }
}
