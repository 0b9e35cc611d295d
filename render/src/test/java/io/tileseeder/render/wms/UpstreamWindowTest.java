package io.tileseeder.render.wms;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link UpstreamWindow} against a model of a map server, in simulated time (so deterministic and instant): a server
 * of {@code processes} that each draw one request at a time, in a time that varies per request as map content does,
 * queueing the rest first come first served, and slowing down by {@code thrash} per request beyond its processes (a
 * server past its knee). The window is never told {@code processes}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UpstreamWindowTest {

    private static final long MS = 1_000_000;

    /** Requests answered per simulated second by a client with {@code window} sending to the model server. */
    private static double throughput(UpstreamWindow window, AtomicLong clock, int processes, double thrash,
                                     int requests) throws InterruptedException {
        Random content = new Random(42);
        PriorityQueue<Long> processFree = new PriorityQueue<>();
        for (int i = 0; i < processes; i++) {
            processFree.add(0L);
        }
        PriorityQueue<long[]> answers = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
        int answered = 0;
        while (answered < requests) {
            while (window.inFlight() < window.limit()) {
                window.acquire();
                long now = clock.get();
                int atServer = answers.size() + 1;
                long drawing = (long) ((100 + content.nextInt(100)) * MS
                        * (1 + thrash * Math.max(0, atServer - processes)));
                long start = Math.max(now, processFree.poll());
                long end = start + drawing;
                processFree.add(end);
                answers.add(new long[] {end, end - now});
            }
            long[] next = answers.poll();
            clock.set(next[0]);
            window.answered(next[1], window.inFlight());
            answered++;
        }
        return requests / (clock.get() / 1e9);
    }

    @ParameterizedTest(name = "{0} processes, {1} slower per request beyond them")
    @CsvSource({"1, 0", "2, 0", "4, 0", "8, 0", "12, 0", "16, 0", "1, 0.05", "2, 0.05", "4, 0.05", "8, 0.05", "12, 0.05",
            "16, 0.05"})
    void theAdaptiveWindowServesAtLeastNinetyPercentOfTheBestFixedOneWithoutBeingToldTheServersSize(
            int processes, double thrash) throws InterruptedException {
        double best = 0;
        int bestFixed = 0;
        for (int fixed = 1; fixed <= 24; fixed++) {
            AtomicLong clock = new AtomicLong();
            double rate = throughput(UpstreamWindow.fixed(fixed, clock::get), clock, processes, thrash, 4000);
            if (rate > best) {
                best = rate;
                bestFixed = fixed;
            }
        }
        AtomicLong clock = new AtomicLong();
        UpstreamWindow adaptive = UpstreamWindow.adaptive(24, clock::get);

        double rate = throughput(adaptive, clock, processes, thrash, 4000);

        assertThat(rate).as("adaptive %.1f/s against the best fixed window, %d: %.1f/s (window ends at %d)",
                rate, bestFixed, best, adaptive.limit()).isGreaterThanOrEqualTo(0.9 * best);
    }

    /** {@code rounds} times: as many requests as the window allows, then all their answers, none slower. */
    private static void slowStart(UpstreamWindow window, int rounds) throws InterruptedException {
        for (int round = 0; round < rounds; round++) {
            int limit = window.limit();
            for (int i = 0; i < limit; i++) {
                window.acquire();
            }
            for (int i = 0; i < limit; i++) {
                window.answered(100 * MS, window.inFlight());
            }
        }
    }

    @Test
    void theWindowStartsAtOneAndDoublesPerWindowOfAnswersWhileNothingQueues() throws InterruptedException {
        AtomicLong clock = new AtomicLong();
        UpstreamWindow window = UpstreamWindow.adaptive(16, clock::get);
        assertThat(window.limit()).isEqualTo(1);
        slowStart(window, 4);
        assertThat(window.limit()).isEqualTo(16);
    }

    @Test
    void aWindowThatIsNotFullDoesNotGrow() throws InterruptedException {
        AtomicLong clock = new AtomicLong();
        UpstreamWindow window = UpstreamWindow.adaptive(16, clock::get);
        for (int i = 0; i < 100; i++) {
            window.acquire();
            window.answered(100 * MS, window.inFlight());
        }
        assertThat(window.limit()).as("one request at a time says nothing about two").isEqualTo(2);
    }

    @Test
    void troubleHalvesTheWindowOncePerLatencyNotOncePerFailure() throws InterruptedException {
        AtomicLong clock = new AtomicLong();
        UpstreamWindow window = UpstreamWindow.adaptive(16, clock::get);
        slowStart(window, 4);
        assertThat(window.limit()).isEqualTo(16);
        for (int i = 0; i < 16; i++) {
            window.acquire();
        }
        for (int i = 0; i < 8; i++) {
            window.overloaded();
        }
        assertThat(window.limit()).as("a burst of failures within one latency").isEqualTo(8);

        clock.addAndGet(100 * MS);
        window.overloaded();

        assertThat(window.limit()).as("a failure one latency later").isEqualTo(4);
    }

    @Test
    void aFixedWindowNeverMoves() throws InterruptedException {
        AtomicLong clock = new AtomicLong();
        UpstreamWindow window = UpstreamWindow.fixed(3, clock::get);
        for (int i = 0; i < 3; i++) {
            window.acquire();
        }
        window.overloaded();
        window.answered(10_000 * MS, window.inFlight());
        assertThat(window.limit()).isEqualTo(3);
        assertThat(window.inFlight()).isEqualTo(1);
    }

    @Test
    void aPauseHoldsEveryRequestUntilItEnds() throws Exception {
        UpstreamWindow window = UpstreamWindow.fixed(4, System::nanoTime);
        Duration pause = Duration.ofMillis(300);
        long paused = System.nanoTime();
        window.pauseUntil(paused + pause.toNanos());

        window.acquire();

        assertThat(Duration.ofNanos(System.nanoTime() - paused)).isGreaterThanOrEqualTo(pause);
    }
}
