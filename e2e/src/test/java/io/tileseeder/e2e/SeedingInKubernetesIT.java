package io.tileseeder.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tileseeder.app.testing.WorldTiles;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobState;
import io.tileseeder.message.JobEvent;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The product as the chart installs it, in a real cluster (dev/k8s), with its pods upgraded, deleted and scaled
 * mid-job, one disturbance each (SoakUnderChaosIT deletes worker, coordinator and Redis pods and restarts MinIO and
 * Kafka many times). Every job must end SUCCEEDED with exactly the tiles the embedded engine writes for the same job
 * (the store is emptied before each), and its one CloudEvent must come after the last tile was stored.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SeedingInKubernetesIT {

    /**
     * The tiles of the world layer the jobs of the disturbed runs cover: long enough to disturb mid-way (5,461
     * metatiles), for a disturbance that needs the job to outlast pods starting or the planner still planning.
     */
    private static final int DISTURBED_ZOOM = 8;
    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(10);
    /** The Swiss LV95 job's last level: 1,253 tiles, 96 metatiles. */
    private static final int SWISS_ZOOM = 4;

    private static Kube kube;
    private static SeederApi api;
    private static Store store;
    private static Events events;

    @BeforeAll
    static void connect() {
        Release release = Release.connect();
        kube = release.kube();
        api = release.api();
        store = release.store();
        events = release.events();
    }

    @BeforeEach
    void emptyTheStore() throws Exception {
        store.clear();
    }

    @Test
    @Order(1)
    void aWorldJobThroughTheServiceSucceedsWithEveryTileAndOneEventAfterTheLast(TestInfo info) throws Exception {
        // The coordinator's image renders a dry run's sample with the worker's pipeline, which it must carry.
        JsonNode estimate = api.dryRun("world", 7);
        assertThat(estimate.get("metatiles").asLong()).isEqualTo(1367);
        assertThat(estimate.get("bytes").asLong()).as("%s", estimate).isPositive();

        String job = api.submitWorld(7, label(info));
        JsonNode done = api.awaitFinal(job, JOB_TIMEOUT);
        assertEveryTile(job, done, WorldTiles.upTo(7), false);
    }

    /**
     * A set the release's layers file reads from a file beside it in the chart's ConfigMap (Swiss LV95, EPSG:2056,
     * resolutions that are not powers of two): the tiles the embedded engine writes for the same job on the same
     * layers.
     */
    @Test
    @Order(2)
    void aJobOnTheLayersFilesOwnTileMatrixSetSucceedsWithTheEmbeddedEnginesTiles(TestInfo info) throws Exception {
        Path layers = Files.createTempDirectory("e2e-layers-");
        Files.copy(Path.of(Kube.env("SEEDER_E2E_LAYERS")), layers.resolve("layers.yaml"));
        Files.copy(Path.of(Kube.env("SEEDER_E2E_SWISS_SET")), layers.resolve("SwissLV95.json"));
        Set<String> expected = WorldTiles.seeded(Optional.of(layers.resolve("layers.yaml")), new JobRequest("world",
                "SwissLV95", new JobRequest.Zoom(0, SWISS_ZOOM), null, null, null, null, null, null, null));

        String job = api.submit("world", "SwissLV95", 0, SWISS_ZOOM, 0, label(info));
        JsonNode done = api.awaitFinal(job, JOB_TIMEOUT);
        assertThat(expected).as("the embedded engine's tiles").isNotEmpty()
                .allMatch(tile -> tile.startsWith("world/SwissLV95/"));
        assertEveryTile(job, done, expected, false);
    }

    @Test
    @Order(3)
    void aRollingUpgradeOfTheWorkersMidJobDrainsThemWithoutAFailedTask(TestInfo info) throws Exception {
        JsonNode done = seedDisturbed(info, running -> {
            List<String> before = kube.pods("worker");
            String coordinators = kube.restarts("coordinator");
            List<Kube.Followed> logs = new ArrayList<>();
            for (String pod : before) {
                logs.add(kube.follow(pod));
            }
            // A new setting for the workers: a new pod template, so the Deployment replaces every worker pod.
            kube.upgrade("worker.threads=3");
            assertThat(kube.pods("worker")).doesNotContainAnyElementsOf(before);
            for (Kube.Followed log : logs) {
                assertThat(log.awaitEnd(Duration.ofMinutes(2))).as("the log of %s", log.pod())
                        .contains("drained in").doesNotContain("drain timeout");
            }
            assertThat(kube.restarts("coordinator")).as("the coordinator, untouched by the workers' upgrade")
                    .isEqualTo(coordinators);
        });
        assertThat(SeederApi.progress(done, "tasksFailed")).as("tasks failed").isZero();
    }

    @Test
    @Order(4)
    void theCoordinatorPodDeletedMidPlanResumesThePlan(TestInfo info) throws Exception {
        seedDisturbed(info, running -> {
            assertThat(running.get("progress").get("planningDone").asBoolean()).as("planning done at %s", running)
                    .isFalse();
            for (String coordinator : kube.pods("coordinator")) {
                kube.kubectl("delete", "pod", coordinator, "--grace-period=0", "--force", "--wait=false");
            }
        });
    }

    /**
     * One worker, then the autoscaler enabled with a target far below what a busy worker uses of its request: once
     * metrics-server reports the job's load, it must add workers up to its maximum, and each new worker must take
     * metatiles of the running job.
     */
    @Test
    @Order(5)
    void theHorizontalPodAutoscalerAddsWorkersOnCpuAndEachRendersMetatiles(TestInfo info) throws Exception {
        String workers = "deployment/" + kube.deployment("worker");
        kube.kubectl("scale", workers, "--replicas=1");
        kube.kubectl("rollout", "status", workers, "--timeout=5m");
        awaitPods(() -> kube.pods("worker").size() == 1 && kube.readyPods("worker").size() == 1, "one worker");
        kube.upgrade("worker.autoscaling.enabled=true", "worker.autoscaling.minReplicas=1",
                "worker.autoscaling.maxReplicas=3", "worker.autoscaling.targetCPUUtilizationPercentage=50");
        try {
            seedDisturbed(info, running -> awaitPods(() -> kube.readyPods("worker").size() == 3
                    && Integer.parseInt(kube.kubectl("get", "hpa", kube.deployment("worker"), "-o",
                    "jsonpath={.status.desiredReplicas}")) == 3, "the autoscaler adding two ready workers"));
            for (String pod : kube.pods("worker")) {
                assertThat(renderedMetatiles(pod)).as("metatiles rendered by %s", pod).isPositive();
            }
        } finally {
            kube.upgrade("worker.autoscaling.enabled=false", "worker.replicas=2");
        }
    }

    @Test
    @Order(6)
    void prometheusScrapesEveryPodLoadsTheAlertsAndTheDashboardQueriesHaveData(TestInfo info) throws Exception {
        Prometheus prometheus = new Prometheus(kube.serviceIp(kube.namespace, "prometheus"));
        // The earlier tests restart pods and load the node for a quarter of an hour: a connection to the service
        // can time out for a while after that, so the test waits for an answer before it reads one.
        awaitPods(() -> answers(prometheus), "answer from Prometheus at its service");
        assertThat(prometheus.alerts()).contains("SeederJobStuck", "SeederTaskFailureRate", "SeederBacklogGrowing",
                "SeederStoreErrors");
        List<String> queries = Prometheus.dashboardQueries(Path.of(Kube.env("SEEDER_E2E_CHART"), "files",
                "dashboard.json"), kube.namespace);
        assertThat(queries).as("the dashboard's queries").hasSizeGreaterThan(10)
                .anyMatch(query -> query.contains("seeder_upstream_requests_total"))
                .anyMatch(query -> query.contains("seeder_upstream_errors_total"));
        // The upstream panels read counters a worker registers for each WMS its layers name: the release has a
        // layer drawn by the cluster's MapServer beside the world layer (dev/k8s.d/layers.yaml), and a job of each
        // runs.
        String world = api.submit("world", DISTURBED_ZOOM, label(info));
        String wms = api.submit("world-wms", 6, label(info));
        api.awaitJob(world, j -> SeederApi.progress(j, "tilesDone") > 0, "tiles done", JOB_TIMEOUT);
        List<String> pods = new ArrayList<>(kube.pods("coordinator"));
        pods.addAll(kube.pods("worker"));
        awaitPods(() -> up(prometheus, pods), "scrape of every pod up");
        // Each query must have data at some moment from here on, while the jobs run or just after (a rate needs two
        // scrapes; a job's own gauges end with it).
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        List<String> empty = new ArrayList<>(queries);
        empty.removeIf(query -> hasData(prometheus, query));
        while (!empty.isEmpty() && Instant.now().isBefore(deadline)) {
            Thread.sleep(2000); // Prometheus scrapes every 5 s
            empty.removeIf(query -> hasData(prometheus, query));
        }
        assertThat(empty).as("dashboard queries without data while the jobs run").isEmpty();
        for (String job : List.of(world, wms)) {
            JsonNode done = api.awaitFinal(job, JOB_TIMEOUT);
            assertThat(done.get("state").asText()).as("job %s: %s", job, done).isEqualTo("SUCCEEDED");
            assertThat(SeederApi.progress(done, "tilesWritten")).as("tiles written by %s", job).isPositive();
        }
    }

    private static boolean answers(Prometheus prometheus) {
        try {
            prometheus.alerts();
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    private static boolean up(Prometheus prometheus, List<String> pods) {
        try {
            Map<String, String> targets = prometheus.targets();
            return pods.stream().allMatch(pod -> "up".equals(targets.get(pod)));
        } catch (Exception e) {
            return false;
        }
    }

    private static boolean hasData(Prometheus prometheus, String query) {
        try {
            return prometheus.series(query) > 0;
        } catch (Exception e) {
            return false;
        }
    }

    /** A disturbance, done once the job has tiles done; given the job then. */
    @FunctionalInterface
    private interface Disturbance {
        void apply(JsonNode running) throws Exception;
    }

    /**
     * Seeds world z0-{@value #DISTURBED_ZOOM}, disturbs it once it has tiles done, and checks that it still ends
     * SUCCEEDED with every tile and one event after the last; the job at its end.
     */
    private static JsonNode seedDisturbed(TestInfo info, Disturbance disturbance) throws Exception {
        String job = api.submitWorld(DISTURBED_ZOOM, label(info));
        JsonNode running = api.awaitJob(job, j -> SeederApi.progress(j, "tilesDone") > 0, "tiles done", JOB_TIMEOUT);
        Instant disturbed = Instant.now();
        disturbance.apply(running);
        JsonNode done = api.awaitFinal(job, JOB_TIMEOUT);
        assertThat(Instant.parse(done.get("finished").asText())).as("the job's end, after the disturbance began")
                .isAfter(disturbed);
        assertEveryTile(job, done, WorldTiles.upTo(DISTURBED_ZOOM), true);
        return done;
    }

    private static void awaitPods(BooleanSupplier condition, String what) throws InterruptedException {
        Retry.until(Duration.ofMinutes(5), condition, () -> "no " + what + " within 5 minutes: "
                + kube.kubectl("get", "pods", "-o", "wide"));
    }

    /** The worker's seeder_metatiles_rendered_total, from its /q/metrics. */
    private static double renderedMetatiles(String pod) throws Exception {
        HttpResponse<String> metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://" + kube.podIp(pod) + ":9080/q/metrics")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        return metrics.body().lines().filter(line -> line.startsWith("seeder_metatiles_rendered_total"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }

    /**
     * The job ended SUCCEEDED, the store holds exactly the tiles the embedded engine writes for it, and one event
     * says so, sent after the last tile was stored. Undisturbed, the event counts every tile written; disturbed, a
     * worker that stopped after writing some tiles of a metatile but before its result leaves them for the next
     * delivery, which finds them stored and counts them skipped (a seed) or, rendered again to the same bytes,
     * unchanged (a reseed): written, skipped and unchanged then cover every tile.
     */
    private static void assertEveryTile(String job, JsonNode done, Set<String> expected, boolean disturbed)
            throws Exception {
        assertThat(done.get("state").asText()).as("job %s: %s", job, done).isEqualTo("SUCCEEDED");
        Map<String, Instant> objects = store.objects();
        Set<String> tiles = WorldTiles.pngs(objects.keySet());
        assertThat(tiles).as("the tiles in MinIO").hasSameSizeAs(expected).isEqualTo(expected);
        Instant lastTile = tiles.stream().map(objects::get).max(Instant::compareTo).orElseThrow();
        List<JobEvent> jobEvents = events.await(job, Duration.ofSeconds(90));
        assertThat(jobEvents).as("the job's events").singleElement().satisfies(event -> {
            assertThat(event.state()).isEqualTo(JobState.SUCCEEDED);
            assertThat(event.time()).as("the event's time").isAfterOrEqualTo(lastTile);
            if (disturbed) {
                assertThat(event.counts().written()).as("written").isLessThanOrEqualTo(expected.size());
                assertThat(event.counts().written() + event.counts().skipped() + event.counts().unchanged())
                        .as("written, skipped and unchanged").isGreaterThanOrEqualTo(expected.size());
            } else {
                assertThat(event.counts().written()).as("written").isEqualTo(expected.size());
            }
        });
    }

    private static String label(TestInfo info) {
        return info.getTestMethod().orElseThrow().getName();
    }
}
