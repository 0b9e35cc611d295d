package io.tileseeder.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.port.TaskDelivery;
import io.tileseeder.port.TaskQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link TaskQueue} promises. A subclass supplies the queue under test; each test gets a fresh,
 * empty one. Nothing here knows how the queue is implemented.
 *
 * <p>A queue may hold back further deliveries until those it handed out have their verdicts (Kafka's share
 * consumer does, batch by batch), so the tests give verdicts the way a worker does: as they go, not after
 * collecting everything.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
public abstract class TaskQueueContract {

    /** The bound on waiting for something that should come (a networked queue may need to join a group first). */
    protected static final Duration ARRIVAL = Duration.ofSeconds(60);
    protected static final Duration POLL = Duration.ofMillis(200);

    protected TaskQueue queue;
    protected ExecutorService threads;
    private String jobId;

    /** A fresh, empty queue under test. */
    protected abstract TaskQueue newQueue() throws Exception;

    /**
     * Another consumer of the same queue (workers in another pod); for a queue that lives in one process, the same
     * instance (then shared by two threads).
     */
    protected abstract TaskQueue secondConsumer() throws Exception;

    /** How long to watch for a task that must not come back. */
    protected Duration quietPeriod() {
        return Duration.ofSeconds(3);
    }

    @BeforeEach
    void setUpContract() throws Exception {
        jobId = "job-" + UUID.randomUUID().toString().substring(0, 8);
        queue = newQueue();
        threads = Executors.newFixedThreadPool(4);
    }

    @AfterEach
    void tearDownContract() throws Exception {
        threads.shutdownNow();
        threads.awaitTermination(10, TimeUnit.SECONDS);
    }

    protected MetatileTask task(long seq) {
        int x = (int) seq;
        return new MetatileTask(MetatileTask.VERSION, jobId, seq, "roads", TileMatrixSet.WEB_MERCATOR_QUAD,
                TileFormat.PNG, seq % 2 == 0 ? Mode.SEED : Mode.RESEED, 12, x, 7, 4, 4, x * 4, 28, x * 4 + 3, 31,
                seq % 2 == 0 ? null : Instant.parse("2026-03-04T05:06:07.123Z"), null,
                seq % 3 == 0 ? new DimensionValues(Map.of("TIME", "2026-11-26T12:05:00Z")) : null);
    }

    protected void offerAll(int count) throws InterruptedException {
        for (int i = 0; i < count; i++) {
            assertThat(queue.offer(task(i), Duration.ofSeconds(30))).as("offer of task %d", i).isTrue();
        }
    }

    /** Polls {@code from} until {@code count} deliveries came or {@link #ARRIVAL} passed, deciding each at once. */
    protected static List<TaskDelivery> take(TaskQueue from, int count, java.util.function.Consumer<TaskDelivery> verdict)
            throws InterruptedException {
        List<TaskDelivery> got = new ArrayList<>();
        long deadline = System.nanoTime() + ARRIVAL.toNanos();
        while (got.size() < count && System.nanoTime() < deadline) {
            Optional<TaskDelivery> d = from.poll(POLL);
            if (d.isPresent()) {
                got.add(d.get());
                verdict.accept(d.get());
            }
        }
        return got;
    }

    protected static List<TaskDelivery> take(TaskQueue from, int count) throws InterruptedException {
        return take(from, count, d -> { });
    }

    protected TaskDelivery takeOne() throws InterruptedException {
        List<TaskDelivery> got = take(queue, 1);
        assertThat(got).as("a delivery within %s", ARRIVAL).hasSize(1);
        return got.getFirst();
    }

    /** Asserts that nothing is delivered during the quiet period (and accepts anything that is, to tidy up). */
    protected void assertNothingMore(TaskQueue from) throws InterruptedException {
        List<MetatileTask> extra = new ArrayList<>();
        long deadline = System.nanoTime() + quietPeriod().toNanos();
        while (System.nanoTime() < deadline) {
            Optional<TaskDelivery> d = from.poll(POLL);
            d.ifPresent(delivery -> {
                extra.add(delivery.task());
                delivery.accept();
            });
        }
        assertThat(extra).as("deliveries after every task had its final verdict").isEmpty();
    }

    @Test
    void offeredTasksAreAllDeliveredOnceWithTheirFields() throws Exception {
        offerAll(20);

        List<TaskDelivery> got = take(queue, 20, TaskDelivery::accept);

        assertThat(got).extracting(TaskDelivery::task)
                .containsExactlyInAnyOrderElementsOf(java.util.stream.IntStream.range(0, 20).mapToObj(this::task).toList());
        assertThat(got).extracting(TaskDelivery::deliveryCount).containsOnly(1);
        assertNothingMore(queue);
    }

    @Test
    void aReleasedTaskIsDeliveredAgainWithDeliveryCountTwo() throws Exception {
        offerAll(1);

        TaskDelivery first = takeOne();
        assertThat(first.deliveryCount()).isEqualTo(1);
        first.release();

        TaskDelivery second = takeOne();
        assertThat(second.task()).isEqualTo(task(0));
        assertThat(second.deliveryCount()).isEqualTo(2);
        second.accept();
        assertNothingMore(queue);
    }

