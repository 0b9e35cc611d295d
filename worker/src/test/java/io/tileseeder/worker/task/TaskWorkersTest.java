package io.tileseeder.worker.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tileseeder.adapters.ForwardingTileStore;
import io.tileseeder.port.TileCache;
import io.tileseeder.adapters.LoggedRecords;
import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.adapters.file.Folders;
import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.grid.TileRange;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import io.tileseeder.layer.LayerCatalogConfig;
import io.tileseeder.layer.LayerCatalogFile;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.message.TaskResult;
import io.tileseeder.outage.Outages;
import io.tileseeder.port.ArchivePacker;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.JobGate;
import io.tileseeder.port.MetatileLock;
import io.tileseeder.port.ResultSink;
import io.tileseeder.port.StoreUnavailableException;
import io.tileseeder.port.TaskDelivery;
import io.tileseeder.port.TaskQueue;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import io.tileseeder.render.RenderFixtures;
import io.tileseeder.worker.task.WorkerFixtures.MapLock;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker loop with an in-test bounded queue and result sink, which write down everything that happens to
 * every delivery, in order.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TaskWorkersTest {

    private static final int MAX_DELIVERIES = 3;
    private static final long WAIT_SECONDS = 15;
    private static final Duration DRAIN = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    private Path config;
    private Path tiles;
    private LayerCatalogConfig catalog;
    private MapLock lock;
    private Log log;
    private TestQueue queue;
    private RecordingSink sink;
    private final List<TaskWorkers> started = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        config = Files.createDirectories(dir.resolve("config"));
        tiles = dir.resolve("tiles");
        Files.writeString(config.resolve("box.geojson"), RenderFixtures.rectangleGeoJson(10, 10, 20, 20));
        catalog = LayerCatalogFile.read(RenderFixtures.writeCatalog(config, RenderFixtures.catalogYaml(
                RenderFixtures.layerYaml("box", "box.geojson", "skip"),
                RenderFixtures.layerYaml("broken", "missing.geojson", "skip"))));
        lock = new MapLock();
        log = new Log();
        queue = new TestQueue(2, log);
        sink = new RecordingSink(log, tiles);
    }

    @AfterEach
    void tearDown() {
        started.forEach(TaskWorkers::close);
    }

    @Test
    void aTaskThatAlwaysFailsIsTriedMaxDeliveriesTimesThenRecordedFailedAndRejected() throws Exception {
        MetatileTask task = tasks("broken", 0, 0).getFirst();
        CountDownLatch verdict = log.latchFor("reject 0");
        start(2, 1, MAX_DELIVERIES, WorkerFixtures.openGate());

        queue.publish(task);

        assertThat(verdict.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("rejected in time; log %s", log).isTrue();
        assertThat(log.entries()).containsExactly(
                "deliver 0 #1", "release 0",
                "deliver 0 #2", "release 0",
                "deliver 0 #3", "publish 0 FAILED", "reject 0");
        assertThat(sink.results()).singleElement().satisfies(result -> {
            assertThat(result.succeeded()).isFalse();
            assertThat(result.jobId()).isEqualTo("job-broken");
            assertThat(result.seq()).isZero();
            assertThat(result.error()).contains(config.resolve("missing.geojson").toString());
            assertThat(result.counts().failed()).isEqualTo(task.tiles().count());
            assertThat(result.counts().written() + result.counts().empty() + result.counts().skipped()).isZero();
        });
        assertThat(queue.verdictErrors()).isEmpty();
        assertThat(lock.acquired()).isEqualTo(MAX_DELIVERIES).isEqualTo(lock.released());
        assertThat(Folders.regularFiles(tiles)).isEmpty();
    }

    /**
     * A task that failed for good is information in the worker's log, as each of its tries is: the warning is the
     * coordinator's, one per failed job summing its tasks up, so a job of many failed tasks is not a warning each.
     */
    @Test
    void aTaskThatFailsForGoodIsLoggedAsInformationNotAsAWarning() throws Exception {
        List<LogRecord> logged;
        try (LoggedRecords workerLog = LoggedRecords.of(TaskWorkers.class)) {
            CountDownLatch verdict = log.latchFor("reject 0");
            start(2, 1, MAX_DELIVERIES, WorkerFixtures.openGate());

            queue.publish(tasks("broken", 0, 0).getFirst());

            assertThat(verdict.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("rejected in time; log %s", log).isTrue();
            logged = workerLog.records();
        }
        assertThat(logged).filteredOn(entry -> entry.getMessage().contains("failed for good")).singleElement()
                .satisfies(entry -> assertThat(entry.getLevel()).isEqualTo(Level.INFO));
        assertThat(logged).noneMatch(entry -> entry.getLevel().intValue() >= Level.WARNING.intValue());
    }

    @Test
    void aSuccessfulTasksResultIsPublishedAfterItsTilesAreStoredAndBeforeItIsAccepted() throws Exception {
        List<MetatileTask> tasks = tasks("box", 0, 3);
        assertThat(tasks).hasSize(7);
        CountDownLatch accepted = log.latchForPrefix("accept ", tasks.size());
        start(2, 1, MAX_DELIVERIES, WorkerFixtures.openGate());

        for (MetatileTask task : tasks) {
            queue.publish(task); // blocks while the bounded queue is full
        }

        assertThat(accepted.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("all accepted in time; log %s", log).isTrue();
        List<String> entries = log.entries();
        for (MetatileTask task : tasks) {
            long seq = task.seq();
            assertThat(entries).as("verdicts of task %d", seq)
                    .filteredOn(e -> e.matches("(publish|accept|reject|release) " + seq + "( .*)?"))
                    .containsExactly("publish " + seq + " SUCCEEDED", "accept " + seq);
        }
        assertThat(sink.results()).hasSize(tasks.size()).allMatch(TaskResult::succeeded)
                .extracting(TaskResult::seq).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L, 6L);
        long written = sink.results().stream().mapToLong(r -> r.counts().written()).sum();
        long empty = sink.results().stream().mapToLong(r -> r.counts().empty()).sum();
        assertThat(written + empty).isEqualTo(85);
        Set<String> files = Folders.tiles(tiles);
        assertThat(files).hasSize((int) written);
        // When each result was published, the tiles it counted were already there.
        for (TaskResult result : sink.results()) {
            MetatileTask task = tasks.get((int) result.seq());
            long there = WorkerFixtures.tilesOf(task.tiles()).stream()
                    .filter(t -> sink.filesAtPublish(result.seq()).contains(
                            "box/WebMercatorQuad/" + t.z() + "/" + t.x() + "/" + t.y() + ".png"))
                    .count();
            assertThat(there).as("tiles of task %d on disk when its result was published", result.seq())
                    .isEqualTo(result.counts().written());
            assertThat(sink.filesAtPublish(result.seq())).as("task %d's metatile marked done", result.seq())
                    .contains("box/WebMercatorQuad/done/png-4x4-skip/" + task.z() + "/" + task.metatileX() + "/"
                            + task.metatileY());
        }
        assertThat(queue.verdictErrors()).isEmpty();
        assertThat(lock.acquired()).isEqualTo(lock.released());
    }

    @Test
    void aTaskWhoseTilesCannotBeStoredIsTriedMaxDeliveriesTimesThenRecordedFailed() throws Exception {
        MetatileTask task = tasks("box", 0, 0, Mode.RESEED).getFirst();
        Path blocked = tiles.resolve("box/WebMercatorQuad/0/0/0.png");
        Files.createDirectories(blocked.resolve("in-the-way"));
        CountDownLatch verdict = log.latchFor("reject 0");
        start(2, 2, MAX_DELIVERIES, WorkerFixtures.openGate());

        queue.publish(task);

        assertThat(verdict.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("rejected in time; log %s", log).isTrue();
        assertThat(log.entries()).containsExactly(
                "deliver 0 #1", "release 0",
                "deliver 0 #2", "release 0",
                "deliver 0 #3", "publish 0 FAILED", "reject 0");
        assertThat(sink.results()).singleElement().satisfies(result -> {
            assertThat(result.succeeded()).isFalse();
            assertThat(result.error()).contains("0.png");
            assertThat(result.counts().failed()).isEqualTo(1);
        });
        assertThat(lock.acquired()).isEqualTo(MAX_DELIVERIES).isEqualTo(lock.released());
        assertThat(Folders.tempFiles(tiles)).isEmpty();
        assertThat(queue.verdictErrors()).isEmpty();
    }

    @Test
    void aTaskWhoseMetatileIsLockedElsewhereIsKeptAndRenewedUntilTheLockIsFreeSpendingNoDelivery() throws Exception {
        MetatileTask task = tasks("box", 0, 0).getFirst();
        MetatileLock.Lease held = lock.tryLock(task.metatileKey(), Duration.ZERO).orElseThrow();
        // More tries than the deliveries a queue allows: a release per try would have used them all up.
        CountDownLatch manyTries = log.latchFor("renew 0", MAX_DELIVERIES + 2);
        CountDownLatch accepted = log.latchFor("accept 0");
        start(1, 1, MAX_DELIVERIES, WorkerFixtures.openGate(), Duration.ofMillis(10));

        queue.publish(task);
        assertThat(manyTries.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("renewed while locked; log %s", log)
                .isTrue();
        assertThat(sink.results()).as("no result while the metatile is locked").isEmpty();
        held.close();

        assertThat(accepted.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("accepted once free; log %s", log).isTrue();
        assertThat(sink.results()).singleElement().satisfies(result -> {
            assertThat(result.succeeded()).isTrue();
            assertThat(result.counts().written()).isEqualTo(1);
        });
        assertThat(log.entries()).as("one delivery, never given back").containsOnlyOnce("deliver 0 #1")
                .noneMatch(e -> e.startsWith("deliver 0 #2")).doesNotContain("release 0", "reject 0");
        assertThat(queue.verdictErrors()).isEmpty();
    }

    @Test
    void aTaskWaitingForALockHeldElsewhereIsDroppedWhenItsJobEnds() throws Exception {
        MetatileTask task = tasks("box", 0, 0).getFirst();
        MetatileLock.Lease held = lock.tryLock(task.metatileKey(), Duration.ZERO).orElseThrow();
        WorkerFixtures.TestGate gate = WorkerFixtures.openGate();
        CountDownLatch waiting = log.latchFor("renew 0", 2);
        CountDownLatch accepted = log.latchFor("accept 0");
        start(1, 1, MAX_DELIVERIES, gate, Duration.ofMillis(10));

        queue.publish(task);
        assertThat(waiting.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("waiting for the lock; log %s", log).isTrue();
        gate.close("job-box");

        assertThat(accepted.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("dropped once final; log %s", log).isTrue();
        assertThat(sink.results()).isEmpty();
        assertThat(Folders.regularFiles(tiles)).isEmpty();
        assertThat(log.entries()).doesNotContain("release 0", "reject 0");
        held.close();
    }

    @Test
    void aFinalOrUnknownJobsTasksAreAcceptedWithoutWork() throws Exception {
        List<MetatileTask> tasks = tasks("box", 0, 1);
        CountDownLatch accepted = log.latchForPrefix("accept ", tasks.size());
        start(2, 1, MAX_DELIVERIES, WorkerFixtures.openGate().close("job-box"));

        for (MetatileTask task : tasks) {
            queue.publish(task);
        }

        assertThat(accepted.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("log %s", log).isTrue();
        assertThat(sink.results()).isEmpty();
        assertThat(lock.acquired()).isZero();
        assertThat(Folders.regularFiles(tiles)).isEmpty();
    }

    @Test
    void aPassOfTheJobIsHeldWhileTheTilesAreStoredAndClosedBeforeTheResult() throws Exception {
        MetatileTask task = tasks("box", 0, 0).getFirst();
        WorkerFixtures.TestGate gate = WorkerFixtures.openGate();
        List<Long> openWhileStoring = new CopyOnWriteArrayList<>();
        List<Long> openAtResult = new CopyOnWriteArrayList<>();
        TileStore store = new ForwardingTileStore(new FileTileStore(tiles)) {
            @Override
            public void write(Collection<EncodedTile> written) throws IOException {
                openWhileStoring.add(gate.passesOpen(task.jobId()));
                super.write(written);
            }
        };
        ResultSink results = result -> {
            openAtResult.add(gate.passesOpen(result.jobId()));
            sink.publish(result);
        };
        CountDownLatch accepted = log.latchFor("accept 0");
        started.add(new TaskWorkers(queue, new MetatileProcessor(RenderFixtures.resources(catalog), store, lock,
                WorkerFixtures.LOCK_WAIT, WorkerMetrics.unregistered()), results, gate, 1, 1, MAX_DELIVERIES,
                outages(Duration.ofSeconds(1)), DRAIN));

        queue.publish(task);

        assertThat(accepted.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("log %s", log).isTrue();
        assertThat(openWhileStoring).isNotEmpty().containsOnly(1L);
        assertThat(openAtResult).containsExactly(0L);
        assertThat(gate.passesOpen(task.jobId())).isZero();
    }

    @Test
    void aTaskWaitsOutAnUnavailableJobGateWithoutSpendingDeliveries() throws Exception {
        MetatileTask task = tasks("box", 0, 0).getFirst();
        // More failed entries than deliveries: were each one a failed try, the task would end FAILED.
        WorkerFixtures.TestGate gate = WorkerFixtures.openGate().failNext(MAX_DELIVERIES + 1);
        CountDownLatch accepted = log.latchFor("accept 0");
        started.add(new TaskWorkers(queue, processor(WorkerFixtures.LOCK_WAIT), sink, gate, 1, 1, MAX_DELIVERIES,
                outages(Duration.ofMinutes(1)), DRAIN));

        queue.publish(task);

        assertThat(accepted.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("log %s", log).isTrue();
        assertThat(gate.entries.get()).isEqualTo(MAX_DELIVERIES + 2);
        assertThat(log.entries()).first().isEqualTo("deliver 0 #1");
        assertThat(log.entries()).filteredOn(entry -> entry.startsWith("deliver")).hasSize(1);
        assertThat(log.entries()).contains("publish 0 SUCCEEDED").doesNotContain("release 0", "reject 0");
        assertThat(Folders.tiles(tiles)).containsExactly("box/WebMercatorQuad/0/0/0.png");
    }

    @Test
    void aTaskWaitsOutAnUnavailableStoreRenewingItselfWithoutSpendingDeliveries() throws Exception {
        MetatileTask task = tasks("box", 0, 0).getFirst();
        // As many failed writes as deliveries: were each one a failed try, the task would end FAILED.
        OutageStore store = new OutageStore(new FileTileStore(tiles), MAX_DELIVERIES);
        CountDownLatch accepted = log.latchFor("accept 0");
        started.add(new TaskWorkers(queue, new MetatileProcessor(RenderFixtures.resources(catalog), store, lock,
                WorkerFixtures.LOCK_WAIT, WorkerMetrics.unregistered()), sink, WorkerFixtures.openGate(), 1, 1, MAX_DELIVERIES,
                outages(Duration.ofSeconds(20)), DRAIN));

        queue.publish(task);

        assertThat(accepted.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("accepted once back; log %s", log).isTrue();
        List<String> renewals = new ArrayList<>();
        for (int i = 0; i < MAX_DELIVERIES; i++) {
            renewals.add("renew 0");
        }
        List<String> expected = new ArrayList<>(List.of("deliver 0 #1"));
        expected.addAll(renewals);
        expected.addAll(List.of("publish 0 SUCCEEDED", "accept 0"));
        assertThat(log.entries()).containsExactlyElementsOf(expected);
        assertThat(Folders.tiles(tiles)).containsExactly("box/WebMercatorQuad/0/0/0.png");
        assertThat(lock.acquired()).isEqualTo(1).isEqualTo(lock.released());
        assertThat(queue.verdictErrors()).isEmpty();
    }

    @Test
    void aStoreOutageLongerThanTheWaitCountsAsAFailedTryAndFreesTheLock() throws Exception {
        MetatileTask task = tasks("box", 0, 0).getFirst();
        OutageStore store = new OutageStore(new FileTileStore(tiles), Integer.MAX_VALUE);
        CountDownLatch verdict = log.latchFor("reject 0");
        started.add(new TaskWorkers(queue, new MetatileProcessor(RenderFixtures.resources(catalog), store, lock,
                WorkerFixtures.LOCK_WAIT, WorkerMetrics.unregistered()), sink, WorkerFixtures.openGate(), 1, 1, 2, outages(Duration.ZERO), DRAIN));

        queue.publish(task);

        assertThat(verdict.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("rejected in time; log %s", log).isTrue();
        assertThat(log.entries()).containsExactly(
                "deliver 0 #1", "release 0", "deliver 0 #2", "publish 0 FAILED", "reject 0");
        assertThat(sink.results()).singleElement().satisfies(r -> assertThat(r.error()).contains("store is down"));
        assertThat(lock.acquired()).isEqualTo(2).isEqualTo(lock.released());
    }

    @Test
    void closeLetsTheMetatileInProgressFinishAndReportsItButTakesNoNewTask() throws Exception {
        List<MetatileTask> tasks = tasks("box", 0, 1);
        assertThat(tasks).hasSize(2);
        GateStore store = new GateStore(new FileTileStore(tiles));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        TaskWorkers workers = new TaskWorkers(queue, new MetatileProcessor(RenderFixtures.resources(catalog), store, lock,
                WorkerFixtures.LOCK_WAIT, new WorkerMetrics(registry)), sink, WorkerFixtures.openGate(), 1, 1, MAX_DELIVERIES,
                outages(Duration.ofSeconds(1)), Duration.ofSeconds(WAIT_SECONDS));
        started.add(workers);
        queue.publish(tasks.get(0));
        queue.publish(tasks.get(1));
        assertThat(store.entered.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("checking; log %s", log).isTrue();

        Thread closing = Thread.ofPlatform().name("closing").start(workers::close);
        // Draining: waiting for the render thread.
        WorkerFixtures.await(() -> closing.getState() == Thread.State.TIMED_WAITING);
        store.open.countDown();
        closing.join(Duration.ofSeconds(WAIT_SECONDS));

        assertThat(closing.isAlive()).as("closed in time").isFalse();
        assertThat(log.entries()).containsExactly("deliver 0 #1", "publish 0 SUCCEEDED", "accept 0");
        assertThat(Folders.tiles(tiles)).containsExactly("box/WebMercatorQuad/0/0/0.png");
        assertThat(lock.acquired()).isEqualTo(1).isEqualTo(lock.released());
        assertThat(registry.get("seeder.tasks").tag("outcome", "succeeded").counter().count()).isEqualTo(1);
        assertThat(registry.get("seeder.tasks.in.flight").gauge().value()).isZero();
        assertThat(registry.get("seeder.tiles").tag("outcome", "written").counter().count()).isEqualTo(1);
    }

    @Test
    void closeInterruptsAMetatileThatOutlastsTheDrainTimeoutAndGivesItsTaskBack() throws Exception {
        MetatileTask task = tasks("box", 0, 0).getFirst();
        GateStore store = new GateStore(new FileTileStore(tiles));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        TaskWorkers workers = new TaskWorkers(queue, new MetatileProcessor(RenderFixtures.resources(catalog), store, lock,
                WorkerFixtures.LOCK_WAIT, new WorkerMetrics(registry)), sink, WorkerFixtures.openGate(), 1, 1, 1,
                outages(Duration.ofSeconds(1)), Duration.ofMillis(100));
        started.add(workers);
        queue.publish(task);
        assertThat(store.entered.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("checking; log %s", log).isTrue();

        workers.close(); // the gate never opens

        // With one delivery allowed, a failure counted against the task would have recorded it FAILED.
        assertThat(log.entries()).containsExactly("deliver 0 #1", "release 0");
        assertThat(sink.results()).isEmpty();
        assertThat(lock.acquired()).isEqualTo(1).isEqualTo(lock.released());
        assertThat(registry.get("seeder.tasks").tag("outcome", "released").counter().count()).isEqualTo(1);
        assertThat(registry.get("seeder.tasks.in.flight").gauge().value()).isZero();
        assertThat(registry.get("seeder.store.errors").counter().count()).as("an interrupt is no store error")
                .isZero();
    }

    @Test
    void needsAThreadOfEachStageAndADelivery() {
        MetatileProcessor processor = processor(WorkerFixtures.LOCK_WAIT);
        assertThatThrownBy(() -> new TaskWorkers(queue, processor, sink, WorkerFixtures.openGate(), 0, 1, 1, outages(Duration.ofSeconds(1)), DRAIN))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TaskWorkers(queue, processor, sink, WorkerFixtures.openGate(), 1, 0, 1, outages(Duration.ofSeconds(1)), DRAIN))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TaskWorkers(queue, processor, sink, WorkerFixtures.openGate(), 1, 1, 0, outages(Duration.ofSeconds(1)), DRAIN))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * A pack task whose job ends while it packs: the pack is told to stop and stops, nothing is reported, the task is
     * dropped and the job's pass closed, so the job's final event waits for no archive. Meanwhile the pack's
     * liveness renews the task.
     */
    @Test
    void aPackWhoseJobEndsMidPackStopsAndIsDroppedWithNoResult() throws Exception {
        MetatileTask task = MetatileTask.of("job-pack", 0, "box", DimensionValues.NONE, TileFormat.PNG, Mode.PACK,
                new Metatile(TileMatrixSet.WEB_MERCATOR_QUAD, 0, 0, 0, new MetatileSize(1, 1)),
                new TileRange(0, 0, 0, 0, 0), null, null, "world.pmtiles");
        CountDownLatch packing = new CountDownLatch(1);
        AtomicBoolean stoppedSeen = new AtomicBoolean();
        ArchivePacker packer = (cache, format, archive, watch) -> {
            packing.countDown();
            watch.alive();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (!watch.stopped()) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("never told to stop");
                }
                Thread.sleep(10);
            }
            stoppedSeen.set(true);
            throw new ArchivePacker.Stopped();
        };
        WorkerFixtures.TestGate gate = WorkerFixtures.openGate();
        CountDownLatch dropped = log.latchFor("accept 0");
        started.add(new TaskWorkers(queue, new MetatileProcessor(RenderFixtures.resources(catalog),
                new FileTileStore(tiles), lock, WorkerFixtures.LOCK_WAIT, WorkerMetrics.unregistered(), packer), sink,
                gate, 1, 1, MAX_DELIVERIES, outages(Duration.ofSeconds(1)), DRAIN));

        queue.publish(task);
        assertThat(packing.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("packing; log %s", log).isTrue();
        gate.close("job-pack");

        assertThat(dropped.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("dropped; log %s", log).isTrue();
        assertThat(stoppedSeen).isTrue();
        assertThat(log.entries()).containsExactly("deliver 0 #1", "renew 0", "accept 0");
        assertThat(sink.results()).as("no result of an ended job").isEmpty();
        assertThat(gate.passesOpen("job-pack")).isZero();
        assertThat(lock.acquired()).isEqualTo(1);
        assertThat(lock.released()).as("the archive's lock released").isEqualTo(1);
    }

    // ---- set-up ---------------------------------------------------------------------------------------------

    private List<MetatileTask> tasks(String layer, int minZoom, int maxZoom) {
        return tasks(layer, minZoom, maxZoom, Mode.SEED);
    }

    private List<MetatileTask> tasks(String layer, int minZoom, int maxZoom, Mode mode) {
        return WorkerFixtures.tasks("job-" + layer, WorkerFixtures.spec(catalog, layer,
                TileMatrixSet.WEB_MERCATOR_QUAD, minZoom, maxZoom, mode, null));
    }

    private MetatileProcessor processor(Duration lockWait) {
        return new MetatileProcessor(RenderFixtures.resources(catalog), new FileTileStore(tiles), lock, lockWait,
                WorkerMetrics.unregistered());
    }

    private void start(int threads, int storeThreads, int maxDeliveries, JobGate gate) {
        start(threads, storeThreads, maxDeliveries, gate, WorkerFixtures.LOCK_WAIT);
    }

    private void start(int threads, int storeThreads, int maxDeliveries, JobGate gate, Duration lockWait) {
        started.add(new TaskWorkers(queue, processor(lockWait), sink, gate, threads, storeThreads,
                maxDeliveries, outages(Duration.ofSeconds(1)), DRAIN));
    }

    private static Outages outages(Duration budget) {
        return new Outages(budget, Clock.systemUTC());
    }

    // ---- in-test adapters -----------------------------------------------------------------------------------

    /** What happened, in order, with latches that open when given entries have been written. */
    static final class Log {
        private final List<String> entries = new CopyOnWriteArrayList<>();
        private final List<Map.Entry<Predicate<String>, CountDownLatch>> waiters = new CopyOnWriteArrayList<>();

        void add(String entry) {
            entries.add(entry);
            for (Map.Entry<Predicate<String>, CountDownLatch> waiter : waiters) {
                if (waiter.getKey().test(entry)) {
                    waiter.getValue().countDown();
                }
            }
        }

        CountDownLatch latchFor(String entry) {
            return latchFor(entry, 1);
        }

        CountDownLatch latchFor(String entry, int times) {
            CountDownLatch latch = new CountDownLatch(times);
            waiters.add(Map.entry(entry::equals, latch));
            return latch;
        }

        CountDownLatch latchForPrefix(String prefix, int times) {
            CountDownLatch latch = new CountDownLatch(times);
            waiters.add(Map.entry(e -> e.startsWith(prefix), latch));
            return latch;
        }

        List<String> entries() {
            return List.copyOf(entries);
        }

        @Override
        public String toString() {
            return entries.toString();
        }
    }

    /**
     * A bounded queue: {@code publish} blocks while {@code capacity} tasks wait. A released task is delivered
     * again (first), with its delivery count one higher, from a separate queue so a release never blocks.
     */
    static final class TestQueue implements TaskQueue {
        private record Entry(MetatileTask task, int deliveries) {
        }

        private final BlockingQueue<Entry> pending;
        private final BlockingQueue<Entry> redeliver = new LinkedBlockingQueue<>();
        private final Log log;
        private final List<String> verdictErrors = new CopyOnWriteArrayList<>();

        TestQueue(int capacity, Log log) {
            this.pending = new ArrayBlockingQueue<>(capacity);
            this.log = log;
        }

        @Override
        public boolean offer(MetatileTask task, Duration timeout) throws InterruptedException {
            return pending.offer(new Entry(task, 0), timeout.toNanos(), TimeUnit.NANOSECONDS);
        }

        /** Hands a task over, waiting while the bounded queue is full. */
        void publish(MetatileTask task) throws InterruptedException {
            pending.put(new Entry(task, 0));
        }

        @Override
        public Optional<TaskDelivery> poll(Duration timeout) throws InterruptedException {
            Entry entry = redeliver.poll();
            if (entry == null) {
                entry = pending.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
            }
            if (entry == null) {
                return Optional.empty();
            }
            int count = entry.deliveries() + 1;
            log.add("deliver " + entry.task().seq() + " #" + count);
            return Optional.of(new Delivery(entry.task(), count));
        }

        List<String> verdictErrors() {
            return List.copyOf(verdictErrors);
        }

        private final class Delivery implements TaskDelivery {
            private final MetatileTask task;
            private final int count;
            private final AtomicBoolean done = new AtomicBoolean();

            Delivery(MetatileTask task, int count) {
                this.task = task;
                this.count = count;
            }

            @Override
            public MetatileTask task() {
                return task;
            }

            @Override
            public int deliveryCount() {
                return count;
            }

            @Override
            public void accept() {
                verdict("accept");
            }

            @Override
            public void release() {
                verdict("release");
                redeliver.add(new Entry(task, count));
            }

            @Override
            public void reject() {
                verdict("reject");
            }

            @Override
            public void renew() {
                log.add("renew " + task.seq());
            }

            private void verdict(String verdict) {
                if (!done.compareAndSet(false, true)) {
                    verdictErrors.add("second verdict " + verdict + " for task " + task.seq() + " #" + count);
                }
                log.add(verdict + " " + task.seq());
            }
        }
    }

    /** A store whose first {@code failures} writes find it unavailable. */
    static final class OutageStore extends ForwardingTileStore {
        private final AtomicInteger failures;

        OutageStore(TileStore delegate, int failures) {
            super(delegate);
            this.failures = new AtomicInteger(failures);
        }

        @Override
        public void write(Collection<EncodedTile> tiles) throws IOException {
            if (failures.getAndDecrement() > 0) {
                throw new StoreUnavailableException("the store is down", null);
            }
            super.write(tiles);
        }
    }

    /**
     * A store whose look-ups of existing tiles (the check stage, on a render thread) wait until {@link #open} is
     * counted down; {@link #entered} opens when the first one starts waiting.
     */
    static final class GateStore extends ForwardingTileStore {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch open = new CountDownLatch(1);

        GateStore(TileStore delegate) {
            super(delegate);
        }

        /** Every zoom holds tiles, so that every task looks up its tiles, and waits. */
        @Override
        public boolean hasTiles(TileCache cache, int z) {
            return true;
        }

        @Override
        public Optional<Instant> lastModified(TileKey key) throws IOException {
            entered.countDown();
            try {
                open.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while looking up " + key);
            }
            return super.lastModified(key);
        }
    }

    /** Records each result, and which files were in the store when it was published. */
    static final class RecordingSink implements ResultSink {
        private final Log log;
        private final Path tiles;
        private final List<TaskResult> results = new CopyOnWriteArrayList<>();
        private final Map<Long, Set<String>> filesAtPublish = new ConcurrentHashMap<>();

        RecordingSink(Log log, Path tiles) {
            this.log = log;
            this.tiles = tiles;
        }

        @Override
        public void publish(TaskResult result) {
            try {
                filesAtPublish.put(result.seq(), Folders.regularFiles(tiles));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            results.add(result);
            log.add("publish " + result.seq() + (result.succeeded() ? " SUCCEEDED" : " FAILED"));
        }

        List<TaskResult> results() {
            return List.copyOf(results);
        }

        Set<String> filesAtPublish(long seq) {
            return filesAtPublish.getOrDefault(seq, Set.of());
        }
    }
}
