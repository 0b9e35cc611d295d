package io.tileseeder.adapters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.port.UpstreamPermits;
import io.tileseeder.port.UpstreamPermits.Permit;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link UpstreamPermits} promises. A subclass supplies the permits under test; each test names upstreams
 * nobody else uses.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class UpstreamPermitsContract {

    /** Long enough to tell "waits" from "returned at once". */
    protected static final Duration SHORT_WAIT = Duration.ofMillis(400);
    /** A lease no test outlives. */
    protected static final Duration LEASE = Duration.ofMinutes(2);
    /** The bound on any single step we wait for. */
    protected static final long STEP_SECONDS = 30;

    protected ExecutorService threads;

    /** The permits under test. */
    protected abstract UpstreamPermits permits();

    /** An upstream no other test names. */
    protected static String upstream() {
        return "wms-" + UUID.randomUUID() + ":80";
    }

    @BeforeEach
    void startThreads() {
        threads = Executors.newCachedThreadPool();
    }

    @AfterEach
    void stopThreads() throws InterruptedException {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(STEP_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

    /** A permit taken on another thread. */
    protected Future<Permit> acquireLater(UpstreamPermits permits, String upstream, int limit) {
        return threads.submit(() -> permits.acquire(upstream, limit, LEASE));
    }

    /** Asserts that {@code waiting} is still waiting {@link #SHORT_WAIT} later. */
    protected static void assertWaits(Future<Permit> waiting) {
        assertThatThrownBy(() -> waiting.get(SHORT_WAIT.toMillis(), TimeUnit.MILLISECONDS))
                .isInstanceOf(TimeoutException.class);
    }

    @Test
    void theLimitsPermitsAreGrantedAndTheNextWaitsForOneToBeGivenBack() throws Exception {
        UpstreamPermits permits = permits();
        String upstream = upstream();
        List<Permit> held = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            held.add(acquireLater(permits, upstream, 3).get(STEP_SECONDS, TimeUnit.SECONDS));
        }
        Future<Permit> fourth = acquireLater(permits, upstream, 3);
        assertWaits(fourth);

        held.removeFirst().close();

        held.add(fourth.get(STEP_SECONDS, TimeUnit.SECONDS));
        held.forEach(Permit::close);
    }

    @Test
    void otherUpstreamsAndOtherLimitsShareNothing() throws Exception {
        UpstreamPermits permits = permits();
        String upstream = upstream();
        try (Permit only = permits.acquire(upstream, 1, LEASE);
             Permit elsewhere = acquireLater(permits, upstream(), 1).get(STEP_SECONDS, TimeUnit.SECONDS);
             Permit otherLimit = acquireLater(permits, upstream, 2).get(STEP_SECONDS, TimeUnit.SECONDS)) {
            assertWaits(acquireLater(permits, upstream, 1));
        }
    }

    @Test
    void neverMoreThanTheLimitAreOutAmongManyThreads() throws Exception {
        UpstreamPermits permits = permits();
        String upstream = upstream();
        int limit = 4;
        AtomicInteger out = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<Future<?>> all = new ArrayList<>();
        for (int t = 0; t < 12; t++) {
            all.add(threads.submit(() -> {
                for (int i = 0; i < 25; i++) {
                    try (Permit permit = permits.acquire(upstream, limit, LEASE)) {
                        most.accumulateAndGet(out.incrementAndGet(), Math::max);
                        Thread.sleep(2);
                        out.decrementAndGet();
                    }
                }
                return null;
            }));
        }
        for (Future<?> each : all) {
            each.get(STEP_SECONDS * 4, TimeUnit.SECONDS);
        }
        assertThat(most.get()).as("most permits out at once").isPositive().isLessThanOrEqualTo(limit);
    }

    @Test
    void aWaiterInterruptedTakesNoPermitAway() throws Exception {
        UpstreamPermits permits = permits();
        String upstream = upstream();
        Permit only = permits.acquire(upstream, 1, LEASE);
        Future<Permit> waiting = acquireLater(permits, upstream, 1);
        assertWaits(waiting);

        waiting.cancel(true);
        only.close();

        try (Permit next = acquireLater(permits, upstream, 1).get(STEP_SECONDS, TimeUnit.SECONDS)) {
            assertThat(next).isNotNull();
        }
    }

    @Test
    void aThreadInterruptedBeforeItAsksGetsNoPermitAndLeavesNoneOut() throws Exception {
        UpstreamPermits permits = permits();
        String upstream = upstream();
        Future<Throwable> interrupted = threads.submit(() -> {
            Thread.currentThread().interrupt();
            try {
                permits.acquire(upstream, 1, LEASE);
                return null;
            } catch (InterruptedException e) {
                return e;
            }
        });

        assertThat(interrupted.get(STEP_SECONDS, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        try (Permit only = acquireLater(permits, upstream, 1).get(STEP_SECONDS, TimeUnit.SECONDS)) {
            assertThat(only).isNotNull();
        }
    }

    @Test
    void aHoldHoldsBackThePermitsOfItsUpstreamUntilItEndsAndAShorterOneDoesNotShortenIt() throws Exception {
        UpstreamPermits permits = permits();
        String upstream = upstream();
        Instant start = Instant.now();
        permits.holdOff(upstream, start.plusMillis(1500), "answered HTTP 429 with Retry-After: 1");
        permits.holdOff(upstream, start.plusMillis(200), "answered HTTP 503 with Retry-After: 0");

        assertThat(permits.hold(upstream)).hasValueSatisfying(hold -> {
            assertThat(hold.until()).isEqualTo(start.plusMillis(1500));
            assertThat(hold.since()).isBetween(start, start.plusMillis(1500));
            assertThat(hold.reason()).isEqualTo("answered HTTP 503 with Retry-After: 0");
        });
        assertThat(permits.hold(upstream())).isEmpty();

        try (Permit elsewhere = acquireLater(permits, upstream(), 1).get(STEP_SECONDS, TimeUnit.SECONDS);
             Permit held = acquireLater(permits, upstream, 1).get(STEP_SECONDS, TimeUnit.SECONDS)) {
            // A hold ends on a wall clock of whole milliseconds.
            assertThat(Duration.between(start, Instant.now())).isGreaterThanOrEqualTo(Duration.ofMillis(1450));
        }
        assertThat(permits.hold(upstream)).as("a hold that ended").isEmpty();
    }

    @Test
    void aLimitBelowOneIsRefused() {
        assertThatThrownBy(() -> permits().acquire(upstream(), 0, LEASE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1, not 0");
    }
}
