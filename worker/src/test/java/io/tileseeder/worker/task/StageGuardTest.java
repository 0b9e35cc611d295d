package io.tileseeder.worker.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tileseeder.adapters.ForwardingTileStore;
import io.tileseeder.port.TileCache;
import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.Mode;
import io.tileseeder.layer.LayerCatalogConfig;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.message.TaskResult;
import io.tileseeder.outage.Outages;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.JobGate;
import io.tileseeder.port.ResultSink;
import io.tileseeder.port.TileStore;
import io.tileseeder.render.RenderFixtures;
import io.tileseeder.worker.task.TaskWorkersTest.Log;
import io.tileseeder.worker.task.TaskWorkersTest.RecordingSink;
import io.tileseeder.worker.task.TaskWorkersTest.TestQueue;
import io.tileseeder.worker.task.WorkerFixtures.MapLock;
import io.tileseeder.worker.task.WorkerMetrics.PipelineStage;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every stage meets what goes wrong the same way: a fatal error stops the pipeline and gives the task back, a
 * task's own failure releases it until its last delivery and then records it FAILED; either way the job's pass
 * is closed, the metatile's lock let go and nothing is left in flight. Each case breaks one step of one stage.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StageGuardTest {

    private static final int MAX_DELIVERIES = 3;
    private static final long WAIT_SECONDS = 15;

    /** Where the fault is, and the stage whose thread meets it. */
    enum Fault {
        ENTER_JOB(PipelineStage.FETCH),
        CHECK_STORED(PipelineStage.PREPARE),
        WRITE_TILES(PipelineStage.STORE),
        PUBLISH_RESULT(PipelineStage.STORE);

        final PipelineStage stage;

        Fault(PipelineStage stage) {
            this.stage = stage;
        }
    }

    @TempDir
    Path dir;

    private Path tiles;
    private LayerCatalogConfig catalog;
    private MapLock lock;
    private Log log;
    private TestQueue queue;
    private RecordingSink sink;
    private WorkerFixtures.TestGate gate;
    private SimpleMeterRegistry registry;
    private TaskWorkers workers;

    @BeforeEach
    void setUp() throws IOException {
        tiles = dir.resolve("tiles");
        catalog = WorkerFixtures.boxCatalog(dir);
        lock = new MapLock();
        log = new Log();
        queue = new TestQueue(4, log);
        sink = new RecordingSink(log, tiles);
        gate = WorkerFixtures.openGate();
        registry = new SimpleMeterRegistry();
    }

    @AfterEach
    void tearDown() {
        if (workers != null) {
            workers.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Fault.class)
    void anErrorStopsThePipelineAndGivesTheTaskBack(Fault fault) throws Exception {
        MetatileTask task = task();
        start(fault, () -> new AssertionError("a bug at " + fault));

        queue.publish(task);

        WorkerFixtures.await(() -> workers.failure().isPresent());
        assertThat(workers.failure()).hasValueSatisfying(failure -> {
            assertThat(failure.stage()).isEqualTo(fault.stage);
            assertThat(failure.cause()).isInstanceOf(AssertionError.class).hasMessage("a bug at " + fault);
        });
        workers.close();
        assertThat(log.entries()).as("given back, never worked again").startsWith("deliver 0 #1", "release 0")
                .noneMatch(e -> e.startsWith("publish") || e.startsWith("accept") || e.startsWith("deliver 0 #2"));
        assertLetGo(task);
    }

    @ParameterizedTest
    @EnumSource(Fault.class)
    void aFailureIsTriedAgainThenRecordedFailed(Fault fault) throws Exception {
        MetatileTask task = task();
        CountDownLatch rejected = log.latchFor("reject 0");
        start(fault, () -> new IllegalStateException("broken at " + fault));

        queue.publish(task);

        assertThat(rejected.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("log %s", log).isTrue();
        assertThat(log.entries()).containsExactly("deliver 0 #1", "release 0", "deliver 0 #2", "release 0",
                "deliver 0 #3", "publish 0 FAILED", "reject 0");
        assertThat(sink.results()).singleElement().satisfies(result -> {
            assertThat(result.succeeded()).isFalse();
            assertThat(result.error()).isEqualTo("broken at " + fault);
            assertThat(result.counts().failed()).isEqualTo(task.tilesToStore().size());
        });
        assertThat(workers.failure()).isEmpty();
        assertLetGo(task);
    }

    @ParameterizedTest
    @EnumSource(Fault.class)
    void anInterruptWhileClosingGivesTheTaskBackUntouched(Fault fault) throws Exception {
        MetatileTask task = task();
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        start(fault, () -> {
            blocked.countDown();
            try {
                never.await();
                return new AssertionError("the latch opened");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new IllegalStateException("interrupted at " + fault);
            }
        }, Duration.ofMillis(200));

        queue.publish(task);
        assertThat(blocked.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("log %s", log).isTrue();
        workers.close();

        assertThat(log.entries()).containsExactly("deliver 0 #1", "release 0");
        assertThat(sink.results()).isEmpty();
        assertThat(workers.failure()).isEmpty();
        assertLetGo(task);
    }

    private void assertLetGo(MetatileTask task) {
        WorkerFixtures.await(() -> registry.get("seeder.tasks.in.flight").gauge().value() == 0);
        assertThat(gate.passesOpen(task.jobId())).as("passes open").isZero();
        assertThat(lock.released()).as("locks let go").isEqualTo(lock.acquired());
        assertThat(queue.verdictErrors()).isEmpty();
    }

    private MetatileTask task() {
        MetatileTask task = WorkerFixtures.tasks("job-box", WorkerFixtures.spec(catalog, "box",
                TileMatrixSet.WEB_MERCATOR_QUAD, 0, 0, Mode.SEED, null)).getFirst();
        assertThat(task.tilesToStore()).isNotEmpty();
        return task;
    }

    private void start(Fault fault, Supplier<? extends Throwable> thrown) {
        start(fault, thrown, Duration.ofSeconds(5));
    }

    /** Starts a pipeline whose step at {@code fault} throws what {@code thrown} makes, every time. */
    private void start(Fault fault, Supplier<? extends Throwable> thrown, Duration drain) {
        TileStore store = new ForwardingTileStore(new FileTileStore(tiles)) {
            @Override
            public boolean hasTiles(TileCache cache, int z) throws IOException {
                throwIf(fault == Fault.CHECK_STORED, thrown);
                return super.hasTiles(cache, z);
            }

            @Override
            public void write(Collection<EncodedTile> written) throws IOException {
                throwIf(fault == Fault.WRITE_TILES, thrown);
                super.write(written);
            }
        };
        JobGate faultyGate = new JobGate() {
            @Override
            public Optional<Pass> enter(String jobId) {
                throwIf(fault == Fault.ENTER_JOB, thrown);
                return gate.enter(jobId);
            }

            @Override
            public long passesOpen(String jobId) {
                return gate.passesOpen(jobId);
            }
        };
        // Only a success fails to publish: the FAILED result of the last delivery gets through.
        ResultSink faultySink = (TaskResult result) -> {
            throwIf(fault == Fault.PUBLISH_RESULT && result.succeeded(), thrown);
            sink.publish(result);
        };
        MetatileProcessor processor = new MetatileProcessor(RenderFixtures.resources(catalog), store, lock,
                WorkerFixtures.LOCK_WAIT, new WorkerMetrics(registry));
        workers = new TaskWorkers(queue, processor, faultySink, faultyGate, 1, 1, MAX_DELIVERIES,
                new Outages(Duration.ofSeconds(1), Clock.systemUTC()), drain);
    }

    private static void throwIf(boolean when, Supplier<? extends Throwable> thrown) {
        if (when) {
            Throwable t = thrown.get();
            if (t instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) t;
        }
    }
}
