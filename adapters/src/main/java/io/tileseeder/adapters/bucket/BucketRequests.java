package io.tileseeder.adapters.bucket;

import io.tileseeder.outage.RetryPolicy;
import io.tileseeder.port.StoreUnavailableException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * The request loop of a {@link BucketTileStore}: an in-flight limit shared by all callers, and retries.
 *
 * <p>Concurrency: every request takes a permit of one {@link Semaphore}, shared by all callers, so the store never
 * has more requests in flight than its limit, however many threads call it.
 *
 * <p>Failures: a request that fails in a way worth retrying ({@link Bucket#classify}) is sent again with exponential
 * backoff and jitter, up to {@link RetryPolicy#maxAttempts()} attempts in all; any other failure ends the loop.
 * Errors name the endpoint, the objects and the service's error code. A request still failing when the attempts run
 * out is a {@link StoreUnavailableException}: the outage policy waits for the store.
 */
final class BucketRequests {

    private static final int MAX_NAMED_FAILURES = 5;

    private final Bucket bucket;
    private final String endpoint;
    private final RetryPolicy retry;
    private final Semaphore inFlight;
    private final LongAdder retries = new LongAdder();

    /** @param maxInFlight the most requests in flight at once, for all callers together */
    BucketRequests(Bucket bucket, int maxInFlight, RetryPolicy retry) {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("the most requests in flight must be at least 1, not " + maxInFlight);
        }
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        this.endpoint = bucket.endpoint();
        this.retry = Objects.requireNonNull(retry, "retry");
        this.inFlight = new Semaphore(maxInFlight, true);
    }

    /** Requests sent again after a failure worth retrying, since start. */
    long retries() {
        return retries.sum();
    }

    /**
     * Sends one request per item, all at once within the in-flight limit, and waits for every answer. The items
     * whose request failed in a way worth retrying are sent again, after a backoff, until they succeed or the
     * attempts run out; a failure not worth retrying ends the loop once the round's answers are in.
     *
     * @return each item's result, in the items' order
     * @throws IOException naming the endpoint, the action, the items that failed and why
     */
    <K, T> Map<K, T> run(String action, Collection<K> items, Function<K, CompletableFuture<T>> request)
            throws IOException {
        Map<K, T> results = new LinkedHashMap<>();
        List<K> pending = new ArrayList<>(items);
        for (int attempt = 1; ; attempt++) {
            Map<K, CompletableFuture<T>> sent = new LinkedHashMap<>();
            for (K item : pending) {
                sent.put(item, send(item, request));
            }
            Map<K, BucketFailure> failures = new LinkedHashMap<>();
            for (Map.Entry<K, CompletableFuture<T>> entry : sent.entrySet()) {
                try {
                    results.put(entry.getKey(), await(entry.getValue()));
                } catch (ExecutionException e) {
                    failures.put(entry.getKey(), bucket.classify(e.getCause()));
                }
            }
            if (failures.isEmpty()) {
                return results;
            }
            boolean permanent = failures.values().stream().anyMatch(f -> !f.retryable());
            if (permanent || attempt >= retry.maxAttempts()) {
                throw failed(action, items.size(), failures, attempt, !permanent);
            }
            sleep(retry.backoff(attempt));
            pending = new ArrayList<>(failures.keySet());
            retries.add(pending.size());
        }
    }

    /** Takes a permit (waiting for one if all are in use), sends, and gives the permit back when answered. */
    private <K, T> CompletableFuture<T> send(K item, Function<K, CompletableFuture<T>> request)
            throws InterruptedIOException {
        try {
            inFlight.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting to send a request to " + endpoint);
        }
        CompletableFuture<T> future;
        try {
            future = request.apply(item);
        } catch (RuntimeException e) {
            future = CompletableFuture.failedFuture(e);
        }
        return future.whenComplete((result, failure) -> inFlight.release());
    }

    private <T> T await(CompletableFuture<T> future) throws ExecutionException, InterruptedIOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for an answer from " + endpoint);
        }
    }

    private void sleep(Duration delay) throws InterruptedIOException {
        try {
            Thread.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting to retry a request to " + endpoint);
        }
    }

    private IOException failed(String action, int total, Map<?, BucketFailure> failures, int attempts,
                               boolean exhausted) {
        StringBuilder message = new StringBuilder("cannot ").append(action).append(' ');
        if (total == 1) {
            message.append(failures.keySet().iterator().next()).append(" in ").append(bucket.describe());
        } else {
            message.append(failures.size()).append(" of ").append(total).append(" objects in ").append(bucket.describe());
        }
        message.append(" at ").append(endpoint);
        if (exhausted) {
            message.append(" (gave up after ").append(attempts).append(attempts == 1 ? " attempt)" : " attempts)");
        } else if (attempts > 1) {
            message.append(" (on attempt ").append(attempts).append(')');
        }
        message.append(": ");
        int named = 0;
        for (Map.Entry<?, BucketFailure> entry : failures.entrySet()) {
            if (named == MAX_NAMED_FAILURES) {
                message.append("; and ").append(failures.size() - named).append(" more");
                break;
            }
            if (named > 0) {
                message.append("; ");
            }
            if (total > 1) {
                message.append(entry.getKey()).append(": ");
            }
            message.append(entry.getValue().reason());
            named++;
        }
        Throwable cause = failures.values().iterator().next().cause();
        return exhausted ? new StoreUnavailableException(message.toString(), cause)
                : new IOException(message.toString(), cause);
    }
}
