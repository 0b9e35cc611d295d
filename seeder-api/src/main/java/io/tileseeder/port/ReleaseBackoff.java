package io.tileseeder.port;

import java.time.Duration;

/**
 * What {@link TaskDelivery#release} means for every queue: how long a released task waits before it is delivered again: 0.1 s after its first delivery, doubling with
 * every further one, at most 5 s. Short enough that a transient failure costs little, long enough that a
 * failing dependency (store down, lock busy) is not hammered by a task spinning through the workers.
 */
public final class ReleaseBackoff {

    public static final Duration FIRST = Duration.ofMillis(100);
    public static final Duration MAX = Duration.ofSeconds(5);

    private ReleaseBackoff() {
    }

    /** The wait after the release of delivery number {@code deliveryCount} (1 for the first). */
    public static Duration after(int deliveryCount) {
        int doublings = Math.min(Math.max(deliveryCount, 1) - 1, 16);
        return Duration.ofMillis(Math.min(MAX.toMillis(), FIRST.toMillis() << doublings));
    }
}
