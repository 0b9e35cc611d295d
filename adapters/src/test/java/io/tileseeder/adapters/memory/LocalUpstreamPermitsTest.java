package io.tileseeder.adapters.memory;

import io.tileseeder.adapters.UpstreamPermitsContract;
import io.tileseeder.port.UpstreamPermits;

class LocalUpstreamPermitsTest extends UpstreamPermitsContract {

    private final LocalUpstreamPermits permits = new LocalUpstreamPermits();

    @Override
    protected UpstreamPermits permits() {
        return permits;
    }
}
