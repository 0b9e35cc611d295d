package io.tileseeder.outage;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How often and how patiently a failed request is tried again: at most {@code maxAttempts} attempts in all;
 * before attempt n+1, a pause drawn at random between half and all of {@code initialBackoff × 2^(n-1)}, capped
 * at {@code maxBackoff} (exponential backoff with jitter, so that workers that failed together do not retry
 * together).
 */
public record RetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {

    /** 5 attempts, 100 ms then 200, 400, 800 ms (each with jitter): about 1.5 s at most before giving up. */
    public static final RetryPolicy DEFAULT = new RetryPolicy(5, Duration.ofMillis(100), Duration.ofSeconds(5));

    /** One attempt, no retry. */
    public static final RetryPolicy NONE = new RetryPolicy(1, Duration.ZERO, Duration.ZERO);

    public RetryPolicy {
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, not " + maxAttempts);
        }
        if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("backoff must be 0 <= initial <= max, not " + initialBackoff
                    + ", " + maxBackoff);
        }
    }

    /** The pause before attempt {@code failedAttempts + 1}. */
    public Duration backoff(int failedAttempts) {
        long initial = initialBackoff.toNanos();
        long ceiling = maxBackoff.toNanos();
        int shift = Math.min(Math.max(failedAttempts - 1, 0), 30);
        long base = initial > (ceiling >> shift) ? ceiling : Math.min(ceiling, initial << shift);
        if (base == 0) {
            return Duration.ZERO;
        }
        long half = base / 2;
        return Duration.ofNanos(half + ThreadLocalRandom.current().nextLong(base - half + 1));
    }
}
