package io.tileseeder.adapters.memory;

import io.tileseeder.port.MetatileLock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Metatile locks within one process. A held lock is an entry in a map, removed on release, so the map only
 * ever holds the metatiles being worked on; waiters wait on the holder's latch, with a bound.
 */
public final class LocalMetatileLock implements MetatileLock {

    private final ConcurrentMap<String, CountDownLatch> held = new ConcurrentHashMap<>();

    @Override
    public Optional<Lease> tryLock(String metatileKey, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            CountDownLatch mine = new CountDownLatch(1);
            CountDownLatch holder = held.putIfAbsent(metatileKey, mine);
            if (holder == null) {
                return Optional.of(new Lease() {
                    @Override
                    public boolean held() {
                        return held.get(metatileKey) == mine;
                    }

                    @Override
                    public void close() {
                        held.remove(metatileKey, mine);
                        mine.countDown();
                    }
                });
            }
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0 || !holder.await(remaining, TimeUnit.NANOSECONDS)) {
                return Optional.empty();
            }
        }
    }
}
