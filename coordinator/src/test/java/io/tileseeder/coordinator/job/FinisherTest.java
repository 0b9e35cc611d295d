package io.tileseeder.coordinator.job;

import static io.tileseeder.coordinator.job.JobFixtures.LAYERS;
import static io.tileseeder.coordinator.job.JobFixtures.failed;
import static io.tileseeder.coordinator.job.JobFixtures.submitted;
import static io.tileseeder.coordinator.job.JobFixtures.succeeded;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tileseeder.adapters.ForwardingTileStore;
import io.tileseeder.port.TileCache;
import io.tileseeder.adapters.LoggedRecords;
import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.adapters.file.Folders;
import io.tileseeder.adapters.memory.InMemoryJobStore;
import io.tileseeder.adapters.memory.LocalJobGate;
import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import io.tileseeder.message.JobEvent;
import io.tileseeder.outage.Outages;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.Layout;
import io.tileseeder.port.StoreUnavailableException;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FinisherTest {

    @TempDir
    Path tiles;

    private final InMemoryJobStore store = new InMemoryJobStore(Clock.systemUTC(), 100);
    private final Outages outages = new Outages(Duration.ofMinutes(10), Clock.systemUTC());
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final LocalJobGate gate = new LocalJobGate(store);
    private final Waiters waiters = new Waiters(store, gate, 4);

    private Finisher finisher(TileStore tileStore) {
        return new Finisher(store, LAYERS, tileStore, gate, outages, new JobMetrics(registry, store), waiters,
                () -> { });
    }

    /**
     * A job of zooms 0–1 (5 tasks), planned, with a result for each task but those named, and a tile of it stored (a
     * TileJSON describes the zoom levels that hold tiles).
     */
    private String plannedWithResults(long... failing) {
        storeTiles(new FileTileStore(tiles), TileMatrixSet.WEB_MERCATOR_QUAD, 0);
        String id = submitted(store, 1).id();
        store.planned(id, 5, true);
        for (long seq = 0; seq < 5; seq++) {
            long task = seq;
            store.record(Arrays.stream(failing).anyMatch(f -> f == task) ? failed(id, seq, "boom " + seq)
                    : succeeded(id, seq));
        }
        return id;
    }

    @Test
    void aJobWithEveryResultSucceedsWithItsDocumentsBesideTheTiles() throws Exception {
        String id = plannedWithResults();

        finisher(new FileTileStore(tiles)).finishIfDone(id);

        JobStatus job = store.get(id).orElseThrow();
        assertThat(job.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(tiles.resolve("world/WebMercatorQuad/tilejson-png.json")).exists();
        assertThat(tiles.resolve("world/WebMercatorQuad/WMTSCapabilities-png.xml")).exists();
        JsonNode manifest = new ObjectMapper().readTree(tiles.resolve("world/WebMercatorQuad/manifest-png.json")
                .toFile());
        assertThat(manifest.path("job").path("id").asText()).isEqualTo(id);
        assertThat(manifest.path("counts").path("written").asLong()).isEqualTo(job.counts().written());
    }

    @Test
    void aTruncateWritesNoWmtsCapabilitiesButItsManifest() throws Exception {
        JobSpec truncate = JobFixtures.VALIDATOR.validate(new JobRequest("world", null, new JobRequest.Zoom(0, 0),
                null, null, "truncate", null, null, null, null));
        String id = store.create(JobStatus.submitted("job-t", truncate, 1, Instant.now(), null)).id();
        store.planned(id, 1, true);
        store.record(succeeded(id, 0));

        finisher(new FileTileStore(tiles)).finishIfDone(id);

        assertThat(store.get(id).orElseThrow().state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(tiles.resolve("world/WebMercatorQuad/tilejson-png.json")).doesNotExist();
        assertThat(tiles.resolve("world/WebMercatorQuad/WMTSCapabilities-png.xml")).doesNotExist();
        JsonNode manifest = new ObjectMapper().readTree(tiles.resolve("world/WebMercatorQuad/manifest-png.json")
                .toFile());
        assertThat(manifest.path("job").path("mode").asText()).isEqualTo("truncate");
    }

    /**
     * TileJSON's minzoom and maxzoom are the zoom levels the cache holds when a job ends: a second job adding zoom
     * levels widens them, a truncate narrows them, and one that leaves no tile removes the document. Its tile URL is
     * absolute: the store's own (a folder's file: URL) unless a public URL is set.
     */
    @Test
    void theTileJsonSaysTheZoomLevelsTheStoreHoldsAfterEachJob() throws Exception {
        FileTileStore files = new FileTileStore(tiles);
        Path tileJson = tiles.resolve("world/WebMercatorQuad/tilejson-png.json");

        storeTiles(files, TileMatrixSet.WEB_MERCATOR_QUAD, 0, 1, 2);
        finishJob(files, "seed", TileMatrixSet.WEB_MERCATOR_QUAD, 0, 2);
        JsonNode doc = new ObjectMapper().readTree(tileJson.toFile());
        assertThat(doc.path("minzoom").asInt()).isZero();
        assertThat(doc.path("maxzoom").asInt()).as("the layer goes to 10, the cache to 2").isEqualTo(2);
        assertThat(doc.path("tiles").get(0).asText()).startsWith("file:")
                .isEqualTo(files.publicUrl() + "/world/WebMercatorQuad/{z}/{x}/{y}.png");

        storeTiles(files, TileMatrixSet.WEB_MERCATOR_QUAD, 3, 4);
        finishJob(files, "seed", TileMatrixSet.WEB_MERCATOR_QUAD, 3, 4);
        assertThat(new ObjectMapper().readTree(tileJson.toFile()).path("maxzoom").asInt()).as("z3-4 added")
                .isEqualTo(4);
        assertThat(new ObjectMapper().readTree(tileJson.toFile()).path("minzoom").asInt()).isZero();

        files.delete(List.of(key(TileMatrixSet.WEB_MERCATOR_QUAD, 3), key(TileMatrixSet.WEB_MERCATOR_QUAD, 4)));
        finishJob(files, "truncate", TileMatrixSet.WEB_MERCATOR_QUAD, 3, 4);
        assertThat(new ObjectMapper().readTree(tileJson.toFile()).path("maxzoom").asInt()).as("z3-4 truncated")
                .isEqualTo(2);

        files.delete(List.of(key(TileMatrixSet.WEB_MERCATOR_QUAD, 0)));
        finishJob(files, "truncate", TileMatrixSet.WEB_MERCATOR_QUAD, 0, 0);
        assertThat(new ObjectMapper().readTree(tileJson.toFile()).path("minzoom").asInt()).as("z0 truncated")
                .isEqualTo(1);

        files.delete(List.of(key(TileMatrixSet.WEB_MERCATOR_QUAD, 1), key(TileMatrixSet.WEB_MERCATOR_QUAD, 2)));
        finishJob(files, "truncate", TileMatrixSet.WEB_MERCATOR_QUAD, 0, 2);
        assertThat(tileJson).as("no tile left to describe").doesNotExist();
    }

    @Test
    void theTileJsonNamesTheTilesAtThePublicUrl() throws Exception {
        FileTileStore served = new FileTileStore(tiles, "https://tiles.example.com/cache", Layout.XYZ);
        storeTiles(served, TileMatrixSet.WEB_MERCATOR_QUAD, 0);

        finishJob(served, "seed", TileMatrixSet.WEB_MERCATOR_QUAD, 0, 0);

        JsonNode doc = new ObjectMapper().readTree(tiles.resolve("world/WebMercatorQuad/tilejson-png.json").toFile());
        assertThat(doc.path("tiles").get(0).asText())
                .isEqualTo("https://tiles.example.com/cache/world/WebMercatorQuad/{z}/{x}/{y}.png");
    }

    /**
     * In the tms layout the documents are a TileJSON of the tms scheme, the TMS TileMap and the manifest; no WMTS
     * capabilities, whose template counts rows from the top. A truncate that leaves no tile removes the TileMap too.
     */
    @Test
    void aCacheInTheTmsLayoutGetsATileMapAndNoWmtsCapabilities() throws Exception {
        FileTileStore tms = new FileTileStore(tiles, Layout.TMS);
        storeTiles(tms, TileMatrixSet.WEB_MERCATOR_QUAD, 0, 1);

        finishJob(tms, "seed", TileMatrixSet.WEB_MERCATOR_QUAD, 0, 1);

        Path cache = tiles.resolve("world/WebMercatorQuad");
        assertThat(cache.resolve("1/0/1.png")).as("row 0 from the top is row 1 from the bottom").exists();
        assertThat(cache.resolve("tilemapresource-png.xml")).content().contains("<TileMap version=\"1.0.0\"");
        assertThat(cache.resolve("WMTSCapabilities-png.xml")).doesNotExist();
        assertThat(new ObjectMapper().readTree(cache.resolve("tilejson-png.json").toFile()).path("scheme").asText())
                .isEqualTo("tms");

        tms.delete(List.of(key(TileMatrixSet.WEB_MERCATOR_QUAD, 0), key(TileMatrixSet.WEB_MERCATOR_QUAD, 1)));
        finishJob(tms, "truncate", TileMatrixSet.WEB_MERCATOR_QUAD, 0, 1);
        assertThat(cache.resolve("tilejson-png.json")).doesNotExist();
    }

    /** In the wmts layout every document is in the cache's folder of the layout, {layer}/default/{set}. */
    @Test
    void aCacheInTheWmtsLayoutHasItsDocumentsInItsFolder() throws Exception {
        FileTileStore wmts = new FileTileStore(tiles, Layout.WMTS);
        storeTiles(wmts, TileMatrixSet.WEB_MERCATOR_QUAD, 0, 1);

        finishJob(wmts, "seed", TileMatrixSet.WEB_MERCATOR_QUAD, 0, 1);

        assertThat(Folders.regularFiles(tiles)).contains("world/default/WebMercatorQuad/0/0/0.png",
                "world/default/WebMercatorQuad/tilejson-png.json", "world/default/WebMercatorQuad/manifest-png.json",
                "world/default/WebMercatorQuad/WMTSCapabilities-png.xml");
        assertThat(tiles.resolve("world/WebMercatorQuad")).doesNotExist();
    }

    /**
     * TileJSON assumes Web Mercator: WorldCRS84Quad tiles get none, and one an earlier version wrote beside them (which
     * would show them as Web Mercator) is removed; the WMTS capabilities describe them.
     */
    @Test
    void worldCrs84QuadTilesGetNoTileJsonAndAStaleOneIsRemoved() throws Exception {
        FileTileStore files = new FileTileStore(tiles);
        storeTiles(files, TileMatrixSet.WORLD_CRS84_QUAD, 0);
        files.writeMetadata(new TileCache("world", TileMatrixSet.WORLD_CRS84_QUAD), "tilejson-png.json", new byte[] {'{', '}'},
                "application/json");

        String id = finishJob(files, "seed", TileMatrixSet.WORLD_CRS84_QUAD, 0, 0);

        assertThat(store.get(id).orElseThrow().state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(tiles.resolve("world/WorldCRS84Quad/tilejson-png.json")).doesNotExist();
        assertThat(tiles.resolve("world/WorldCRS84Quad/WMTSCapabilities-png.xml")).exists();
        assertThat(tiles.resolve("world/WorldCRS84Quad/manifest-png.json")).exists();
    }

    /** Stores one png tile of the layer at each of these zoom levels. */
    private static void storeTiles(TileStore tileStore, TileMatrixSet tms, int... zooms) {
        try {
            for (int z : zooms) {
                tileStore.write(List.of(new EncodedTile(key(tms, z), new byte[] {1})));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static TileKey key(TileMatrixSet tms, int z) {
        return new TileKey("world", tms, TileCoord.of(z, 0, 0), TileFormat.PNG);
    }

    /** A job of the layer over these zoom levels, every task of it done, finished; returns its id. */
    private String finishJob(TileStore tileStore, String mode, TileMatrixSet tms, int minZoom, int maxZoom) {
        JobSpec spec = new JobSpec("world", tms, minZoom, maxZoom, new Bounds(-180, -85, 180, 85), TileFormat.PNG,
                Mode.byId(mode).orElseThrow(), new MetatileSize(1, 1), null, 0, Map.of());
        String id = store.create(JobStatus.submitted(UUID.randomUUID().toString(), spec, 1, Instant.now(), null))
                .id();
        store.planned(id, 1, true);
        store.record(succeeded(id, 0));
        finisher(tileStore).finishIfDone(id);
        assertThat(store.get(id).orElseThrow().state()).isEqualTo(JobState.SUCCEEDED);
        return id;
    }

    @Test
    void aJobWithFailedTasksFailsNamingTheFirst() {
        String id = plannedWithResults(3, 1);

        finisher(new FileTileStore(tiles)).finishIfDone(id);

        JobStatus job = store.get(id).orElseThrow();
        assertThat(job.state()).isEqualTo(JobState.FAILED);
        assertThat(job.reason()).isEqualTo("2 of 5 tasks failed; first: task 1: boom 1");
    }

    /**
     * A failed job's tasks are logged once, summed up: one warning with how many failed and the first reasons, each
     * with the first of its tasks, not a warning per task (the workers log each one as information).
     */
    @Test
    void aFailedJobIsOneWarningSummingUpItsFailedTasks() {
        String id = submitted(store, 2).id(); // 21 tasks
        store.planned(id, 21, true);
        for (long seq = 0; seq < 21; seq++) {
            String reason = seq < 6 ? "cannot read data file land.geojson: no such file"
                    : seq == 7 ? "upstream WMS answered 500" : seq >= 18 ? "error " + seq : null;
            store.record(reason == null ? succeeded(id, seq) : failed(id, seq, reason));
        }
        List<LogRecord> logged;
        try (LoggedRecords log = LoggedRecords.of(Finisher.class)) {
            finisher(new FileTileStore(tiles)).finishIfDone(id);
            logged = log.records();
        }

        assertThat(store.get(id).orElseThrow().state()).isEqualTo(JobState.FAILED);
        assertThat(logged).singleElement().satisfies(entry -> {
            assertThat(entry.getLevel()).isEqualTo(Level.WARNING);
            assertThat(entry.getMessage()).isEqualTo("job " + id + " FAILED: 10 of 21 tasks failed: tasks 0, 1, 2 and "
                    + "3 more: cannot read data file land.geojson: no such file; task 7: upstream WMS answered 500; "
                    + "task 18: error 18; and 2 other reasons");
        });
    }

    @Test
    void aJobIsNotFinishedWhilePlanningGoesOnOrATaskHasNoResult() {
        String planning = submitted(store, 0).id();
        store.planned(planning, 1, false);
        store.record(succeeded(planning, 0));
        String waiting = submitted(store, 1).id();
        store.planned(waiting, 5, true);
        store.record(succeeded(waiting, 0));

        Finisher finisher = finisher(new FileTileStore(tiles));
        finisher.finishIfDone(planning);
        finisher.finishIfDone(waiting);

        assertThat(store.get(planning).orElseThrow().state()).isEqualTo(JobState.RUNNING);
        assertThat(store.get(waiting).orElseThrow().state()).isEqualTo(JobState.RUNNING);
    }

    @Test
    void aTileStoreOutageLeavesTheJobRunningUntilTheNextTry() {
        String id = plannedWithResults();

        finisher(new MetadataFailing(new FileTileStore(tiles),
                () -> new StoreUnavailableException("connection refused", new ConnectException("connection refused"))))
                .finishIfDone(id);

        assertThat(store.get(id).orElseThrow().state()).as("not the job's fault").isEqualTo(JobState.RUNNING);
        assertThat(outages.current()).extracting(Outages.Outage::dependency).containsExactly(Outages.OBJECT_STORE);

        finisher(new FileTileStore(tiles)).finishIfDone(id);

        assertThat(store.get(id).orElseThrow().state()).isEqualTo(JobState.SUCCEEDED);
    }

    @Test
    void aShutdownInterruptingTheTileJsonWriteLeavesTheJobRunningForTheSweep() {
        String id = plannedWithResults();

        try {
            finisher(new MetadataFailing(new FileTileStore(tiles), () -> {
                Thread.currentThread().interrupt(); // as the S3 store does, waiting for an answer when interrupted
                return new InterruptedIOException("interrupted while waiting for an answer");
            })).finishIfDone(id);
        } finally {
            assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
        }

        assertThat(store.get(id).orElseThrow().state()).as("not the job's fault").isEqualTo(JobState.RUNNING);
        finisher(new FileTileStore(tiles)).finishIfDone(id);
        assertThat(store.get(id).orElseThrow().state()).isEqualTo(JobState.SUCCEEDED);
    }

    @Test
    void aJobIsMadeFinalOnceAndItsWaitersReleasedWithIt() {
        String id = submitted(store, 1).id();
        CompletableFuture<JobStatus> waiting = waiters.awaitFinal(id, Duration.ofMinutes(1)).orElseThrow();
        Finisher finisher = finisher(new FileTileStore(tiles));

        finisher.finish(id, JobState.CANCELLED, "cancelled");
        finisher.finish(id, JobState.FAILED, "too late");

        assertThat(waiting).isCompletedWithValueMatching(job -> job.state() == JobState.CANCELLED);
        assertThat(store.get(id).orElseThrow().reason()).isEqualTo("cancelled");
        assertThat(registry.get("seeder.jobs.finished").tag("state", "cancelled").counter().count()).isEqualTo(1);
        assertThat(registry.get("seeder.jobs.finished").tag("state", "failed").counter().count()).isZero();
    }

    /**
     * Two finishers find the job done at once (two results threads, or a replica's recovery sweep): the one still
     * writing documents when the other made the job final holds its event and its waiters back until it is done, so
     * nothing of the job is written after its event, and the event is not older than any of its documents.
     */
    @Test
    void aFinisherThatLostTheRaceHoldsTheEventBackUntilItsDocumentsAreWritten() throws Exception {
        assertTheEventWaitsForTheDocumentsOfALateFinisher(id -> {
            finisher(new FileTileStore(tiles)).finishIfDone(id);
            return JobState.SUCCEEDED;
        });
    }

    /** The same when the job is cancelled while a finisher writes its documents. */
    @Test
    void aCancelWhileTheDocumentsAreWrittenHoldsTheEventBackUntilTheyAre() throws Exception {
        assertTheEventWaitsForTheDocumentsOfALateFinisher(id -> {
            finisher(new FileTileStore(tiles)).finish(id, JobState.CANCELLED, "cancelled");
            return JobState.CANCELLED;
        });
    }

    private void assertTheEventWaitsForTheDocumentsOfALateFinisher(Function<String, JobState> meanwhile)
            throws Exception {
        String id = plannedWithResults();
        CompletableFuture<JobStatus> waiting = waiters.awaitFinal(id, Duration.ofMinutes(1)).orElseThrow();
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch goOn = new CountDownLatch(1);
        TileStore held = new ForwardingTileStore(new FileTileStore(tiles)) {
            @Override
            public void writeMetadata(TileCache cache, String name, byte[] content, String contentType) throws IOException {
                writing.countDown();
                try {
                    goOn.await();
                } catch (InterruptedException e) {
                    throw new InterruptedIOException();
                }
                super.writeMetadata(cache, name, content, contentType);
            }
        };
        CompletableFuture<Void> late = CompletableFuture.runAsync(() -> finisher(held).finishIfDone(id));
        assertThat(writing.await(10, TimeUnit.SECONDS)).as("the late finisher writes the documents").isTrue();

        JobState state = meanwhile.apply(id);
        List<JobEvent> sent = new ArrayList<>();
        Outbox outbox = new Outbox(store, gate, sent::add, Clock.systemUTC(), Layout.XYZ);
        assertThat(store.get(id).orElseThrow().state()).isEqualTo(state);
        outbox.sendPending();
        waiters.releaseSettled();
        assertThat(sent).as("a finisher is still writing a document of the job").isEmpty();
        assertThat(waiting).as("a waiter waits for it too").isNotDone();

        goOn.countDown();
        late.get(10, TimeUnit.SECONDS);
        outbox.sendPending();
        waiters.releaseSettled();
        assertThat(store.get(id).orElseThrow().state()).as("the late finisher changed nothing").isEqualTo(state);
        assertThat(waiting).isCompletedWithValueMatching(job -> job.state() == state);
        JobEvent event = sent.getFirst();
        assertThat(sent).hasSize(1);
        try (Stream<Path> files = Files.walk(tiles)) {
            assertThat(files.filter(Files::isRegularFile)).as("written before the event at %s", event.time())
                    .allSatisfy(file -> assertThat(Files.getLastModifiedTime(file).toInstant()).as(file.toString())
                            .isBeforeOrEqualTo(event.time()));
        }
    }

    /** A tile store that stores tiles but fails to write metadata, as {@code failure} says. */
    private static final class MetadataFailing extends ForwardingTileStore {
        private final Supplier<IOException> failure;

        MetadataFailing(TileStore files, Supplier<IOException> failure) {
            super(files);
            this.failure = failure;
        }

        @Override
        public void writeMetadata(TileCache cache, String name, byte[] content, String contentType) throws IOException {
            throw failure.get();
        }
    }
}
