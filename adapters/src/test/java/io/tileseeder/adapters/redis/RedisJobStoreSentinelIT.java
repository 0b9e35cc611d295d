package io.tileseeder.adapters.redis;


/** {@link RedisJobStoreIT} on the master that the sentinels of {@code dev/services} name. */
class RedisJobStoreSentinelIT extends RedisJobStoreIT {

    @Override
    RedisTopology topology() {
        return RedisTopologies.sentinel();
    }
}
