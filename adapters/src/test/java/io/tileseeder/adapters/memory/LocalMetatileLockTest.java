package io.tileseeder.adapters.memory;

import io.tileseeder.adapters.MetatileLockContract;
import io.tileseeder.port.MetatileLock;

class LocalMetatileLockTest extends MetatileLockContract {

    @Override
    protected MetatileLock newLock() {
        return new LocalMetatileLock();
    }
}
