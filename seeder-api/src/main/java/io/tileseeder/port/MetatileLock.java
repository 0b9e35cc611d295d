package io.tileseeder.port;

import java.time.Duration;
import java.util.Optional;

/**
 * One lock per metatile, held from "check what exists" to "all tiles stored", so a redelivered task and two
 * overlapping jobs never render the same metatile at once. One level only: never take a second lock while
 * holding one.
 */
public interface MetatileLock {

    /** Waits at most {@code wait} for the lock; empty if someone else still holds it then. */
    Optional<Lease> tryLock(String metatileKey, Duration wait) throws InterruptedException;

    /**
     * A held lock; closing it releases it. A lease may be closed on another thread than the one that took it:
     * the worker prepares a metatile on one thread and stores it, then releases the lock, on another. (A
     * Redisson adapter therefore locks and unlocks with an explicit owner id, not the current thread's.)
     */
    interface Lease extends AutoCloseable {

        /**
         * Whether the lock is still this lease's: false once a lock kept elsewhere (Redis) expired because its
         * renewals could not reach it, and someone else may hold it now. A lock of this process is held until
         * closed, so the default answers true.
         *
         * @throws DependencyUnavailableException if the place the lock is kept cannot be asked now
         */
        default boolean held() {
            return true;
        }

        @Override
        void close();
    }
}
