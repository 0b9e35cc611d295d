package io.tileseeder.e2e;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waiting with a deadline: a read of a dependency that may be restarting (MinIO, Kafka), or a condition. */
final class Retry {

    private static final Duration PAUSE = Duration.ofSeconds(1);

    private Retry() {
    }

    /** What {@code call} answers, tried again after any exception for at most {@code wait}; the last one then. */
    static <T> T within(Duration wait, String what, Callable<T> call) throws InterruptedException {
        Instant deadline = Instant.now().plus(wait);
        while (true) {
            try {
                return call.call();
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException(what + ": no answer within " + wait, e);
                }
            }
            Thread.sleep(PAUSE);
        }
    }

    /**
     * Waits until {@code condition} holds, looking once a second, for at most {@code wait}; fails with
     * {@code failure}'s message then.
     */
    static void until(Duration wait, BooleanSupplier condition, Supplier<String> failure)
            throws InterruptedException {
        Instant deadline = Instant.now().plus(wait);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(failure.get());
            }
            Thread.sleep(PAUSE);
        }
    }
}