    @Test
    void rejectedAndAcceptedTasksAreNotDeliveredAgain() throws Exception {
        offerAll(4);

        AtomicInteger n = new AtomicInteger();
        List<TaskDelivery> got = take(queue, 4, d -> {
            if (n.getAndIncrement() % 2 == 0) d.reject(); else d.accept();
        });
        assertThat(got).hasSize(4);
        assertNothingMore(queue);
    }

    @Test
    void aRenewedTaskStaysWithItsHolderUntilItsVerdict() throws Exception {
        offerAll(1);

        TaskDelivery held = takeOne();
        held.renew();
        assertThat(queue.poll(Duration.ofSeconds(2))).as("a renewed task is not handed out again").isEmpty();
        held.renew();
        held.accept();
        assertNothingMore(queue);
    }

    /**
     * Renewals in every rhythm a worker has (one, several in a row, and the final verdict right behind them, on the
     * polling thread or on another one, so anywhere between a renewal's request and its answer): each task ends
     * with the verdict given last, and none is delivered again.
     */
    @Test
    void verdictsGivenRightAfterRenewalsAreTheOnesThatCount() throws Exception {
        int count = 24;
        offerAll(count);

        List<Future<?>> verdicts = new ArrayList<>();
        List<TaskDelivery> got = take(queue, count, d -> {
            long seq = d.task().seq();
            Runnable decide = () -> {
                for (long i = 0; i <= seq % 4; i++) {
                    d.renew();
                }
                if (seq % 5 == 4) d.reject(); else d.accept();
            };
            if (seq % 2 == 0) decide.run(); else verdicts.add(threads.submit(decide));
        });
        for (Future<?> f : verdicts) {
            f.get(30, TimeUnit.SECONDS);
        }

        assertThat(got).extracting(TaskDelivery::task).containsExactlyInAnyOrderElementsOf(
                java.util.stream.IntStream.range(0, count).mapToObj(this::task).toList());
        assertNothingMore(queue);
    }

    @Test
    void pollOnAnEmptyQueueReturnsEmptyAfterAboutTheTimeout() throws Exception {
        Duration timeout = Duration.ofMillis(700);
        long start = System.nanoTime();
        Optional<TaskDelivery> none = queue.poll(timeout);
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(none).isEmpty();
        assertThat(took).isBetween(timeout.minusMillis(50), timeout.plusSeconds(3));
    }

    @Test
    void verdictsMayComeFromOtherThreadsThanThePollers() throws Exception {
        offerAll(6);

        // The first delivery is released, every other one accepted; all verdicts on pool threads.
        List<Future<?>> verdicts = new ArrayList<>();
        List<TaskDelivery> got = take(queue, 7, d -> verdicts.add(threads.submit(
                verdicts.isEmpty() ? d::release : d::accept)));
        for (Future<?> f : verdicts) {
            f.get(30, TimeUnit.SECONDS);
        }

        assertThat(got).as("6 tasks, one of them twice").hasSize(7);
        TaskDelivery released = got.getFirst();
        List<TaskDelivery> again = got.stream().skip(1).filter(d -> d.task().equals(released.task())).toList();
        assertThat(again).hasSize(1);
        assertThat(again.getFirst().deliveryCount()).isEqualTo(2);
        assertThat(got).extracting(TaskDelivery::task).containsAll(
                java.util.stream.IntStream.range(0, 6).mapToObj(this::task).toList());
        assertNothingMore(queue);
    }

    @Test
    void twoConsumersShareTheTasksEachGoingToExactlyOne() throws Exception {
        TaskQueue other = secondConsumer();
        int count = 40;
        offerAll(count);

        List<MetatileTask> delivered = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger accepted = new AtomicInteger();
        java.util.Map<MetatileTask, Integer> byConsumer = new ConcurrentHashMap<>();
        long deadline = System.nanoTime() + ARRIVAL.toNanos();
        List<Future<?>> consumers = new ArrayList<>();
        for (int c = 0; c < 2; c++) {
            TaskQueue from = c == 0 ? queue : other;
            int consumerNo = c;
            consumers.add(threads.submit(() -> {
                while (accepted.get() < count && System.nanoTime() < deadline) {
                    Optional<TaskDelivery> d = from.poll(POLL);
                    if (d.isPresent()) {
                        delivered.add(d.get().task());
                        byConsumer.merge(d.get().task(), consumerNo, (a, b) -> -1);
                        d.get().accept();
                        accepted.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : consumers) {
            f.get(ARRIVAL.toSeconds() + 30, TimeUnit.SECONDS);
        }

        assertThat(delivered).as("every task delivered exactly once")
                .containsExactlyInAnyOrderElementsOf(java.util.stream.IntStream.range(0, count).mapToObj(this::task).toList());
        assertThat(byConsumer.values()).doesNotContain(-1);
        assertNothingMore(queue);
    }
}
