package io.tileseeder.adapters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.port.MetatileLock;
import io.tileseeder.port.MetatileLock.Lease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link MetatileLock} promises. A subclass supplies the lock under test; each test gets a fresh
 * one (and, for shared stores, keys nobody else uses).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class MetatileLockContract {

    /** Long enough to tell "waited" from "returned at once", short enough to keep the suite quick. */
    protected static final Duration SHORT_WAIT = Duration.ofMillis(400);
    /** A wait that should never run out in a passing test. */
    protected static final Duration LONG_WAIT = Duration.ofSeconds(20);
    /** How soon a lock an abandoned attempt took after all is free again (a watchdog's lease is 30 s). */
    private static final Duration ABANDONED_RELEASE = Duration.ofSeconds(5);
    /** The bound on any single step we wait for. */
    protected static final long STEP_SECONDS = 30;

    protected MetatileLock lock;
    protected ExecutorService threads;
    private final List<Lease> toClose = new ArrayList<>();

    /** A fresh lock under test, whose keys no other test sees. */
    protected abstract MetatileLock newLock() throws Exception;

    /** Rounds each thread runs in the overlap test; a networked lock may want fewer. */
    protected int overlapRounds() {
        return 200;
    }

    @BeforeEach
    void setUpContract() throws Exception {
        lock = newLock();
        threads = Executors.newFixedThreadPool(24);
    }

    @AfterEach
    void tearDownContract() throws Exception {
        toClose.forEach(Lease::close);
        threads.shutdownNow();
        assertThat(threads.awaitTermination(STEP_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

    /** Takes the lock, which must be free, and closes it after the test if the test did not. */
    protected Lease take(String key) throws InterruptedException {
        Optional<Lease> lease = lock.tryLock(key, Duration.ZERO);
        assertThat(lease).as("lock on %s free", key).isPresent();
        toClose.add(lease.get());
        return lease.get();
    }

    /** Tries the lock on a pool thread (never the caller's: a thread-owned lock would be re-entered). */
    protected Future<Optional<Lease>> tryElsewhere(String key, Duration wait) {
        return threads.submit(() -> {
            Optional<Lease> lease = lock.tryLock(key, wait);
            lease.ifPresent(this::closeLater);
            return lease;
        });
    }

    private synchronized void closeLater(Lease lease) {
        toClose.add(lease);
    }

    protected static <T> T await(Future<T> future) throws Exception {
        return future.get(STEP_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void aHeldKeyCannotBeTakenByAnotherHolderWithinTheWait() throws Exception {
        take("held");

        assertThat(await(tryElsewhere("held", Duration.ZERO))).isEmpty();
        long start = System.nanoTime();
        Optional<Lease> waited = await(tryElsewhere("held", SHORT_WAIT));
        long elapsed = System.nanoTime() - start;

        assertThat(waited).isEmpty();
        assertThat(Duration.ofNanos(elapsed)).as("waited about the wait")
                .isGreaterThanOrEqualTo(SHORT_WAIT.minusMillis(50))
                .isLessThan(SHORT_WAIT.plusSeconds(10));
    }

    @Test
    void aSecondLeaseOnTheSameThreadIsNotReentrant() throws Exception {
        take("reentry");

        assertThat(lock.tryLock("reentry", Duration.ZERO)).isEmpty();
    }

    @Test
    void differentKeysAreIndependent() throws Exception {
        take("a");

        assertThat(await(tryElsewhere("b", Duration.ZERO))).isPresent();
        assertThat(await(tryElsewhere("a/0/0", Duration.ZERO))).isPresent();
    }

    @Test
    void afterCloseTheKeyCanBeTakenAtOnce() throws Exception {
        Lease lease = take("released");
        lease.close();

        assertThat(await(tryElsewhere("released", Duration.ZERO))).isPresent();
    }

    @Test
    void aTimedOutWaiterLeavesNothingHeldBehind() throws Exception {
        Lease lease = take("timeout");
        assertThat(await(tryElsewhere("timeout", SHORT_WAIT))).isEmpty();
        lease.close();

        assertThat(await(tryElsewhere("timeout", Duration.ZERO))).isPresent();
    }

    @Test
    void aWaiterGetsTheLockWhenTheHolderCloses() throws Exception {
        Lease lease = take("handover");
        AtomicReference<Thread> waiterThread = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(1);
        Future<Optional<Lease>> waiter = threads.submit(() -> {
            waiterThread.set(Thread.currentThread());
            started.countDown();
            Optional<Lease> got = lock.tryLock("handover", LONG_WAIT);
            got.ifPresent(this::closeLater);
            return got;
        });
        assertThat(started.await(STEP_SECONDS, TimeUnit.SECONDS)).isTrue();
        awaitBlocked(waiterThread.get());
        assertThat(waiter).isNotDone();

        long closed = System.nanoTime();
        lease.close();

        assertThat(await(waiter)).isPresent();
        assertThat(Duration.ofNanos(System.nanoTime() - closed)).as("handed over well before the wait ran out")
                .isLessThan(LONG_WAIT.dividedBy(2));
    }

    @Test
    void closingOnAnotherThreadThanTheTakerReleasesTheLock() throws Exception {
        Lease lease = await(threads.submit(() -> lock.tryLock("handoff", Duration.ZERO))).orElseThrow();
        ExecutorService closer = Executors.newSingleThreadExecutor();
        try {
            await(closer.submit(lease::close));
        } finally {
            closer.shutdown();
        }

        assertThat(await(tryElsewhere("handoff", Duration.ZERO))).isPresent();
    }

    @Test
    void aLeaseTakenOnAThreadThatEndedIsStillHeldAndCanBeClosed() throws Exception {
        ExecutorService taker = Executors.newSingleThreadExecutor();
        Lease lease;
        try {
            lease = await(taker.submit(() -> lock.tryLock("orphan", Duration.ZERO))).orElseThrow();
        } finally {
            taker.shutdown();
            assertThat(taker.awaitTermination(STEP_SECONDS, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(await(tryElsewhere("orphan", Duration.ZERO))).isEmpty();

        lease.close();

        assertThat(await(tryElsewhere("orphan", Duration.ZERO))).isPresent();
    }

    @Test
    void aLeaseIsHeldUntilClosedAndNotByTheNextHolder() throws Exception {
        Lease first = take("owned");
        assertThat(first.held()).isTrue();

        first.close();
        Lease second = await(tryElsewhere("owned", Duration.ZERO)).orElseThrow();

        assertThat(first.held()).as("closed, and the lock is another lease's now").isFalse();
        assertThat(second.held()).isTrue();
        second.close();
    }

    @Test
    void closingTwiceIsHarmless() throws Exception {
        Lease first = take("twice");
        first.close();
        first.close();
        Optional<Lease> second = await(tryElsewhere("twice", Duration.ZERO));
        assertThat(second).isPresent();

        first.close();

        assertThat(await(tryElsewhere("twice", Duration.ZERO))).as("the stale close left the new holder's lock alone")
                .isEmpty();
        second.get().close();
        second.get().close();
        assertThat(await(tryElsewhere("twice", Duration.ZERO))).isPresent();
    }

    @Test
    void anInterruptedWaiterThrowsAndLeavesNothingHeldBehind() throws Exception {
        Lease lease = take("interrupt");
        AtomicReference<Thread> waiterThread = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(1);
        Future<Optional<Lease>> waiter = threads.submit(() -> {
            waiterThread.set(Thread.currentThread());
            started.countDown();
            return lock.tryLock("interrupt", LONG_WAIT);
        });
        assertThat(started.await(STEP_SECONDS, TimeUnit.SECONDS)).isTrue();
        awaitBlocked(waiterThread.get());

        long interrupted = System.nanoTime();
        waiterThread.get().interrupt();

        assertThatThrownBy(() -> await(waiter)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(InterruptedException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - interrupted)).isLessThan(LONG_WAIT.dividedBy(2));
        lease.close();
        // The abandoned attempt may still take the freed lock for a moment before it lets go of it: the lock is
        // free again within a short wait, far less than a watchdog's lease (which would keep a leaked one).
        assertThat(await(tryElsewhere("interrupt", ABANDONED_RELEASE))).isPresent();
    }

    @Test
    void manyConcurrentHoldersOverAFewKeysNeverOverlap() throws Exception {
        int workers = 16;
        int rounds = overlapRounds();
        List<String> keys = List.of("k0", "k1", "k2");
        List<AtomicInteger> inside = keys.stream().map(k -> new AtomicInteger()).toList();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger acquired = new AtomicInteger();
        ExecutorService closers = Executors.newFixedThreadPool(4);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        try {
            for (int w = 0; w < workers; w++) {
                int worker = w;
                done.add(threads.submit(() -> {
                    go.await();
                    for (int r = 0; r < rounds; r++) {
                        int k = (worker + r) % keys.size();
                        Optional<Lease> lease = lock.tryLock(keys.get(k), LONG_WAIT);
                        if (lease.isEmpty()) {
                            continue;
                        }
                        acquired.incrementAndGet();
                        if (inside.get(k).incrementAndGet() != 1) {
                            overlaps.incrementAndGet();
                        }
                        Thread.yield();
                        if (inside.get(k).decrementAndGet() != 0) {
                            overlaps.incrementAndGet();
                        }
                        if (r % 2 == 0) {
                            lease.get().close();
                        } else {
                            // Released on another thread, as the worker does after storing.
                            closers.submit(lease.get()::close).get(STEP_SECONDS, TimeUnit.SECONDS);
                        }
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : done) {
                f.get(100, TimeUnit.SECONDS);
            }
        } finally {
            closers.shutdownNow();
        }

        assertThat(overlaps).hasValue(0);
        assertThat(acquired).as("every attempt got its turn within the long wait").hasValue(workers * rounds);
    }

    /** Waits (bounded) until a thread is parked, i.e. blocked in the lock's wait rather than still running. */
    protected static void awaitBlocked(Thread thread) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STEP_SECONDS);
        while (thread.getState() != Thread.State.TIMED_WAITING && thread.getState() != Thread.State.WAITING) {
            assertThat(System.nanoTime()).as("%s blocks", thread.getName()).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }
}
