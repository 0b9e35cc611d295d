package io.tileseeder.worker.queue;

import java.time.Duration;

/**
 * How long a released task waits before it is delivered again: 0.1 s after its first delivery, doubling with
 * every further one, at most 5 s. Short enough that a transient failure costs little, long enough that a
 * failing dependency (store down, lock busy) is not hammered by a task spinning through the workers.
 */
final class ReleaseBackoff {

    static final Duration FIRST = Duration.ofMillis(100);
    static final Duration MAX = Duration.ofSeconds(5);

    private ReleaseBackoff() {
    }

    /** The wait after the release of delivery number {@code deliveryCount} (1 for the first). */
    static Duration after(int deliveryCount) {
        int doublings = Math.min(Math.max(deliveryCount, 1) - 1, 16);
        return Duration.ofMillis(Math.min(MAX.toMillis(), FIRST.toMillis() << doublings));
    }
}
