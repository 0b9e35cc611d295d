package io.tileseeder.worker.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tileseeder.adapters.ForwardingTileStore;
import io.tileseeder.port.TileCache;
import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.adapters.file.Folders;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.Mode;
import io.tileseeder.layer.LayerCatalogConfig;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.outage.Outages;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.TaskDelivery;
import io.tileseeder.port.TaskQueue;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import io.tileseeder.render.RenderFixtures;
import io.tileseeder.worker.task.TaskWorkersTest.GateStore;
import io.tileseeder.worker.task.TaskWorkersTest.Log;
import io.tileseeder.worker.task.TaskWorkersTest.RecordingSink;
import io.tileseeder.worker.task.TaskWorkersTest.TestQueue;
import io.tileseeder.worker.task.WorkerFixtures.MapLock;
import io.tileseeder.worker.task.WorkerMetrics.PipelineStage;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The pipeline's named stages: what each reports holding, and a fatal failure stopping them all. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PipelineStagesTest {

    private static final long WAIT_SECONDS = 15;
    private static final Duration DRAIN = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    private Path tiles;
    private LayerCatalogConfig catalog;
    private MapLock lock;
    private Log log;
    private TestQueue queue;
    private RecordingSink sink;
    private SimpleMeterRegistry registry;
    private final List<TaskWorkers> started = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        tiles = dir.resolve("tiles");
        catalog = WorkerFixtures.boxCatalog(dir);
        lock = new MapLock();
        log = new Log();
        queue = new TestQueue(4, log);
        sink = new RecordingSink(log, tiles);
        registry = new SimpleMeterRegistry();
    }

    @AfterEach
    void tearDown() {
        started.forEach(TaskWorkers::close);
    }

    @Test
    void eachStageReportsWhatItHoldsAndAFullStoreStopsTheFetching() throws Exception {
        List<MetatileTask> tasks = tasks(0, 2);
        assertThat(tasks).hasSize(3);
        HeldStore store = new HeldStore(new FileTileStore(tiles));
        CountDownLatch accepted = log.latchForPrefix("accept ", tasks.size());
        TaskWorkers workers = start(store, WorkerFixtures.openGate(), 1, 1);
        assertThat(capacity(PipelineStage.FETCH)).isEqualTo(1);
        assertThat(capacity(PipelineStage.PREPARE)).isEqualTo(1);
        assertThat(capacity(PipelineStage.STORE)).isEqualTo(1);
        assertThat(capacity(PipelineStage.REPORT)).as("every thread reports its own verdicts").isEqualTo(3);

        for (MetatileTask task : tasks) {
            queue.publish(task);
        }

        // The first task is being prepared: prepare is full, so nothing more is taken.
        assertThat(store.checking.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("checking; log %s", log).isTrue();
        assertThat(held(PipelineStage.PREPARE)).isEqualTo(1);
        assertThat(held(PipelineStage.STORE)).isZero();
        assertThat(log.entries()).containsExactly("deliver 0 #1");

        // Then it is being written: store is full, so still nothing more is taken.
        store.checked.countDown();
        assertThat(store.writing.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("writing; log %s", log).isTrue();
        assertThat(held(PipelineStage.STORE)).isEqualTo(1);
        // Fetch passes the first task on just after handing it to prepare: under load, that may come late.
        WorkerFixtures.await(() -> held(PipelineStage.PREPARE) == 0 && held(PipelineStage.FETCH) == 0);
        assertThat(held(PipelineStage.REPORT)).isZero();
        assertThat(log.entries()).containsExactly("deliver 0 #1");

        store.written.countDown();
        assertThat(accepted.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("all accepted; log %s", log).isTrue();
        WorkerFixtures.await(() -> held(PipelineStage.STORE) == 0 && held(PipelineStage.PREPARE) == 0);
        assertThat(registry.get("seeder.tasks.in.flight").gauge().value()).isZero();
        assertThat(workers.failure()).isEmpty();
        assertThat(workers.deadThreads()).isEmpty();
    }

    @Test
    void anErrorInAStageStopsThePipelineGivesItsTaskBackAndIsVisible() throws Exception {
        MetatileTask task = tasks(0, 0).getFirst();
        AtomicInteger writes = new AtomicInteger();
        TileStore store = new ForwardingTileStore(new FileTileStore(tiles)) {
            @Override
            public void write(Collection<EncodedTile> written) {
                writes.incrementAndGet();
                throw new AssertionError("a bug in the store");
            }
        };
        WorkerFixtures.TestGate gate = WorkerFixtures.openGate();
        TaskWorkers workers = start(store, gate, 2, 2);

        queue.publish(task);

        WorkerFixtures.await(() -> workers.failure().isPresent());
        assertThat(workers.failure()).hasValueSatisfying(failure -> {
            assertThat(failure.stage()).isEqualTo(PipelineStage.STORE);
            assertThat(failure.thread()).startsWith("seeder-store");
            assertThat(failure.cause()).isInstanceOf(AssertionError.class).hasMessage("a bug in the store");
        });
        assertThat(workers.deadThreads()).singleElement().asString()
                .contains("seeder-store", "store stage", "a bug in the store");
        workers.close();
        // Given back, and never worked again: the pipeline stopped instead of looping over the failure.
        assertThat(log.entries()).startsWith("deliver 0 #1", "release 0").noneMatch(e -> e.startsWith("publish"));
        assertThat(writes).hasValue(1);
        assertThat(sink.results()).isEmpty();
        assertThat(gate.passesOpen(task.jobId())).isZero();
        assertThat(lock.acquired()).isEqualTo(1).isEqualTo(lock.released());
        assertThat(registry.get("seeder.tasks.in.flight").gauge().value()).isZero();
        assertThat(workers.deadThreads()).as("still reported once closed").hasSize(1);
    }

    @Test
    void aQueueThatFailsStopsThePipelineInsteadOfBeingPolledInALoop() throws Exception {
        AtomicInteger polls = new AtomicInteger();
        TaskQueue broken = new TaskQueue() {
            @Override
            public boolean offer(MetatileTask task, Duration timeout) {
                return false;
            }

            @Override
            public Optional<TaskDelivery> poll(Duration timeout) {
                polls.incrementAndGet();
                throw new IllegalStateException("a Kafka task consumer failed");
            }
        };
        TaskWorkers workers = new TaskWorkers(broken, processor(new FileTileStore(tiles)), sink,
                WorkerFixtures.openGate(), 2, 2, 3, outages(), DRAIN);
        started.add(workers);

        WorkerFixtures.await(() -> workers.failure().isPresent());
        workers.close();

        assertThat(workers.failure()).hasValueSatisfying(failure -> {
            assertThat(failure.stage()).isEqualTo(PipelineStage.FETCH);
            assertThat(failure.cause()).hasMessage("a Kafka task consumer failed");
        });
        assertThat(polls).hasValue(1);
    }

    @Test
    void aTaskWhoseJobEndsWhileItIsRenderedIsCountedDroppedOnly() throws Exception {
        MetatileTask task = tasks(0, 0).getFirst();
        GateStore store = new GateStore(new FileTileStore(tiles));
        WorkerFixtures.TestGate gate = WorkerFixtures.openGate();
        CountDownLatch accepted = log.latchFor("accept 0");
        start(store, gate, 1, 1);
        queue.publish(task);
        assertThat(store.entered.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("checking; log %s", log).isTrue();

        gate.close(task.jobId());
        store.open.countDown();

        assertThat(accepted.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("log %s", log).isTrue();
        assertThat(log.entries()).containsExactly("deliver 0 #1", "accept 0");
        assertThat(Folders.regularFiles(tiles)).isEmpty();
        WorkerFixtures.await(() -> registry.get("seeder.tasks.in.flight").gauge().value() == 0);
        assertThat(registry.get("seeder.tasks").tag("outcome", "dropped").counter().count()).isEqualTo(1);
        assertThat(registry.get("seeder.tasks").tag("outcome", "succeeded").counter().count()).isZero();
    }

    // ---- set-up ---------------------------------------------------------------------------------------------

    private List<MetatileTask> tasks(int minZoom, int maxZoom) {
        return WorkerFixtures.tasks("job-box", WorkerFixtures.spec(catalog, "box",
                TileMatrixSet.WEB_MERCATOR_QUAD, minZoom, maxZoom, Mode.SEED, null));
    }

    private MetatileProcessor processor(TileStore store) {
        return new MetatileProcessor(RenderFixtures.resources(catalog), store, lock, WorkerFixtures.LOCK_WAIT,
                new WorkerMetrics(registry));
    }

    private TaskWorkers start(TileStore store, WorkerFixtures.TestGate gate, int threads, int storeThreads) {
        TaskWorkers workers = new TaskWorkers(queue, processor(store), sink, gate, threads, storeThreads, 3,
                outages(), DRAIN);
        started.add(workers);
        return workers;
    }

    private static Outages outages() {
        return new Outages(Duration.ofSeconds(1), Clock.systemUTC());
    }

    private double held(PipelineStage stage) {
        return gauge("seeder.worker.stage.queue", stage);
    }

    private double capacity(PipelineStage stage) {
        return gauge("seeder.worker.stage.capacity", stage);
    }

    private double gauge(String name, PipelineStage stage) {
        return registry.get(name).tag("stage", stage.tag()).gauge().value();
    }

    /**
     * A store whose look-ups of existing tiles wait until {@link #checked} is counted down, and whose writes until
     * {@link #written} is; {@link #checking} and {@link #writing} open when the first of each starts waiting.
     */
    static final class HeldStore extends ForwardingTileStore {
        final CountDownLatch checking = new CountDownLatch(1);
        final CountDownLatch checked = new CountDownLatch(1);
        final CountDownLatch writing = new CountDownLatch(1);
        final CountDownLatch written = new CountDownLatch(1);

        HeldStore(TileStore delegate) {
            super(delegate);
        }

        /** Every zoom holds tiles, so that every task looks up its tiles, and waits. */
        @Override
        public boolean hasTiles(TileCache cache, int z) {
            return true;
        }

        @Override
        public Optional<Instant> lastModified(TileKey key) throws IOException {
            hold(checking, checked);
            return super.lastModified(key);
        }

        @Override
        public void write(Collection<EncodedTile> tiles) throws IOException {
            hold(writing, written);
            super.write(tiles);
        }

        private static void hold(CountDownLatch entered, CountDownLatch open) throws InterruptedIOException {
            entered.countDown();
            try {
                open.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while held");
            }
        }
    }
}
