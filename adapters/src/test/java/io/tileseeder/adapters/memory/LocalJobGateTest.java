package io.tileseeder.adapters.memory;

import io.tileseeder.adapters.JobGateContract;
import io.tileseeder.port.JobGate;
import io.tileseeder.port.JobStore;
import java.time.Clock;

class LocalJobGateTest extends JobGateContract {

    @Override
    protected JobStore newJobs() {
        return new InMemoryJobStore(Clock.systemUTC(), 100);
    }

    @Override
    protected JobGate newGate(JobStore jobs) {
        return new LocalJobGate(jobs);
    }
}
