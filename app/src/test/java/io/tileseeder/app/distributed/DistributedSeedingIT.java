package io.tileseeder.app.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tileseeder.adapters.FreePorts;
import io.tileseeder.adapters.kafka.DevKafka;
import io.tileseeder.adapters.redis.OwnRedis;
import io.tileseeder.adapters.redis.RedisJobStore;
import io.tileseeder.adapters.redis.RedisTopologies;
import io.tileseeder.adapters.redis.RedisTopology;
import io.tileseeder.adapters.redis.RedissonMetatileLock;
import io.tileseeder.app.testing.InFlightProxy;
import io.tileseeder.app.testing.WorldTiles;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobState;
import io.tileseeder.message.JobEvent;
import io.tileseeder.outage.Outages;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.redisson.api.RedissonClient;

/**
 * The distributed mode as it is deployed: a coordinator and worker processes started from the built jar, on the
 * real Kafka, Redis and MinIO of dev/services, each test with topics, keys and a bucket of its own.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DistributedSeedingIT {

    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(3);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How long a dependency is kept down in the outage tests. */
    private static final Duration OUTAGE = Duration.ofSeconds(10);
    /**
     * From a dependency back to the next task done: reconnecting, the next retry (a step's pauses grow to 8 s, the
     * result consumer's to 10 s), a task's own time, on a loaded machine. A backoff of minutes still fails it.
     */
    private static final Duration RESUMED_WITHIN = Duration.ofSeconds(40);
    /** The tiles of the world layer up to a zoom, as the embedded engine writes them: what a job must store. */

    @TempDir
    Path temp;

    @Test
    void twoWorkersSeedTheWorldToMinioAndTheEventComesOnceAfterTheLastTile(TestInfo info) throws Exception {
        try (Cluster cluster = new Cluster(name(info))) {
            Cluster.Started started = cluster.startCoordinatorAndWorkers("worker-a", "worker-b");
            SeederProcess coordinator = started.coordinator();
            SeederProcess a = started.workers().getFirst();

            String job = cluster.submit(0, 6);
            JsonNode done = cluster.awaitFinal(job, JOB_TIMEOUT);

            assertThat(done.get("state").asText()).as(cluster.logs()).isEqualTo("SUCCEEDED");
            HttpResponse<String> refused = cluster.statusWithoutToken(job);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(401);
            assertThat(refused.body()).contains("no bearer token");
            for (SeederProcess process : List.of(coordinator, a)) {
                awaitReady(process);
            }
            Map<String, Instant> objects = cluster.objects();
            assertThat(WorldTiles.pngs(objects.keySet())).isEqualTo(WorldTiles.upTo(6));
            List<JobEvent> events = awaitEvents(cluster, job);
            assertThat(events).singleElement().satisfies(event -> {
                assertThat(event.state()).isEqualTo(JobState.SUCCEEDED);
                assertNoneNewerThan(objects, event);
                assertThat(event.counts().written()).isEqualTo(WorldTiles.upTo(6).size());
            });
        }
    }

    /**
     * Both processes' {@code /q/metrics} after a seed: one worker, so every metatile and tile of the job is its,
     * and the job's own series are there while it runs and gone once it is done.
     */
    @Test
    void bothProcessesExposeTheSeedersSeriesWithTheJobsFigures(TestInfo info) throws Exception {
        try (Cluster cluster = new Cluster(name(info))) {
            Cluster.Started started = cluster.startCoordinatorAndWorkers("worker-a");
            SeederProcess coordinator = started.coordinator();
            SeederProcess worker = started.workers().getFirst();

            String job = cluster.submit(0, 4);
            assertThat(Scrape.of(coordinator.metricsText()).find("seeder_job_tiles_planned", "job_id", job))
                    .as("the job's series while it runs").singleElement()
                    .satisfies(sample -> assertThat(sample.labels()).containsEntry("layer", "world"));
            JsonNode done = cluster.awaitFinal(job, JOB_TIMEOUT);
            assertThat(done.get("state").asText()).as(cluster.logs()).isEqualTo("SUCCEEDED");
            long metatiles = done.get("progress").get("tasksPlanned").asLong();
            long tiles = done.get("progress").get("tilesPlanned").asLong();
            assertThat(metatiles).isEqualTo(1 + 1 + 1 + 4 + 16);
            assertThat(tiles).isEqualTo(1 + 4 + 16 + 64 + 256);

            // The worker counts a task's tiles and verdict just after its result is out: wait for the last one.
            // A task delivered twice (harmless, and it happens) finds its tiles stored: skipped, not rendered.
            Scrape w = awaitScrape(worker, s -> s.sum("seeder_tasks_total", "outcome", "succeeded") >= metatiles
                    && s.sum("seeder_tasks_in_flight") == 0);
            assertThat(w.sum("seeder_tiles_total", "outcome", "written") + w.sum("seeder_tiles_total", "outcome", "empty"))
                    .isEqualTo(tiles);
            assertThat(w.find("seeder_tiles_total", "outcome", "skipped")).hasSize(1);
            assertThat(w.sum("seeder_tiles_total", "outcome", "written"))
                    .isEqualTo(done.get("progress").get("tilesWritten").asDouble());
            assertThat(w.find("seeder_tiles_total", "outcome", "failed")).singleElement()
                    .satisfies(sample -> assertThat(sample.value()).isZero());
            assertThat(w.sum("seeder_worker_stage_seconds_count", "stage", "render")).isEqualTo(metatiles);
            assertThat(w.sum("seeder_worker_stage_seconds_bucket", "stage", "render", "le", "+Inf")).isEqualTo(metatiles);
            assertThat(w.find("seeder_worker_stage_seconds_bucket", "stage", "store")).hasSizeGreaterThan(5);
            for (String stage : List.of("lock", "check", "render", "encode", "store")) {
                assertThat(w.sum("seeder_worker_stage_seconds_sum", "stage", stage)).as(stage).isPositive();
            }
            assertThat(w.sum("seeder_metatiles_rendered_total")).isEqualTo(metatiles);
            assertThat(w.sum("seeder_task_deliveries_total")).isGreaterThanOrEqualTo(metatiles);
            assertThat(w.sum("seeder_tasks_total", "outcome", "failed")).isZero();
            for (String series : List.of("seeder_task_redeliveries_total", "seeder_lock_contended_total",
                    "seeder_store_retries_total", "seeder_store_errors_total")) {
                assertThat(w.find(series)).as(series).hasSize(1);
            }
            assertThat(w.sum("seeder_store_errors_total")).isZero();

            // The job gauges read the store at most once a second.
            Scrape c = awaitScrape(coordinator, s -> s.sum("seeder_jobs", "state", "succeeded") == 1);
            assertThat(c.sum("seeder_jobs_finished_total", "state", "succeeded")).isGreaterThanOrEqualTo(1);
            assertThat(c.sum("seeder_jobs", "state", "succeeded")).isEqualTo(1);
            assertThat(c.sum("seeder_jobs", "state", "running") + c.sum("seeder_jobs", "state", "planning")).isZero();
            assertThat(c.find("seeder_jobs")).as("one series per state").hasSize(JobState.values().length);
            assertThat(c.sum("seeder_task_results_total", "outcome", "succeeded")).isGreaterThanOrEqualTo(metatiles);
            assertThat(c.sum("seeder_task_results_total", "outcome", "failed")).isZero();
            assertThat(c.find("seeder_tasks_backlog")).singleElement()
                    .satisfies(sample -> assertThat(sample.value()).isZero());
            assertThat(c.find("seeder_tasks_remaining")).singleElement()
                    .satisfies(sample -> assertThat(sample.value()).isZero());
            assertThat(c.text()).as("no series of the finished job").doesNotContain(job);
        }
    }

    /** Scrapes until {@code condition} holds (a few seconds at most). */
    private static Scrape awaitScrape(SeederProcess process, Predicate<Scrape> condition) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            Scrape scrape = Scrape.of(process.metricsText());
            if (condition.test(scrape) || System.nanoTime() > deadline) {
                return scrape;
            }
            Thread.sleep(100);
        }
    }

    @Test
    void aWorkerKilledMidJobLosesNoTile(TestInfo info) throws Exception {
        try (Cluster cluster = new Cluster(name(info))) {
            List<SeederProcess> workers = cluster.startCoordinatorAndWorkers("worker-a", "worker-b").workers();
            SeederProcess doomed = workers.get(0);
            SeederProcess survivor = workers.get(1);

            String job = cluster.submit(0, 6);
            cluster.awaitStatus(job, s -> s.get("progress").get("tasksDone").asLong() >= 50, JOB_TIMEOUT);
            doomed.kill();
            long killed = System.nanoTime();
            // The tasks the dead worker held come back once its share-group session ends (seeder.kafka.session-timeout,
            // 8 s), not after the brokers' default of 45 s.
            awaitWorkers(List.of(survivor), "task of the killed worker redelivered",
                    scrapes -> scrapes.getFirst().sum("seeder_task_redeliveries_total") > 0);
            Duration handedOver = Duration.ofNanos(System.nanoTime() - killed);
            System.out.println("the killed worker's first task reached the other " + handedOver.toMillis()
                    + " ms after the kill");
            assertThat(handedOver).as("from the kill to the first task redelivered").isLessThan(Duration.ofSeconds(30));
            JsonNode done = cluster.awaitFinal(job, JOB_TIMEOUT);

            assertThat(done.get("state").asText()).as(cluster.logs()).isEqualTo("SUCCEEDED");
            assertThat(WorldTiles.pngs(cluster.objects().keySet())).isEqualTo(WorldTiles.upTo(6));
        }
    }

    /**
     * A pack job of a finished cache in MinIO, its worker killed mid-pack (the worker reads the store through a slow
     * relay, so the pack lasts): nothing is under the archive's name meanwhile, another worker packs it again from the
     * start, and the one event follows the archive, which go-pmtiles verifies with every tile of the cache addressed.
     */
    @Test
    void aPackJobWhoseWorkerIsKilledMidPackIsPackedByAnotherBeforeItsEvent(TestInfo info) throws Exception {
        try (Cluster cluster = new Cluster(name(info));
             SlowRelay slow = new SlowRelay(URI.create(Cluster.required("SEEDER_S3_ENDPOINT")), Duration.ofMillis(20))) {
            SeederProcess seeder = cluster.startCoordinatorAndWorkers("worker-seed").workers().getFirst();
            String seed = cluster.submit(0, 5);
            assertThat(cluster.awaitFinal(seed, JOB_TIMEOUT).get("state").asText()).as(cluster.logs())
                    .isEqualTo("SUCCEEDED");
            seeder.kill();
            SeederProcess doomed = cluster.set("SEEDER_S3_ENDPOINT", slow.endpoint()).startWorker("worker-slow");
            String archive = "archives/world.pmtiles";

            String pack = cluster.submit("{\"layer\":\"world\",\"mode\":\"pack\",\"archive\":\"s3://"
                    + cluster.bucket + "/" + archive + "\"}");
            doomed.awaitOutput("packing s3://" + cluster.bucket + "/tiles/world/WebMercatorQuad (png) into",
                    JOB_TIMEOUT);
            doomed.kill();

            assertThat(cluster.status(pack).get("state").asText()).as("killed mid-pack").isEqualTo("RUNNING");
            assertThat(cluster.objectNames("archives/")).as("nothing under the archive's name").isEmpty();
            cluster.set("SEEDER_S3_ENDPOINT", Cluster.required("SEEDER_S3_ENDPOINT")).startWorker("worker-b");
            JsonNode done = cluster.awaitFinal(pack, JOB_TIMEOUT);

            assertThat(done.get("state").asText()).as(cluster.logs()).isEqualTo("SUCCEEDED");
            assertThat(done.path("spec").path("archive").asText()).isEqualTo("s3://" + cluster.bucket + "/" + archive);
            byte[] bytes = cluster.object(archive);
            Path file = Files.write(temp.resolve("world.pmtiles"), bytes);
            assertThat(goPmtiles("verify", file)).contains("Completed verify");
            assertThat(ByteBuffer.wrap(bytes, 0, 127).order(ByteOrder.LITTLE_ENDIAN).getLong(72))
                    .as("tiles addressed").isEqualTo(WorldTiles.upTo(5).size());
            Instant written = cluster.lastModified(archive);
            assertThat(awaitEvents(cluster, pack)).singleElement().satisfies(event -> {
                assertThat(event.state()).isEqualTo(JobState.SUCCEEDED);
                assertThat(written).as("the archive against the event").isBeforeOrEqualTo(event.time());
                assertThat(event.counts().written()).as("one archive").isEqualTo(1);
            });
        }
    }

    /** What the PMTiles reference reader prints, once it exited 0. */
    private static String goPmtiles(String command, Path archive) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(Cluster.required("SEEDER_PMTILES"), command, archive.toString())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("go-pmtiles %s ends", command).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }

    /**
     * A job over both styles of the dev WMS's {@code styled} layer (a cache per style), 2x2 metatiles, with a worker
     * killed mid-job: every tile of both caches is stored, exactly the embedded engine's, and the capabilities beside
     * them list both styles.
     */
    @Test
    void aJobWithDimensionsLosesNoTileWhenAWorkerIsKilled(TestInfo info) throws Exception {
        String wms = System.getenv("SEEDER_WMS_URL");
        assertThat(wms).as("SEEDER_WMS_URL (dev/services up --wms)").isNotBlank();
        Path layers = temp.resolve("styled.yaml");
        Files.writeString(layers, """
                layers:
                  - name: styled
                    zoom: {min: 0, max: 5}
                    tileMatrixSets: [WebMercatorQuad]
                    metatile: {width: 2, height: 2}
                    source: {type: wms, url: "%s", version: "1.3.0", layers: [styled], timeout: 30s}
                    dimensions:
                      - {name: STYLES, values: [day, night], default: day}
                """.formatted(wms));
        String request = "{\"layer\":\"styled\",\"zoom\":{\"min\":0,\"max\":4},"
                + "\"dimensions\":{\"STYLES\":[\"day\",\"night\"]}}";
        Set<String> expected = WorldTiles.seeded(Optional.of(layers), JSON.readValue(request, JobRequest.class));
        try (Cluster cluster = new Cluster(name(info)).set("SEEDER_LAYERS_FILE", layers.toString())) {
            List<SeederProcess> workers = cluster.startCoordinatorAndWorkers("worker-a", "worker-b").workers();

            String job = cluster.submit(request);
            cluster.awaitStatus(job, s -> s.get("progress").get("tasksDone").asLong() >= 20, JOB_TIMEOUT);
            workers.get(0).kill();
            JsonNode done = cluster.awaitFinal(job, JOB_TIMEOUT);

            assertThat(done.get("state").asText()).as(cluster.logs()).isEqualTo("SUCCEEDED");
            assertThat(done.get("progress").get("tasksPlanned").asLong()).as("86 metatiles per style")
                    .isEqualTo(2 * (1 + 1 + 4 + 16 + 64));
            assertThat(expected).anyMatch(tile -> tile.startsWith("styled/WebMercatorQuad/day/4/"))
                    .anyMatch(tile -> tile.startsWith("styled/WebMercatorQuad/night/4/"));
            assertThat(WorldTiles.pngs(cluster.objects().keySet())).isEqualTo(expected);
            assertThat(cluster.objects()).containsKeys("styled/WebMercatorQuad/day/manifest-png.json",
                    "styled/WebMercatorQuad/night/manifest-png.json", "styled/WebMercatorQuad/WMTSCapabilities-png.xml");
        }
    }

    /**
     * Three workers of four render threads each seed from the dev WMS through a proxy that counts the GetMaps in
     * flight at the server, with a cluster limit of 4 (each pod alone may send 4): the server never sees more than 4
     * at once, and sees 4, over a whole job during which one worker is killed with its permits out. (With a limit of
     * 12 instead, the proxy sees 12.) The adaptive windows are off, so every pod asks for all it may: the limit holds
     * whatever the windows do.
     */
    @Test
    void threeWorkersNeverSendMoreGetMapsAtOnceThanTheClusterLimitEvenWithOneKilled(TestInfo info) throws Exception {
        try (InFlightProxy wms = new InFlightProxy(URI.create(Cluster.required("SEEDER_WMS_URL")))) {
            Path layers = temp.resolve("wms.yaml");
            Files.writeString(layers, """
                    layers:
                      - name: world
                        zoom: {min: 0, max: 5}
                        tileMatrixSets: [WebMercatorQuad]
                        metatile: {width: 2, height: 2}
                        source: {type: wms, url: "%s", version: "1.3.0", layers: [world], timeout: 20s}
                    """.formatted(wms.url()));
            try (Cluster cluster = new Cluster(name(info)).set("SEEDER_LAYERS_FILE", layers.toString())
                    .set("SEEDER_WORKERS_THREADS", "4").set("SEEDER_WMS_MAX_REQUESTS_PER_UPSTREAM", "4")
                    .set("SEEDER_WMS_CLUSTER_REQUESTS_PER_UPSTREAM", "4").set("SEEDER_WMS_ADAPTIVE", "false")) {
                List<SeederProcess> workers = cluster.startCoordinatorAndWorkers("worker-a", "worker-b", "worker-c")
                        .workers();

                String job = cluster.submit("{\"layer\":\"world\",\"zoom\":{\"min\":0,\"max\":5}}");
                cluster.awaitStatus(job, s -> s.get("progress").get("tasksDone").asLong() >= 100, JOB_TIMEOUT);
                workers.getFirst().kill();
                JsonNode done = cluster.awaitFinal(job, JOB_TIMEOUT);

                assertThat(done.get("state").asText()).as(cluster.logs()).isEqualTo("SUCCEEDED");
                assertThat(done.get("progress").get("tasksDone").asLong()).isEqualTo(1 + 1 + 4 + 16 + 64 + 256);
                assertThat(wms.answered()).as("GetMaps, one per metatile at least").isGreaterThanOrEqualTo(342);
                assertThat(wms.most()).as("most GetMaps in flight at the server at once").isEqualTo(4);
            }
        }
    }

    @Test
    void twoOverlappingJobsRenderEachMetatileOnce(TestInfo info) throws Exception {
        // Empty tiles stored, so a metatile seeded by one job is complete in the store for the other.
        Path layers = storeEmptyTilesLayers();
        try (Cluster cluster = new Cluster(name(info)).set("SEEDER_LAYERS_FILE", layers.toString())) {
            List<SeederProcess> workers = cluster.startCoordinatorAndWorkers("worker-a", "worker-b").workers();
            SeederProcess a = workers.get(0);
            SeederProcess b = workers.get(1);

            String first = cluster.submit(0, 5);
            String second = cluster.submit(0, 5);
            JsonNode one = cluster.awaitFinal(first, JOB_TIMEOUT);
            JsonNode two = cluster.awaitFinal(second, JOB_TIMEOUT);

            assertThat(one.get("state").asText()).as(cluster.logs()).isEqualTo("SUCCEEDED");
            assertThat(two.get("state").asText()).as(cluster.logs()).isEqualTo("SUCCEEDED");
            long metatiles = one.get("progress").get("tasksPlanned").asLong();
            assertThat(metatiles).isEqualTo(1 + 1 + 1 + 4 + 16 + 64);
            double rendered = a.metric("seeder_metatiles_rendered_total") + b.metric("seeder_metatiles_rendered_total");
            assertThat(rendered).isEqualTo(metatiles);
            long tiles = 1 + 4 + 16 + 64 + 256 + 1024;
            assertThat(one.get("progress").get("tilesWritten").asLong() + two.get("progress").get("tilesWritten").asLong())
                    .isEqualTo(tiles);
            assertThat(one.get("progress").get("tilesSkipped").asLong() + two.get("progress").get("tilesSkipped").asLong())
                    .isEqualTo(tiles);
        }
    }

    /**
     * Killed ({@code kill -9}) or stopped (SIGTERM: the shutdown interrupts the planner, whose clients may turn the
     * interrupt into exceptions of their own), the coordinator leaves the plan for the next one to resume. A
     * {@code seeder wait} started while no coordinator answers rides through until the next one does.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(booleans = {true, false})
    void aCoordinatorKilledOrStoppedMidPlanResumesWithoutLosingATask(boolean killed, TestInfo info) throws Exception {
        try (Cluster cluster = new Cluster(name(info) + (killed ? "-killed" : "-stopped"))
                .set("SEEDER_WORKERS_QUEUE_CAPACITY", "64")) {
            SeederProcess coordinator = cluster.startCoordinatorAndWorkers("worker-a", "worker-b").coordinator();

            String job = cluster.submit(0, 6);
            JsonNode midPlan = cluster.awaitStatus(job, s -> s.get("progress").get("tasksPlanned").asLong() >= 128, JOB_TIMEOUT);
            if (killed) {
                coordinator.kill();
            } else {
                coordinator.close(); // a job it failed would stay FAILED: the SUCCEEDED below says it did not
            }
            assertThat(midPlan.get("progress").get("planningDone").asBoolean()).isFalse();
            SeederProcess wait = cluster.start("wait", "wait", "--server", cluster.api(), job, "--timeout", "5m")
                    .awaitOutput("asking again in", Duration.ofSeconds(60));
            cluster.restartCoordinator();
            JsonNode done = cluster.awaitFinal(job, JOB_TIMEOUT);

            assertThat(done.get("state").asText()).as(cluster.logs()).isEqualTo("SUCCEEDED");
            assertThat(wait.awaitExit(JOB_TIMEOUT)).as(wait.output()).isZero();
            assertThat(wait.output()).contains("job " + job + " SUCCEEDED");
            assertThat(done.get("progress").get("tasksPlanned").asLong()).isEqualTo(343);
            assertThat(WorldTiles.pngs(cluster.objects().keySet())).isEqualTo(WorldTiles.upTo(6));
            assertThat(awaitEvents(cluster, job)).singleElement()
                    .satisfies(event -> assertThat(event.state()).isEqualTo(JobState.SUCCEEDED));
        }
    }

    /**
     * A job over a polygon, planned in Z order with masks, with the coordinator killed mid-plan: it stores exactly the
     * tiles the polygon overlaps (every tile stored, empty ones too), each tile tested on its own here with JTS.
     */
    @Test
    void aCoverageJobResumedAfterACoordinatorKilledStoresExactlyTheTilesOfItsPolygon(TestInfo info) throws Exception {
        double[][] triangle = {{-20, -35}, {50, -35}, {15, 60}, {-20, -35}};
        int maxZoom = 8;
        try (Cluster cluster = new Cluster(name(info)).set("SEEDER_LAYERS_FILE", storeEmptyTilesLayers().toString())
                .set("SEEDER_WORKERS_QUEUE_CAPACITY", "64")) {
            SeederProcess coordinator = cluster.startCoordinatorAndWorkers("worker-a", "worker-b").coordinator();

            String job = cluster.submit("{\"layer\":\"world\",\"zoom\":{\"min\":0,\"max\":" + maxZoom + "},"
                    + "\"coverage\":{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\","
                    + "\"coordinates\":[" + JSON.writeValueAsString(triangle) + "]}}}");
            JsonNode midPlan = cluster.awaitStatus(job, s -> s.get("progress").get("tasksPlanned").asLong() >= 100,
                    JOB_TIMEOUT);
            coordinator.kill();
            assertThat(midPlan.get("progress").get("planningDone").asBoolean()).isFalse();
            cluster.startCoordinator();
            JsonNode done = cluster.awaitFinal(job, JOB_TIMEOUT);

            assertThat(done.get("state").asText()).as(cluster.logs()).isEqualTo("SUCCEEDED");
            Set<String> expected = CoveredTiles.webMercator(triangle, maxZoom);
            assertThat(WorldTiles.pngs(cluster.objects().keySet())).isEqualTo(expected);
            assertThat(done.get("progress").get("tilesPlanned").asLong()).isEqualTo(expected.size());
            assertThat(done.get("progress").get("tasksPlanned").asLong())
                    .isEqualTo(CoveredTiles.metatiles(expected, 4));
        }
    }

    /**
     * A layers file's own set (Swiss LV95 in EPSG:2056, resolutions that are not powers of two), 3x2 metatiles (a
     * partial one at the right and bottom edge of most matrices) and a coverage: two workers store exactly the tiles
     * the embedded engine writes for the same job.
     */
    @Test
    void aCoverageJobOnALayersFilesOwnTileMatrixSetStoresTheTilesTheEmbeddedEngineWrites(TestInfo info)
            throws Exception {
        Path layers = Path.of("../examples/swiss/layers.yaml").toAbsolutePath().normalize();
        String request = "{\"layer\":\"swiss\",\"tileMatrixSet\":\"SwissLV95\",\"zoom\":{\"min\":0,\"max\":4},"
                + "\"metatile\":{\"width\":3,\"height\":2},\"coverage\":{\"type\":\"Polygon\",\"coordinates\":"
                + "[[[6.0,46.0],[10.5,46.2],[8.0,47.8],[6.0,46.0]]]}}";
        Set<String> expected = WorldTiles.seeded(Optional.of(layers), JSON.readValue(request, JobRequest.class));
        try (Cluster cluster = new Cluster(name(info)).set("SEEDER_LAYERS_FILE", layers.toString())) {
            cluster.startCoordinatorAndWorkers("worker-a", "worker-b");

            String job = cluster.submit(request);
            JsonNode done = cluster.awaitFinal(job, JOB_TIMEOUT);

            assertThat(done.get("state").asText()).as(cluster.logs()).isEqualTo("SUCCEEDED");
            assertThat(expected).as("the embedded engine's tiles").isNotEmpty()
                    .allMatch(tile -> tile.startsWith("swiss/SwissLV95/"));
            assertThat(WorldTiles.pngs(cluster.objects().keySet())).isEqualTo(expected);
            assertThat(done.get("progress").get("tilesWritten").asLong()).isEqualTo(expected.size());
        }
    }

    /**
     * Tile-expiry events from two pipelines, and one that is not an event, published within the merge window: with the
     * coordinator killed after it read them (nothing submitted, nothing committed), the next one reads them again and
     * submits one reseed job for both, labelled with their sources, which reseeds the listed tiles' ancestors and
     * descendants within the events' zoom levels.
     */
    @Test
    void expiryEventsReadByAKilledCoordinatorBecomeOneReseedJobOfTheNext(TestInfo info) throws Exception {
        try (Cluster cluster = new Cluster(name(info)).set("SEEDER_LAYERS_FILE", storeEmptyTilesLayers().toString())
                .set("SEEDER_EXPIRY_WINDOW", "20s")) {
            SeederProcess first = cluster.startCoordinatorAndWorkers("worker-a").coordinator();
            String zoom = ",\"zoom\":{\"min\":3,\"max\":8}}";
            cluster.publishExpiry("{\"v\":1,\"layer\":\"world\",\"source\":\"minutely\",\"tiles\":\"5/17/15\\n\"" + zoom,
                    "not an event",
                    "{\"v\":1,\"layer\":\"world\",\"source\":\"import\",\"tiles\":[\"7/70/60\"]" + zoom);
            long deadline = System.nanoTime() + JOB_TIMEOUT.toNanos();
            while (first.metric("seeder_expiry_events_total") < 3) {
                assertThat(System.nanoTime()).as("the coordinator reads the 3 events").isLessThan(deadline);
                Thread.sleep(100);
            }
            assertThat(cluster.jobs()).as("no job before the window ends").isEmpty();
            first.kill();
            cluster.set("SEEDER_EXPIRY_WINDOW", "1s").startCoordinator();

            JsonNode job = awaitOneJob(cluster);
            JsonNode done = cluster.awaitFinal(job.get("id").asText(), JOB_TIMEOUT);

            assertThat(done.get("state").asText()).as(cluster.logs()).isEqualTo("SUCCEEDED");
            JsonNode spec = done.get("spec");
            assertThat(spec.get("mode").asText()).isEqualTo("reseed");
            assertThat(spec.get("priority").asInt()).isEqualTo(10);
            assertThat(spec.get("labels").get("trigger").asText()).isEqualTo("tile-expiry");
            assertThat(spec.get("labels").get("source").asText()).isEqualTo("import,minutely");
            // 5/17/15 and 7/70/60 (inside it) at zooms 3..8: one ancestor each at z3 and z4, 5/17/15 itself,
            // then its 4, 16 and 64 descendants.
            Set<String> expected = new TreeSet<>(List.of("world/WebMercatorQuad/3/4/3.png",
                    "world/WebMercatorQuad/4/8/7.png", "world/WebMercatorQuad/5/17/15.png"));
            for (int z = 6; z <= 8; z++) {
                int d = z - 5;
                for (int x = 17 << d; x < 18 << d; x++) {
                    for (int y = 15 << d; y < 16 << d; y++) {
                        expected.add("world/WebMercatorQuad/" + z + "/" + x + "/" + y + ".png");
                    }
                }
            }
            assertThat(WorldTiles.pngs(cluster.objects().keySet())).isEqualTo(expected);
            assertThat(done.get("progress").get("tilesPlanned").asLong()).isEqualTo(87);
            assertThat(cluster.jobs()).hasSize(1);
        }
    }

    private static JsonNode awaitOneJob(Cluster cluster) throws Exception {
        long deadline = System.nanoTime() + JOB_TIMEOUT.toNanos();
        while (cluster.jobs().isEmpty()) {
            assertThat(System.nanoTime()).as("a reseed job appears").isLessThan(deadline);
            Thread.sleep(200);
        }
        return cluster.jobs().get(0);
    }

    /**
     * With one running place, two jobs wait QUEUED, in Redis: they outlive a coordinator killed meanwhile, and once the
     * place is free the one of higher priority starts first although it came second, the other after it finished.
     */
    @Test
    void queuedJobsOutliveACoordinatorKilledAndStartHighestPriorityFirst(TestInfo info) throws Exception {
        try (Cluster cluster = new Cluster(name(info)).set("SEEDER_LIMITS_MAX_RUNNING_JOBS", "1")) {
            Cluster.Started started = cluster.startCoordinatorAndWorkers("worker-a");
            SeederProcess coordinator = started.coordinator();
            String running = cluster.submit(0, 12);
            String first = cluster.submit("{\"layer\":\"world\",\"zoom\":{\"min\":0,\"max\":1},\"priority\":0}");
            String urgent = cluster.submit("{\"layer\":\"world\",\"zoom\":{\"min\":0,\"max\":2},\"priority\":5}");
            assertThat(cluster.status(urgent).get("queuePosition").asInt()).isEqualTo(1);
            assertThat(cluster.status(first).get("queuePosition").asInt()).isEqualTo(2);
            assertThat(cluster.status(first).get("state").asText()).isEqualTo("QUEUED");

            coordinator.kill();
            cluster.startCoordinator();
            assertThat(cluster.status(urgent).get("state").asText()).as("still queued").isEqualTo("QUEUED");
            cluster.cancel(running);
            JsonNode urgentDone = cluster.awaitFinal(urgent, JOB_TIMEOUT);
            JsonNode firstDone = cluster.awaitFinal(first, JOB_TIMEOUT);

            assertThat(urgentDone.get("state").asText()).as(cluster.logs()).isEqualTo("SUCCEEDED");
            assertThat(firstDone.get("state").asText()).as(cluster.logs()).isEqualTo("SUCCEEDED");
            assertThat(Instant.parse(firstDone.get("started").asText()))
                    .as("the one of lower priority started once the other had finished")
                    .isAfterOrEqualTo(Instant.parse(urgentDone.get("finished").asText()));
            assertThat(firstDone.get("progress").get("tilesDone").asLong()).isEqualTo(5);
            assertThat(urgentDone.get("progress").get("tilesDone").asLong()).isEqualTo(21);
        }
    }

    @Test
    void aTaskThatAlwaysFailsEndsTheJobFailedAndSeederWaitExits2(TestInfo info) throws Exception {
        Path layers = corruptLayer();
        try (Cluster cluster = new Cluster(name(info)).set("SEEDER_LAYERS_FILE", layers.toString())) {
            cluster.startCoordinatorAndWorkers("worker-a");

            String job = cluster.submit("{\"layer\":\"corrupt\",\"zoom\":{\"min\":0,\"max\":1}}");
            SeederProcess wait = cluster.start("wait", "wait", "--server", cluster.api(), job, "--timeout", "2m");

            assertThat(wait.awaitExit(JOB_TIMEOUT)).as(wait.output()).isEqualTo(2);
            assertThat(wait.output()).contains("FAILED").contains("task 0").contains("corrupt.geojson");
            JsonNode done = cluster.status(job);
            assertThat(done.get("state").asText()).isEqualTo("FAILED");
            assertThat(done.get("progress").get("tasksFailed").asLong()).isEqualTo(2);
            assertThat(done.get("failedTasks").size()).isEqualTo(2);
        }
    }

    @Test
    void anObjectStoreOutageMidJobIsWaitedOutAndTheJobSucceedsWithEveryTile(TestInfo info) throws Exception {
        try (OwnMinio minio = OwnMinio.start(temp.resolve("minio"))) {
            restartMidJob(info, Map.of("SEEDER_S3_ENDPOINT", minio.endpoint()),
                    status -> status.get("progress").get("tasksDone").asLong() >= 30,
                    new Outage("store", minio::stop, minio::restart));
        }
    }

    @Test
    void aRedisRestartWhilePlanningIsWaitedOutAndTheJobSucceedsWithEveryTile(TestInfo info) throws Exception {
        try (OwnRedis redis = OwnRedis.start(temp.resolve("redis"))) {
            // A short queue keeps the planner a little ahead of the workers: planning lasts most of the job.
            restartMidJob(info, Map.of("SEEDER_REDIS_URL", redis.url(), "SEEDER_WORKERS_QUEUE_CAPACITY", "64"),
                    status -> !status.get("progress").get("planningDone").asBoolean()
                            && status.get("progress").get("tasksDone").asLong() >= 30,
                    new Outage("Redis", redis::stop, redis::start));
        }
    }

    @Test
    void aRedisRestartAfterPlanningIsWaitedOutAndTheJobSucceedsWithEveryTile(TestInfo info) throws Exception {
        try (OwnRedis redis = OwnRedis.start(temp.resolve("redis"))) {
            restartMidJob(info, Map.of("SEEDER_REDIS_URL", redis.url()),
                    status -> status.get("progress").get("planningDone").asBoolean()
                            && status.get("progress").get("tasksDone").asLong() >= 30,
                    new Outage("Redis", redis::stop, redis::start));
        }
    }

    @Test
    void aKafkaRestartMidJobIsWaitedOutAndTheJobSucceedsWithEveryTile(TestInfo info) throws Exception {
        restartMidJob(info, Map.of("SEEDER_WORKERS_QUEUE_CAPACITY", "64"),
                status -> status.get("progress").get("tasksDone").asLong() >= 30,
                new Outage("Kafka", DevKafka::stop, () -> DevKafka.start(temp.resolve("services-up.log"))));
    }

    /**
     * With {@code sync-replicas=1}, as docs/operations.md asks of a Sentinel deployment: Redis replicates asynchronously,
     * and without it a result the promoted replica had not received yet is lost with its job's completion.
     */
    @Test
    void aSentinelFailoverMidJobIsWaitedOutAndTheJobSucceedsWithEveryTile(TestInfo info) throws Exception {
        RedisTopology sentinel = RedisTopologies.sentinel();
        restartMidJob(info, Map.of("SEEDER_REDIS_MODE", "sentinel", "SEEDER_REDIS_URL", String.join(",",
                        sentinel.nodes()), "SEEDER_REDIS_MASTER_NAME", RedisTopologies.env("SEEDER_REDIS_SENTINEL_MASTER"),
                        "SEEDER_REDIS_SYNC_REPLICAS", "1", "SEEDER_WORKERS_QUEUE_CAPACITY", "64"),
                status -> status.get("progress").get("tasksDone").asLong() >= 30,
                new Outage("Redis", () -> {
                    String before = RedisTopologies.master(sentinel);
                    RedisTopologies.sentinel(sentinel, "SENTINEL", "FAILOVER",
                            RedisTopologies.env("SEEDER_REDIS_SENTINEL_MASTER"));
                    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                    while (RedisTopologies.master(sentinel).equals(before)) {
                        assertThat(System.nanoTime()).as("a new master within 60 s").isLessThan(deadline);
                        Thread.sleep(100);
                    }
                }, () -> { }, Duration.ofSeconds(2), false));
    }

    @Test
    void aJobOnARedisClusterSucceedsWithEveryTile(TestInfo info) throws Exception {
        try (Cluster cluster = new Cluster(name(info)).set("SEEDER_REDIS_MODE", "cluster")
                .set("SEEDER_REDIS_URL", String.join(",", RedisTopologies.cluster().nodes()))) {
            cluster.startCoordinatorAndWorkers("worker-a", "worker-b");

            String job = cluster.submit(0, 6);
            JsonNode done = cluster.awaitFinal(job, JOB_TIMEOUT);

            assertThat(done.get("state").asText()).as(cluster.logs()).isEqualTo("SUCCEEDED");
            Map<String, Instant> objects = cluster.objects();
            assertThat(WorldTiles.pngs(objects.keySet())).isEqualTo(WorldTiles.upTo(6));
            assertThat(awaitEvents(cluster, job)).singleElement().satisfies(event -> {
                assertThat(event.state()).isEqualTo(JobState.SUCCEEDED);
                assertNoneNewerThan(objects, event);
            });
        }
    }

    /**
     * A dependency taken down and brought back: {@code check} is its readiness check's name; the outage is held
     * for {@code hold} after readiness reports it DOWN, or, when {@code seenByReadiness} is false (a failover
     * quicker than a readiness probe), after {@code stop} returned.
     */
    private record Outage(String check, Step stop, Step start, Duration hold, boolean seenByReadiness) {

        Outage(String check, Step stop, Step start) {
            this(check, stop, start, OUTAGE, true);
        }
    }

    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    /**
     * A reseed of the world z0-6 with {@code outage} once {@code when} holds, kept down for {@link #OUTAGE}: the job
     * must succeed with every tile and one event after the last tile, and a task must be done again within
     * {@link #RESUMED_WITHIN} of the dependency being back (the workers noticed it came back, no long backoff).
     */
    private void restartMidJob(TestInfo info, Map<String, String> settings, Predicate<JsonNode> when, Outage outage)
            throws Exception {
        String reseed = "{\"layer\":\"world\",\"zoom\":{\"min\":0,\"max\":6},\"mode\":\"reseed\"}";
        try (Cluster cluster = new Cluster(name(info))) {
            settings.forEach(cluster::set);
            Cluster.Started started = cluster.startCoordinatorAndWorkers("worker-a");
            SeederProcess coordinator = started.coordinator();
            long start = System.nanoTime();
            String job = cluster.submit(reseed);
            cluster.awaitStatus(job, when, JOB_TIMEOUT);
            long down = System.nanoTime();
            outage.stop().run();
            if (outage.seenByReadiness()) {
                awaitHealth(coordinator, outage.check(), "DOWN");
            }
            // The outage itself: whenever the API can answer, the job is still running and no task failed.
            long until = System.nanoTime() + outage.hold().toNanos();
            Set<String> waitedFor = new TreeSet<>();
            while (System.nanoTime() < until) {
                Optional<JsonNode> status = cluster.statusIfAnswered(job);
                if (status.isPresent()) {
                    assertThat(status.get().get("state").asText()).isIn("PLANNING", "RUNNING");
                    assertThat(status.get().get("progress").get("tasksFailed").asLong()).isZero();
                    status.get().path("waitingFor").forEach(w -> waitedFor.add(w.get("dependency").asText()));
                }
                Thread.sleep(250);
            }
            outage.start().run();
            long back = System.nanoTime();
            Duration length = Duration.ofNanos(back - down);
            Duration resumed = awaitATaskDone(cluster, job);
            JsonNode done = cluster.awaitFinal(job, JOB_TIMEOUT);
            Duration disturbed = Duration.ofNanos(System.nanoTime() - start);

            assertThat(done.get("state").asText()).as(cluster.logs()).isEqualTo("SUCCEEDED");
            assertThat(done.get("progress").get("tasksFailed").asLong()).isZero();
            Map<String, Instant> objects = cluster.objects();
            assertThat(WorldTiles.pngs(objects.keySet())).isEqualTo(WorldTiles.upTo(6));
            List<JobEvent> events = awaitEvents(cluster, job);
            Instant lastTile = objects.values().stream().max(Instant::compareTo).orElseThrow();
            assertThat(events).singleElement().satisfies(event -> {
                assertThat(event.state()).isEqualTo(JobState.SUCCEEDED);
                assertNoneNewerThan(objects, event);
            });
            assertThat(resumed).as("from the dependency back to a task done").isLessThanOrEqualTo(RESUMED_WITHIN);
            awaitHealth(coordinator, outage.check(), "UP");
            if (outage.seenByReadiness()) {
                // Told by each process, whether or not a call of its own met the outage: the first line when it
                // began, the last when it ended (the dependency watch's next probe, at most 8 s after it is back,
                // ends any outage a process still lists).
                String dependency = outage.check().equals("store") ? Outages.OBJECT_STORE : outage.check();
                List<SeederProcess> processes = new ArrayList<>(started.workers());
                processes.add(coordinator);
                for (SeederProcess process : processes) {
                    List<String> told = awaitToldEnded(process, dependency);
                    assertThat(told).as("what %s told of the outage", process.name).isNotEmpty()
                            .first().asString().contains(dependency + " is unavailable");
                    assertThat(told.getLast()).as("the last line %s told of the outage", process.name)
                            .contains(dependency + " is available again after");
                }
            }
            System.out.printf("%s: %s down %d ms; a task done %d ms after it was back; job %d ms; %d tiles, none "
                    + "missing; %d event, at %s; last tile %s; the job showed it waited for %s%n",
                    name(info), outage.check(), length.toMillis(), resumed.toMillis(), disturbed.toMillis(),
                    objects.size(), events.size(), events.getFirst().time(), lastTile, waitedFor);
        }
    }

    /**
     * The lines {@code process} told of {@code dependency}'s outage, once the last says it ended (or after 30 s, as
     * they are then).
     */
    private static List<String> awaitToldEnded(SeederProcess process, String dependency) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            List<String> told = process.output().lines().filter(line -> line.contains("[io.ti.ou.Outages]")
                    && line.contains(dependency + " is ")).toList();
            if (!told.isEmpty() && told.getLast().contains(dependency + " is available again after")
                    || System.nanoTime() > deadline) {
                return told;
            }
            Thread.sleep(200);
        }
    }

    /**
     * How long until the job counts a task more than when its status first answers (or ends): the time the cluster
     * takes to go on once a dependency is back.
     */
    private static Duration awaitATaskDone(Cluster cluster, String job) throws Exception {
        long from = System.nanoTime();
        long deadline = from + JOB_TIMEOUT.toNanos();
        long before = -1;
        while (System.nanoTime() < deadline) {
            Optional<JsonNode> status = cluster.statusIfAnswered(job);
            if (status.isPresent()) {
                long tasks = status.get().get("progress").get("tasksDone").asLong();
                boolean running = Set.of("PLANNING", "RUNNING").contains(status.get().get("state").asText());
                if (before < 0 && running) {
                    before = tasks;
                } else if (!running || tasks > before) {
                    return Duration.ofNanos(System.nanoTime() - from);
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("job " + job + " did no task within " + JOB_TIMEOUT + " of the dependency's return");
    }

    @Test
    void noTileOfACancelledJobIsWrittenAfterItsEvent(TestInfo info) throws Exception {
        noTileAfterTheFinalEvent(info, JobState.CANCELLED, (cluster, job) ->
                assertThat(cluster.cancel(job).get("state").asText()).isEqualTo("CANCELLED"));
    }

    @Test
    void noTileOfAJobThatFailedWhileItsTasksWereQueuedIsWrittenAfterItsEvent(TestInfo info) throws Exception {
        // A job fails for a reason of its own while tasks of it are still queued: recorded as another coordinator
        // replica would, through the job store, whose outbox the running coordinator then sends.
        noTileAfterTheFinalEvent(info, JobState.FAILED, (cluster, job) -> {
            RedissonClient redis = RedissonMetatileLock.connect(Cluster.required("SEEDER_REDIS_URL"));
            try {
                new RedisJobStore(redis, cluster.id + ":", Clock.systemUTC(), Duration.ofHours(1))
                        .finish(job, JobState.FAILED, "failed by the test");
            } finally {
                redis.shutdown();
            }
        });
    }

    /**
     * Redis comes back without its data while the job runs (every key of the cluster's prefix deleted: the job's
     * record, its indexes, passes, locks and the outbox): the coordinator, which saw the job unfinished, records it as
     * LOST and announces it once, a {@code seeder wait} on it exits 5 instead of waiting forever, and the workers drop
     * its remaining tasks. (Its passes went with the data, so a tile being stored at that moment may land after the
     * event: what "final means final" cannot promise for a job Redis lost.)
     */
    @Test
    void aJobWhoseRecordRedisLostIsAnnouncedLostAndSeederWaitExits5(TestInfo info) throws Exception {
        try (Cluster cluster = new Cluster(name(info))) {
            Cluster.Started started = cluster.startCoordinatorAndWorkers("worker-a", "worker-b");
            SeederProcess coordinator = started.coordinator();
            List<SeederProcess> workers = started.workers();
            String job = cluster.submit(0, 7);
            cluster.awaitStatus(job, s -> s.get("progress").get("tasksDone").asLong() >= 20, JOB_TIMEOUT);

            RedissonClient redis = RedissonMetatileLock.connect(Cluster.required("SEEDER_REDIS_URL"));
            try {
                assertThat(redis.getKeys().deleteByPattern(cluster.id + ":*")).isPositive();
            } finally {
                redis.shutdown();
            }
            // Started once the record is gone: whether the sweep or its own first request finds the loss, it is told.
            SeederProcess wait = cluster.start("wait", "wait", "--server", cluster.api(), job, "--timeout", "2m");

            assertThat(wait.awaitExit(JOB_TIMEOUT)).as(wait.output()).isEqualTo(5);
            assertThat(wait.output()).contains("error: job " + job + " LOST: the job store lost the job's record");
            JsonNode lost = cluster.status(job);
            assertThat(lost.get("state").asText()).isEqualTo("LOST");
            assertThat(awaitEvents(cluster, job)).singleElement().satisfies(event -> {
                assertThat(event.state()).isEqualTo(JobState.LOST);
                assertThat(event.reason()).isEqualTo(lost.get("reason").asText());
            });
            awaitWorkers(workers, "no task of the lost job at work", scrapes ->
                    scrapes.stream().mapToDouble(m -> m.sum("seeder_tasks_total", "outcome", "dropped")).sum() > 0
                            && scrapes.stream().mapToDouble(m -> m.sum("seeder_tasks_in_flight")).sum() == 0);
            assertThat(coordinator.output()).as("logged once").containsOnlyOnce("job " + job + " LOST: ");
        }
    }

    /**
     * A world z0-7 seed on two workers made {@code state} by {@code end} once 20 tasks are done: its event comes
     * once, the tasks still queued are dropped, and no tile lands after the event was produced.
     */
    private void noTileAfterTheFinalEvent(TestInfo info, JobState state, JobEnd end) throws Exception {
        try (Cluster cluster = new Cluster(name(info))) {
            List<SeederProcess> workers = cluster.startCoordinatorAndWorkers("worker-a", "worker-b").workers();
            String job = cluster.submit(0, 7);
            cluster.awaitStatus(job, s -> s.get("progress").get("tasksDone").asLong() >= 20, JOB_TIMEOUT);

            end.apply(cluster, job);
            List<JobEvent> events = awaitEvents(cluster, job);
            assertThat(events).singleElement().satisfies(e -> assertThat(e.state()).isEqualTo(state));
            Instant sent = cluster.eventTimes(job).getFirst();
            // Every task planned has had its verdict (the queued ones dropped) and none is at work any more.
            long planned = cluster.status(job).get("progress").get("tasksPlanned").asLong();
            awaitWorkers(workers, "every task of the job handled", scrapes ->
                    scrapes.stream().mapToDouble(m -> m.sum("seeder_tasks_total", "outcome", "succeeded")
                            + m.sum("seeder_tasks_total", "outcome", "failed")
                            + m.sum("seeder_tasks_total", "outcome", "dropped")).sum() >= planned
                            && scrapes.stream().mapToDouble(m -> m.sum("seeder_tasks_in_flight")).sum() == 0);
            Map<String, Instant> objects = cluster.objects();
            assertThat(objects).isNotEmpty();
            assertThat(WorldTiles.pngs(objects.keySet()).size()).isLessThan(WorldTiles.upTo(7).size());
            assertThat(objects.values().stream().max(Instant::compareTo).orElseThrow())
                    .as("the newest tile against the event sent at %s", sent).isBeforeOrEqualTo(sent);
        }
    }

    /**
     * No object under the store's prefix is newer than the job's event: nothing of the job (tile, done marker,
     * document) is written after it. Names each object that is.
     */
    private static void assertNoneNewerThan(Map<String, Instant> objects, JobEvent event) {
        assertThat(objects).as("objects written after the event of job %s at %s", event.jobId(), event.time())
                .allSatisfy((path, modified) -> assertThat(modified).as(path).isBeforeOrEqualTo(event.time()));
    }

    /** Polls the workers' {@code /q/metrics} until {@code condition} holds for their scrapes. */
    private static void awaitWorkers(List<SeederProcess> workers, String what, Predicate<List<Scrape>> condition)
            throws Exception {
        long deadline = System.nanoTime() + JOB_TIMEOUT.toNanos();
        while (true) {
            List<Scrape> scrapes = new ArrayList<>();
            for (SeederProcess worker : workers) {
                scrapes.add(Scrape.of(worker.metricsText()));
            }
            if (condition.test(scrapes)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + what + " within " + JOB_TIMEOUT);
            }
            Thread.sleep(200);
        }
    }

    @FunctionalInterface
    private interface JobEnd {
        void apply(Cluster cluster, String job) throws Exception;
    }

    /**
     * Waits until the process reports ready (200): each readiness probe may time out once on a loaded machine, and the
     * next one, 5 s later, answers.
     */
    private static void awaitReady(SeederProcess process) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        HttpResponse<String> health = process.management("/q/health/ready");
        while (health.statusCode() != 200 && System.nanoTime() < deadline) {
            Thread.sleep(200);
            health = process.management("/q/health/ready");
        }
        assertThat(health.statusCode()).as(process.name + ": " + health.body()).isEqualTo(200);
    }

    /** Waits until the process's readiness check named {@code check} is {@code status} (UP or DOWN). */
    private static void awaitHealth(SeederProcess process, String check, String status) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            HttpResponse<String> health = process.management("/q/health/ready");
            for (JsonNode entry : JSON.readTree(health.body()).path("checks")) {
                if (entry.path("name").asText().equals(check) && entry.path("status").asText().equals(status)) {
                    return;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("readiness check " + check + " did not become " + status + ": " + health.body());
            }
            Thread.sleep(200);
        }
    }

    @Test
    void anUnreachableServiceAtStartUpIsOneClearErrorNotAStackTrace(TestInfo info) throws Exception {
        String closed = "127.0.0.1:" + FreePorts.next();
        Map<String, String> cases = Map.of(
                "SEEDER_KAFKA_BOOTSTRAP", closed, "SEEDER_REDIS_URL", "redis://" + closed,
                "SEEDER_S3_ENDPOINT", "http://" + closed);
        Map<String, String> expected = Map.of(
                "SEEDER_KAFKA_BOOTSTRAP", "error: cannot reach Kafka at " + closed,
                "SEEDER_REDIS_URL", "error: cannot reach Redis at redis://" + closed,
                "SEEDER_S3_ENDPOINT", "error: cannot open the store s3://");
        for (String command : List.of("serve", "worker")) {
            for (Map.Entry<String, String> unreachable : cases.entrySet()) {
                try (Cluster cluster = new Cluster(name(info)).set(unreachable.getKey(), unreachable.getValue())
                        .set("SEEDER_KAFKA_CONNECT_TIMEOUT", "3s")) {
                    SeederProcess process = cluster.start(command + "-" + unreachable.getKey(), command);
                    int exit = process.awaitExit(Duration.ofSeconds(90));
                    String out = process.output();
                    assertThat(exit).as(out).isEqualTo(1);
                    assertThat(out).as(command + " with " + unreachable).contains(expected.get(unreachable.getKey()))
                            .doesNotContain("\tat ").doesNotContain("Exception in thread");
                }
            }
        }
        try (Cluster cluster = new Cluster(name(info)).set("SEEDER_AUTH_TOKENS_FILE", "")) {
            SeederProcess process = cluster.start("no-tokens-file", "serve");
            assertThat(process.awaitExit(Duration.ofSeconds(90))).isEqualTo(1);
            assertThat(process.output()).contains("error: the distributed coordinator needs API tokens: set "
                    + "SEEDER_AUTH_TOKENS_FILE");
        }
        try (Cluster cluster = new Cluster(name(info)).set("SEEDER_KAFKA_BOOTSTRAP", "")) {
            SeederProcess process = cluster.start("no-kafka-setting", "serve");
            assertThat(process.awaitExit(Duration.ofSeconds(90))).isEqualTo(1);
            assertThat(process.output()).contains("error: the distributed mode needs Kafka and Redis: set "
                    + "seeder.kafka.bootstrap (SEEDER_KAFKA_BOOTSTRAP");
        }
    }

    // ---- fixtures -------------------------------------------------------------------------------------------

    private static String name(TestInfo info) {
        return info.getTestMethod().orElseThrow().getName();
    }

    /**
     * Waits until the coordinator's outbox has sent the job's event; the events of the job. At most 90 s: a pass
     * whose removal a Redis failover lost holds the event back for two leases (60 s) at most.
     */
    private static List<JobEvent> awaitEvents(Cluster cluster, String job) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (true) {
            List<JobEvent> events = cluster.events().stream().filter(e -> e.jobId().equals(job)).toList();
            if (!events.isEmpty() || System.nanoTime() > deadline) {
                return events;
            }
            Thread.sleep(200);
        }
    }

    /** The bundled world layer with its empty tiles stored. */
    private Path storeEmptyTilesLayers() throws IOException {
        Path data = Path.of("../layers/src/main/resources/layers").toAbsolutePath().normalize();
        String bundled = Files.readString(data.resolve("layers.yaml"));
        Path file = temp.resolve("layers.yaml");
        Files.writeString(file, bundled.replace("emptyTiles: skip", "emptyTiles: store")
                .replace("world/countries.geojson", data.resolve("world/countries.geojson").toString())
                .replace("world/africa.geojson", data.resolve("world/africa.geojson").toString()));
        return file;
    }

    /** A layer whose data file is not GeoJSON: every one of its metatiles fails to render. */
    private Path corruptLayer() throws IOException {
        Files.writeString(temp.resolve("corrupt.geojson"), "{\"type\": \"FeatureCollection\", \"features\": [");
        Path file = temp.resolve("layers.yaml");
        Files.writeString(file, """
                layers:
                  - name: corrupt
                    zoom: {min: 0, max: 5}
                    tileMatrixSets: [WebMercatorQuad]
                    formats: [png]
                    metatile: {width: 4, height: 4}
                    source:
                      type: vector
                      data: [corrupt.geojson]
                    style:
                      - fill: "#ff0000"
                """);
        return file;
    }
}
