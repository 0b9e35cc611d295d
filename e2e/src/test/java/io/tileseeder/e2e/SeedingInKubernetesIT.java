package io.tileseeder.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tileseeder.app.Engine;
import io.tileseeder.app.settings.Settings;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.message.JobEvent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The product as the chart installs it, in a real cluster (dev/k8s), with its pods deleted, upgraded and scaled
 * mid-job. Every job must end SUCCEEDED with exactly the tiles the embedded engine writes for the same job (the
 * store is emptied before each), and its one CloudEvent must come after the last tile was stored.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SeedingInKubernetesIT {

    /** The tiles of the world layer the jobs of the disturbed runs cover: long enough to disturb mid-way. */
    private static final int DISTURBED_ZOOM = 8;
    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(10);
    private static final Map<Integer, Set<String>> EXPECTED = new HashMap<>();

    private static Kube kube;
    private static SeederApi api;
    private static Store store;
    private static Events events;

    @BeforeAll
    static void connect() {
        kube = new Kube();
        String tokens = decode(kube.kubectl("get", "secret", kube.release, "-o", "jsonpath={.data.tokens}"));
        String token = tokens.lines().map(line -> line.strip().split("\\s+"))
                .filter(fields -> fields.length == 3 && fields[1].equals("write")).map(fields -> fields[2])
                .findFirst().orElseThrow(() -> new IllegalStateException("no write token in the chart's Secret"));
        api = new SeederApi(kube.serviceIp(kube.namespace, kube.deployment("coordinator")), 8080, token);
        store = new Store("http://" + kube.serviceIp(Kube.DEPS, "minio") + ":9000",
                decode(kube.deps("get", "secret", "minio", "-o", "jsonpath={.data.access-key}")),
                decode(kube.deps("get", "secret", "minio", "-o", "jsonpath={.data.secret-key}")), "tiles", "cache/");
        events = new Events(kube.serviceIp(Kube.DEPS, "kafka") + ":9092", "seeder.job-events");
    }

    @BeforeEach
    void emptyTheStore() throws Exception {
        store.clear();
    }

    @Test
    @Order(1)
    void aWorldJobThroughTheServiceSucceedsWithEveryTileAndOneEventAfterTheLast(TestInfo info) throws Exception {
        String job = api.submitWorld(7, label(info));
        JsonNode done = api.awaitFinal(job, JOB_TIMEOUT);
        assertEveryTile(job, done, 7);
    }

    @Test
    @Order(2)
    void aWorkerPodForceDeletedMidJobLosesNoTile(TestInfo info) throws Exception {
        String job = api.submitWorld(DISTURBED_ZOOM, label(info));
        api.awaitJob(job, j -> SeederApi.progress(j, "tilesDone") > 0, "tiles done", JOB_TIMEOUT);
        String victim = kube.pods("worker").getFirst();
        kube.kubectl("delete", "pod", victim, "--grace-period=0", "--force", "--wait=false");

        JsonNode done = api.awaitFinal(job, JOB_TIMEOUT);
        assertEveryTile(job, done, DISTURBED_ZOOM);
    }

    @Test
    @Order(3)
    void aRollingUpgradeOfTheWorkersMidJobDrainsThemWithoutAFailedTask(TestInfo info) throws Exception {
        String job = api.submitWorld(DISTURBED_ZOOM, label(info));
        api.awaitJob(job, j -> SeederApi.progress(j, "tilesDone") > 0, "tiles done", JOB_TIMEOUT);
        List<String> before = kube.pods("worker");
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

        JsonNode done = api.awaitFinal(job, JOB_TIMEOUT);
        assertEveryTile(job, done, DISTURBED_ZOOM);
        assertThat(SeederApi.progress(done, "tasksFailed")).as("tasks failed").isZero();
    }

    @Test
    @Order(4)
    void theCoordinatorPodDeletedMidPlanResumesThePlan(TestInfo info) throws Exception {
        String job = api.submitWorld(DISTURBED_ZOOM, label(info));
        JsonNode planning = api.awaitJob(job, j -> SeederApi.progress(j, "tasksPlanned") > 0, "tasks planned",
                JOB_TIMEOUT);
        assertThat(planning.get("progress").get("planningDone").asBoolean()).as("planning done at %s", planning)
                .isFalse();
        for (String coordinator : kube.pods("coordinator")) {
            kube.kubectl("delete", "pod", coordinator, "--grace-period=0", "--force", "--wait=false");
        }

        JsonNode done = api.awaitFinal(job, JOB_TIMEOUT);
        assertEveryTile(job, done, DISTURBED_ZOOM);
    }

    @Test
    @Order(5)
    void theRedisPodDeletedMidJobIsWaitedOut(TestInfo info) throws Exception {
        String job = api.submitWorld(DISTURBED_ZOOM, label(info));
        api.awaitJob(job, j -> SeederApi.progress(j, "tilesDone") > 0, "tiles done", JOB_TIMEOUT);
        kube.deps("delete", "pod", "-l", "app=redis", "--wait=false");

        JsonNode done = api.awaitFinal(job, JOB_TIMEOUT);
        assertEveryTile(job, done, DISTURBED_ZOOM);
    }

    /**
     * The job ended SUCCEEDED, the store holds exactly the tiles the embedded engine writes for it, and one event
     * says so, sent after the last tile was stored.
     */
    private static void assertEveryTile(String job, JsonNode done, int maxZoom) throws Exception {
        assertThat(done.get("state").asText()).as("job %s: %s", job, done).isEqualTo("SUCCEEDED");
        Map<String, Instant> objects = store.objects();
        Set<String> tiles = objects.keySet().stream().filter(key -> key.endsWith(".png"))
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> expected = expected(maxZoom);
        assertThat(tiles).as("the tiles in MinIO").hasSameSizeAs(expected).isEqualTo(expected);
        Instant lastTile = tiles.stream().map(objects::get).max(Instant::compareTo).orElseThrow();
        List<JobEvent> jobEvents = events.await(job, Duration.ofSeconds(90));
        assertThat(jobEvents).as("the job's events").singleElement().satisfies(event -> {
            assertThat(event.state()).isEqualTo(JobState.SUCCEEDED);
            assertThat(event.time()).as("the event's time").isAfterOrEqualTo(lastTile);
            assertThat(event.counts().written()).isEqualTo(expected.size());
        });
    }

    /** The world tiles z0..maxZoom the embedded engine writes, as keys under the store's prefix. */
    private static Set<String> expected(int maxZoom) throws Exception {
        synchronized (EXPECTED) {
            if (!EXPECTED.containsKey(maxZoom)) {
                Path out = Files.createTempDirectory("expected-world-");
                try (Engine engine = Engine.embedded(Settings.defaults(out.toString()))) {
                    JobStatus job = engine.jobs().submit(new JobRequest("world", null, new JobRequest.Zoom(0, maxZoom),
                            null, null, null, null, null, null, null), null);
                    JobStatus done = engine.jobs().awaitFinal(job.id(), JOB_TIMEOUT).orElseThrow().get();
                    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
                }
                try (Stream<Path> files = Files.walk(out)) {
                    EXPECTED.put(maxZoom, files.filter(f -> f.toString().endsWith(".png"))
                            .map(f -> out.relativize(f).toString()).collect(Collectors.toCollection(TreeSet::new)));
                }
            }
            return EXPECTED.get(maxZoom);
        }
    }

    private static String label(TestInfo info) {
        return info.getTestMethod().orElseThrow().getName();
    }

    private static String decode(String base64) {
        return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
    }
}
