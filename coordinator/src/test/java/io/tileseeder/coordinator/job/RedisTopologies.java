package io.tileseeder.coordinator.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.worker.lock.RedisTopology;

/** The Redis deployments of {@code dev/services}, from the variables of {@code .dev/services.env}. */
final class RedisTopologies {

    private RedisTopologies() {
    }

    static String env(String name) {
        String value = System.getenv(name);
        assertThat(value).as(name + " (run 'dev/services up --redis-topologies' and source .dev/services.env)")
                .isNotBlank();
        return value;
    }

    /** The three-master Redis Cluster. */
    static RedisTopology cluster() {
        return RedisTopology.of(RedisTopology.Mode.CLUSTER, env("SEEDER_REDIS_CLUSTER_NODES"), null);
    }

    /** The master and replica behind three sentinels. */
    static RedisTopology sentinel() {
        return RedisTopology.of(RedisTopology.Mode.SENTINEL, env("SEEDER_REDIS_SENTINEL_NODES"),
                env("SEEDER_REDIS_SENTINEL_MASTER"));
    }
}
