package io.tileseeder.adapters.redis;

/**
 * {@link RedissonMetatileLockIT} on the Redis Cluster of {@code dev/services} ({@code SEEDER_REDIS_CLUSTER_NODES},
 * three masters): each lock is one key, so the metatiles' locks spread over the masters.
 */
class RedissonMetatileLockClusterIT extends RedissonMetatileLockIT {

    @Override
    RedisTopology topology() {
        return RedisTopology.of(RedisTopology.Mode.CLUSTER, env("SEEDER_REDIS_CLUSTER_NODES"), null);
    }
}
