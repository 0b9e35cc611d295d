package io.tileseeder.worker.lock;

import io.tileseeder.port.MetatileLock;

class LocalMetatileLockTest extends MetatileLockContract {

    @Override
    protected MetatileLock newLock() {
        return new LocalMetatileLock();
    }
}
