package io.tileseeder.adapters.redis;


/**
 * {@link RedisJobStoreIT} on the Redis Cluster of {@code dev/services} (three masters): every script touches the
 * keys of one hash slot, and the batches are split by node.
 */
class RedisJobStoreClusterIT extends RedisJobStoreIT {

    @Override
    RedisTopology topology() {
        return RedisTopologies.cluster();
    }
}
