package io.tileseeder.adapters.memory;

import io.tileseeder.adapters.JobStoreContract;
import io.tileseeder.port.JobStore;
import java.time.Clock;

class InMemoryJobStoreTest extends JobStoreContract {

    @Override
    protected JobStore newStore(Clock clock) {
        return new InMemoryJobStore(clock, 1_000);
    }
}
