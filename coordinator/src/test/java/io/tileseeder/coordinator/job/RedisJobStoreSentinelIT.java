package io.tileseeder.coordinator.job;

import io.tileseeder.worker.lock.RedisTopology;

/** {@link RedisJobStoreIT} on the master that the sentinels of {@code dev/services} name. */
class RedisJobStoreSentinelIT extends RedisJobStoreIT {

    @Override
    RedisTopology topology() {
        return RedisTopologies.sentinel();
    }
}
