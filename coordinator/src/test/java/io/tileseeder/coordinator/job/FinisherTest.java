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
import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.adapters.memory.InMemoryJobStore;
import io.tileseeder.adapters.memory.LocalJobGate;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.outage.Outages;
import io.tileseeder.port.StoreUnavailableException;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FinisherTest {

    @TempDir
    Path tiles;

    private final InMemoryJobStore store = new InMemoryJobStore(Clock.systemUTC(), 100);
    private final Outages outages = new Outages(Duration.ofMinutes(10), Clock.systemUTC());
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Waiters waiters = new Waiters(store, new LocalJobGate(store), 4);

    private Finisher finisher(TileStore tileStore) {
        return new Finisher(store, LAYERS, tileStore, outages, new JobMetrics(registry, store), waiters, () -> { });
    }

    /** A job of zooms 0–1 (5 tasks), planned, with a result for each task but those named. */
    private String plannedWithResults(long... failing) {
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
    void aTruncateLeavesTheClientDocumentsAndWritesItsManifest() throws Exception {
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

    @Test
    void aJobWithFailedTasksFailsNamingTheFirst() {
        String id = plannedWithResults(3, 1);

        finisher(new FileTileStore(tiles)).finishIfDone(id);

        JobStatus job = store.get(id).orElseThrow();
        assertThat(job.state()).isEqualTo(JobState.FAILED);
        assertThat(job.reason()).isEqualTo("2 of 5 tasks failed; first: task 1: boom 1");
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

    /** A tile store that stores tiles but fails to write metadata, as {@code failure} says. */
    private static final class MetadataFailing extends ForwardingTileStore {
        private final Supplier<IOException> failure;

        MetadataFailing(TileStore files, Supplier<IOException> failure) {
            super(files);
            this.failure = failure;
        }

        @Override
        public void writeMetadata(String layer, TileMatrixSet tileMatrixSet, String name, byte[] content,
                                  String contentType) throws IOException {
            throw failure.get();
        }
    }
}
