package io.tileseeder.coordinator.job;

import static io.tileseeder.coordinator.job.JobFixtures.LAYERS;
import static io.tileseeder.coordinator.job.JobFixtures.fixedShares;
import static io.tileseeder.coordinator.job.JobFixtures.submitted;
import static io.tileseeder.coordinator.job.JobFixtures.succeeded;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.adapters.memory.InMemoryJobStore;
import io.tileseeder.adapters.memory.InMemoryTaskQueue;
import io.tileseeder.adapters.memory.LocalJobGate;
import io.tileseeder.adapters.memory.LocalMetatileLock;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.message.TaskResult;
import io.tileseeder.outage.Outages;
import io.tileseeder.plan.MetatilePlans;
import io.tileseeder.port.JobStore;
import io.tileseeder.port.MetatileLock;
import io.tileseeder.port.TaskDelivery;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PlannerTest {

    @TempDir
    Path tiles;

    private final InMemoryJobStore store = new InMemoryJobStore(Clock.systemUTC(), 100);
    private final LocalMetatileLock planLocks = new LocalMetatileLock();
    private Planner planner;
    private Shares shares;

    private Planner planner(InMemoryTaskQueue queue, int threads, int maxAhead) {
        return planner(store, queue, threads, maxAhead);
    }

    private Planner planner(JobStore store, InMemoryTaskQueue queue, int threads, int maxAhead) {
        return planner(store, planLocks, queue, threads, maxAhead);
    }

    private Planner planner(JobStore store, MetatileLock planLocks, InMemoryTaskQueue queue, int threads,
            int maxAhead) {
        Outages outages = new Outages(Duration.ofMinutes(10), Clock.systemUTC());
        LocalJobGate gate = new LocalJobGate(store);
        Finisher finisher = new Finisher(store, LAYERS, new FileTileStore(tiles), gate, outages,
                new JobMetrics(new SimpleMeterRegistry(), store), new Waiters(store, gate, 1), () -> { });
        shares = fixedShares(store, maxAhead);
        planner = new Planner(store, queue, planLocks, outages, finisher, threads, shares, new MetatilePlans(4));
        return planner;
    }

    @AfterEach
    void close() {
        planner.close();
    }

    @Test
    void thePlannerStaysAtMostMaxAheadTasksAheadOfTheResults() throws InterruptedException {
        InMemoryTaskQueue queue = new InMemoryTaskQueue(10_000, 1);
        String id = submitted(store, 5).id(); // 1 365 tasks
        AtomicInteger looks = new AtomicInteger();
        planner(lookCounting(id, looks), queue, 1, 8).start(id);

        eventually(() -> store.get(id).orElseThrow().tasksPlanned() == 8);
        awaitMoreLooks(looks, 3);
        assertThat(queue.size()).as("no result yet: the planner looked for room three times and waits").isEqualTo(8);

        store.record(succeeded(id, 0));
        store.record(succeeded(id, 1));
        eventually(() -> store.get(id).orElseThrow().tasksPlanned() == 10);
        awaitMoreLooks(looks, 3);
        assertThat(queue.size()).isEqualTo(10);
    }

    @Test
    void aJobOfHigherPriorityHasAllItsTasksQueuedBeforeAnyMoreOfALowerOne() throws InterruptedException {
        InMemoryTaskQueue queue = new InMemoryTaskQueue(10_000, 1);
        JobStatus low = submitted(store, 5, 0); // 1 365 tasks
        planner(queue, 2, 8).start(low.id());
        eventually(() -> store.get(low.id()).orElseThrow().tasksPlanned() == 8);
        String high = submitted(store, 2, 1).id(); // 21 tasks
        planner.start(high);
        eventually(() -> shares.allowance(low) == 0);

        List<String> taken = new ArrayList<>();
        while (taken.stream().filter(high::equals).count() < 21) {
            TaskDelivery delivery = queue.poll(Duration.ofSeconds(5)).orElseThrow();
            delivery.accept();
            taken.add(delivery.task().jobId());
            store.record(succeeded(delivery.task().jobId(), delivery.task().seq()));
        }

        assertThat(taken.subList(0, 8)).as("queued before the high one came").containsOnly(low.id());
        assertThat(taken.subList(8, taken.size())).containsOnly(high);
        eventually(() -> queue.size() == 8);
        assertThat(queue.poll(Duration.ZERO).orElseThrow().task().jobId()).as("the low one goes on").isEqualTo(low.id());
    }

    @Test
    void aJobWaitingForOneOfHigherPriorityBeforeItsFirstTaskStaysPlanning() throws InterruptedException {
        InMemoryTaskQueue queue = new InMemoryTaskQueue(10_000, 1);
        String high = submitted(store, 5, 1).id(); // 1 365 tasks, 8 queued at a time
        JobStatus low = submitted(store, 2, 0);
        AtomicInteger looks = new AtomicInteger();
        planner(lookCounting(low.id(), looks), queue, 2, 8).start(high);
        eventually(() -> store.get(high).orElseThrow().tasksPlanned() == 8);

        planner.start(low.id());
        // One look before planning, then one per turn of its wait for room: the third is well inside the wait.
        eventually(() -> looks.get() >= 3);

        JobStatus waiting = store.get(low.id()).orElseThrow();
        assertThat(waiting.state()).isEqualTo(JobState.PLANNING);
        assertThat(waiting.tasksPlanned()).isZero();
        assertThat(waiting.started()).isNull();
        assertThat(queue.size()).as("only the high job's tasks").isEqualTo(8);
    }

    @Test
    void aPlanResumesFromTheRecordedCursor() throws InterruptedException {
        InMemoryTaskQueue queue = new InMemoryTaskQueue(10_000, 1);
        String id = submitted(store, 2).id(); // 21 tasks
        store.planned(id, 5, false);

        planner(queue, 1, 1000).start(id);

        eventually(() -> store.get(id).orElseThrow().planningDone());
        JobStatus job = store.get(id).orElseThrow();
        assertThat(job.tasksPlanned()).isEqualTo(21);
        assertThat(job.state()).as("no result yet").isEqualTo(JobState.RUNNING);
        assertThat(queue.size()).isEqualTo(16);
        assertThat(queue.poll(Duration.ZERO).map(TaskDelivery::task).orElseThrow().seq()).isEqualTo(5);
    }

    @Test
    void aJobWhosePlanningLockIsHeldElsewhereIsLeftToThatPlanner() throws InterruptedException {
        InMemoryTaskQueue queue = new InMemoryTaskQueue(10_000, 1);
        String id = submitted(store, 1).id();
        List<Boolean> tries = new CopyOnWriteArrayList<>();
        MetatileLock recording = (key, wait) -> {
            Optional<MetatileLock.Lease> lease = planLocks.tryLock(key, wait);
            tries.add(lease.isPresent());
            return lease;
        };
        Planner planner = planner(store, recording, queue, 1, 1000);
        MetatileLock.Lease other = planLocks.tryLock("plan/" + id, Duration.ZERO).orElseThrow();

        planner.start(id);
        eventually(() -> !tries.isEmpty());
        assertThat(tries).as("the planner found the lock held, and a planner that does gives up").containsExactly(false);
        assertThat(queue.size()).isZero();

        other.close();
        eventually(() -> planner.start(id) && store.get(id).orElseThrow().planningDone());
        assertThat(queue.size()).as("planned once").isEqualTo(5);
    }

    /**
     * A planning lock that expired (its renewals could not reach Redis) may be another replica's: the planner checks
     * before each batch it records, stops without recording more, and the next planner resumes from the cursor.
     */
    @Test
    void aPlannerWhosePlanningLockWasLostStopsBeforeItsNextBatch() throws InterruptedException {
        InMemoryTaskQueue queue = new InMemoryTaskQueue(10_000, 1);
        String id = submitted(store, 5).id(); // 1 365 tasks
        AtomicBoolean lost = new AtomicBoolean();
        List<Boolean> answers = new CopyOnWriteArrayList<>();
        MetatileLock losing = (key, wait) -> planLocks.tryLock(key, wait).map(lease -> new MetatileLock.Lease() {
            @Override
            public boolean held() {
                boolean held = !lost.get() && lease.held();
                answers.add(held);
                return held;
            }

            @Override
            public void close() {
                lease.close();
            }
        });
        Planner planner = planner(store, losing, queue, 1, 8);
        planner.start(id);
        eventually(() -> store.get(id).orElseThrow().tasksPlanned() == 8);

        lost.set(true);
        store.record(succeeded(id, 0));
        store.record(succeeded(id, 1));
        eventually(() -> answers.contains(false));
        assertThat(queue.size()).as("nothing queued once the lock is lost").isEqualTo(8);
        assertThat(store.get(id).orElseThrow().tasksPlanned()).isEqualTo(8);

        lost.set(false);
        eventually(() -> planner.start(id) && store.get(id).orElseThrow().tasksPlanned() == 10);
        assertThat(queue.size()).as("resumed from the recorded cursor").isEqualTo(10);
    }

    @Test
    void plannersAreBoundedAndOneWaitingOnAFullQueueStopsWhenItsJobIsCancelled() throws InterruptedException {
        InMemoryTaskQueue queue = new InMemoryTaskQueue(1, 1);
        String cancelled = submitted(store, 2).id();
        String next = submitted(store, 0).id();
        AtomicInteger looks = new AtomicInteger();
        Planner planner = planner(lookCounting(cancelled, looks), queue, 1, 1000);

        assertThat(planner.start(cancelled)).isTrue();
        assertThat(planner.start(next)).as("waits for the planner thread").isTrue();
        assertThat(planner.start(submitted(store, 0).id())).as("every planner busy").isFalse();
        assertThat(planner.start(cancelled)).as("planned already: no second planner").isTrue();

        eventually(() -> queue.size() == 1);
        store.finish(cancelled, JobState.CANCELLED, "cancelled");
        // The planner's next look at its job finds it final and ends its plan, so the freed place goes to the next job.
        awaitMoreLooks(looks, 1);
        TaskDelivery first = queue.poll(Duration.ZERO).orElseThrow();
        assertThat(first.task().jobId()).isEqualTo(cancelled);
        first.accept(); // frees the queue's one slot for the next delivery

        eventually(() -> store.get(next).orElseThrow().planningDone());
        assertThat(queue.poll(Duration.ZERO).map(TaskDelivery::task).orElseThrow().jobId()).isEqualTo(next);
    }

    @Test
    void aPlanStoppedByTheShutdownIsResumedNotFailedWhateverExceptionTheInterruptBecame() throws InterruptedException {
        for (boolean flagKept : new boolean[] {true, false}) {
            InMemoryTaskQueue queue = new InMemoryTaskQueue(10_000, 1);
            String id = submitted(store, 3).id(); // 85 tasks
            StoreInterruptedAtFirstCursor stalling = new StoreInterruptedAtFirstCursor(store, flagKept);
            Outages outages = new Outages(Duration.ofMinutes(10), Clock.systemUTC());
            LocalJobGate gate = new LocalJobGate(stalling);
            Finisher finisher = new Finisher(stalling, LAYERS, new FileTileStore(tiles), gate, outages,
                    new JobMetrics(new SimpleMeterRegistry(), stalling), new Waiters(stalling, gate, 1), () -> { });
            Planner stopped = new Planner(stalling, queue, planLocks, outages, finisher, 1, fixedShares(stalling, 1000),
                    new MetatilePlans(4));
            stopped.start(id);
            assertThat(stalling.reached.await(10, TimeUnit.SECONDS)).as("the planner records its last cursor").isTrue();

            stopped.close();

            JobStatus job = store.get(id).orElseThrow();
            assertThat(job.state().isFinal()).as("flag kept %s: %s", flagKept, job).isFalse();
            planner(queue, 1, 1000).start(id);
            eventually(() -> store.get(id).orElseThrow().planningDone());
            assertThat(store.get(id).orElseThrow().tasksPlanned()).isEqualTo(85);
            planner.close();
        }
    }

    /**
     * Blocks the first {@link #planned} call until the thread is interrupted, then throws as Redisson does: an
     * unchecked exception caused by the InterruptedException, the thread's flag set again or, as some clients do,
     * not.
     */
    private static final class StoreInterruptedAtFirstCursor implements JobStore {
        private final JobStore store;
        private final boolean flagKept;
        final CountDownLatch reached = new CountDownLatch(1);

        StoreInterruptedAtFirstCursor(JobStore store, boolean flagKept) {
            this.store = store;
            this.flagKept = flagKept;
        }

        @Override
        public Optional<JobStatus> start(String id) {
            return store.start(id);
        }

        @Override
        public JobStatus planned(String id, long tasksPlanned, boolean planningDone) {
            reached.countDown();
            try {
                new CountDownLatch(1).await();
                throw new AssertionError("unreachable: the latch is never opened");
            } catch (InterruptedException e) {
                if (flagKept) {
                    Thread.currentThread().interrupt();
                }
                throw new IllegalStateException(e);
            }
        }

        @Override
        public JobStatus create(JobStatus job) {
            return store.create(job);
        }

        @Override
        public Optional<JobStatus> get(String id) {
            return store.get(id);
        }

        @Override
        public Optional<JobStatus> findByIdempotencyKey(String key) {
            return store.findByIdempotencyKey(key);
        }

        @Override
        public List<JobStatus> list(int limit) {
            return store.list(limit);
        }

        @Override
        public boolean record(TaskResult result) {
            return store.record(result);
        }

        @Override
        public Optional<JobStatus> finish(String id, JobState state, String reason) {
            return store.finish(id, state, reason);
        }

        @Override
        public Optional<JobStatus> recordLost(JobStatus lastSeen, String reason) {
            return store.recordLost(lastSeen, reason);
        }

        @Override
        public List<JobStatus> unfinished() {
            return store.unfinished();
        }

        @Override
        public Map<JobState, Long> countByState() {
            return store.countByState();
        }

        @Override
        public List<String> pendingEvents() {
            return store.pendingEvents();
        }

        @Override
        public void eventSent(String id) {
            store.eventSent(id);
        }
    }

    /** The test's store, counting in {@code looks} each time a job's record is read. */
    private JobStore lookCounting(String jobId, AtomicInteger looks) {
        InvocationHandler delegate = (proxy, method, args) -> {
            if (method.getName().equals("get") && jobId.equals(args[0])) {
                looks.incrementAndGet();
            }
            try {
                return method.invoke(store, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (JobStore) Proxy.newProxyInstance(JobStore.class.getClassLoader(), new Class<?>[] {JobStore.class},
                delegate);
    }

    /** Waits until the planner has read the job's record {@code more} times since the call. */
    private static void awaitMoreLooks(AtomicInteger looks, int more) throws InterruptedException {
        int from = looks.get();
        eventually(() -> looks.get() >= from + more);
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            Thread.sleep(20);
        }
    }
}
