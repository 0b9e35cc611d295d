package io.tileseeder.outage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.port.DependencyUnavailableException;
import io.tileseeder.port.StoreUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OutagesTest {

    private final Outages outages = new Outages(Duration.ofMinutes(1), Clock.systemUTC());

    @Test
    void aStepThatMeetsAnOutageIsRunAgainAfterRenewingWhatItHoldsAndTheOutageIsListedUntilItPasses() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger renewals = new AtomicInteger();

        String result = outages.patiently(() -> {
            if (runs.incrementAndGet() == 1) {
                assertThat(outages.current()).isEmpty();
                throw new DependencyUnavailableException("Redis", "Redis is restarting", null);
            }
            assertThat(outages.current()).singleElement().satisfies(outage -> {
                assertThat(outage.dependency()).isEqualTo("Redis");
                assertThat(outage.message()).isEqualTo("Redis is restarting");
            });
            return "done";
        }, renewals::incrementAndGet);

        assertThat(result).isEqualTo("done");
        assertThat(runs).hasValue(2);
        assertThat(renewals).hasValue(1);
        assertThat(outages.current()).isEmpty();
    }

    @Test
    void theStoresOwnUnavailabilityCountsAsAnOutageOfTheTileStore() throws Exception {
        AtomicInteger runs = new AtomicInteger();

        outages.patiently(() -> {
            if (runs.incrementAndGet() == 1) {
                throw new StoreUnavailableException("s3://tiles answered 503", null);
            }
            assertThat(outages.current()).extracting(Outages.Outage::dependency).containsExactly(Outages.OBJECT_STORE);
            return null;
        }, () -> { });

        assertThat(runs).hasValue(2);
    }

    @Test
    void anOutageLongerThanTheBudgetReachesTheCallerAndStaysListed() {
        Outages none = new Outages(Duration.ZERO, Clock.systemUTC());
        AtomicInteger runs = new AtomicInteger();

        assertThatThrownBy(() -> none.patiently(() -> {
            runs.incrementAndGet();
            throw new DependencyUnavailableException("Kafka", "no broker", null);
        }, () -> { })).isInstanceOf(DependencyUnavailableException.class).hasMessage("no broker");

        assertThat(runs).hasValue(1);
        assertThat(none.current()).extracting(Outages.Outage::dependency).containsExactly("Kafka");
    }

    @Test
    void otherErrorsAreNotWaitedFor() {
        AtomicInteger runs = new AtomicInteger();

        assertThatThrownBy(() -> outages.patiently(() -> {
            runs.incrementAndGet();
            throw new IllegalStateException("bad data");
        }, () -> { })).isInstanceOf(IllegalStateException.class);

        assertThat(runs).hasValue(1);
        assertThat(outages.current()).isEmpty();
    }

    @Test
    void waitingStopsWhenTheCallerMayNoLongerWait() {
        AtomicInteger runs = new AtomicInteger();

        assertThatThrownBy(() -> outages.patiently(() -> {
            runs.incrementAndGet();
            throw new DependencyUnavailableException("Redis", "down", null);
        }, () -> { }, () -> false)).isInstanceOf(DependencyUnavailableException.class);

        assertThat(runs).hasValue(1);
    }

    @Test
    void anOutageKeepsTheTimeItWasFirstReportedAndTheLatestMessage() throws Exception {
        outages.down("Redis", "first");
        Outages.Outage first = outages.current().getFirst();
        outages.down("Redis", "second");

        assertThat(outages.current()).singleElement().satisfies(outage -> {
            assertThat(outage.since()).isEqualTo(first.since());
            assertThat(outage.message()).isEqualTo("second");
        });
        outages.up("Redis");
        assertThat(outages.current()).isEmpty();
    }

    @Test
    void anOutageNobodyReportsAnyMoreIsNoLongerListed() {
        MovableClock clock = new MovableClock(Instant.parse("2026-11-25T10:00:00Z"));
        Outages reported = new Outages(Duration.ofMinutes(1), clock);
        reported.down("the tile store", "503");

        clock.now = clock.now.plusSeconds(Outages.STALE_SECONDS);
        assertThat(reported.current()).extracting(Outages.Outage::dependency).containsExactly("the tile store");
        clock.now = clock.now.plusSeconds(1);
        assertThat(reported.current()).isEmpty();
    }

    @Test
    void everyDependencyAStepMetIsClearedWhenItSucceeds() throws Exception {
        AtomicInteger runs = new AtomicInteger();

        outages.patiently(() -> {
            switch (runs.incrementAndGet()) {
                case 1 -> throw new DependencyUnavailableException("Redis", "down", null);
                case 2 -> throw new DependencyUnavailableException("Kafka", "down", null);
                default -> {
                    return null;
                }
            }
        }, () -> { });

        assertThat(outages.current()).isEmpty();
    }

    /** A client that tries for 5 s before it gives up: the outage began when the attempt did, not 5 s later. */
    @Test
    void anOutageCountsFromTheStartOfTheAttemptThatMetIt() throws Exception {
        MovableClock clock = new MovableClock(Instant.parse("2026-11-25T10:00:00Z"));
        Outages timed = new Outages(Duration.ofMinutes(1), clock);
        Instant began = clock.now;
        AtomicInteger runs = new AtomicInteger();

        timed.patiently(() -> {
            if (runs.incrementAndGet() == 1) {
                clock.now = clock.now.plusSeconds(5);
                assertThat(timed.current()).isEmpty();
                throw new DependencyUnavailableException("Redis", "down", null);
            }
            assertThat(timed.current()).singleElement().extracting(Outages.Outage::since).isEqualTo(began);
            return null;
        }, () -> { });

        assertThat(timed.current()).isEmpty();
    }

    /**
     * Two callers meet an outage; one succeeds once the dependency is back, and then the other's request, sent while
     * it was away, times out: that is the old outage's tail, and no new outage begins (nor is told) for it. A failure
     * of an attempt begun after the dependency answered is a new outage.
     */
    @Test
    void aFailureOfAnAttemptBegunBeforeTheDependencyAnsweredAgainStartsNoNewOutage() {
        MovableClock clock = new MovableClock(Instant.parse("2026-11-25T10:00:00Z"));
        Outages timed = new Outages(Duration.ofMinutes(1), clock);
        Instant sentWhileAway = clock.now;
        timed.down("Redis", "connection refused", sentWhileAway);
        clock.now = clock.now.plusSeconds(10);
        timed.up("Redis");

        clock.now = clock.now.plusSeconds(2);
        timed.down("Redis", "TimeoutException", sentWhileAway.plusSeconds(9));
        assertThat(timed.current()).isEmpty();

        Instant sentAfter = clock.now;
        clock.now = clock.now.plusSeconds(3);
        timed.down("Redis", "connection refused", sentAfter);
        assertThat(timed.current()).singleElement().extracting(Outages.Outage::since).isEqualTo(sentAfter);
    }

    private static final class MovableClock extends Clock {
        Instant now;

        MovableClock(Instant now) {
            this.now = now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void pausesDoubleUpToEightSeconds() {
        assertThat(Outages.next(Duration.ofMillis(500))).isEqualTo(Duration.ofSeconds(1));
        assertThat(Outages.next(Duration.ofSeconds(4))).isEqualTo(Duration.ofSeconds(8));
        assertThat(Outages.next(Duration.ofSeconds(8))).isEqualTo(Duration.ofSeconds(8));
    }
}
