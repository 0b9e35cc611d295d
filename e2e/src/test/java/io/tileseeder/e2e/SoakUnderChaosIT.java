package io.tileseeder.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tileseeder.app.testing.WorldTiles;
import io.tileseeder.job.JobState;
import io.tileseeder.message.JobEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Sustained chaos on the release the chart installs: waves of concurrent jobs of mixed sizes and priorities while a
 * chaos loop, at seeded random moments, force-deletes a worker pod or the coordinator pod, deletes the Redis pod, and
 * restarts MinIO or Kafka (every kind once per round, in a random order; each waited for until it is Ready again).
 * Every job must end SUCCEEDED with exactly the tiles the embedded engine writes for it (MinIO listed with its own
 * client), and have exactly one event, not earlier than its last tile.
 *
 * <p>The first wave runs undisturbed: each job's extra time under chaos is measured against it. Waves go on until
 * every kind of disturbance was done once; after that, no wave starts once less than twice the quiet wave's time is
 * left of the bound: {@code SEEDER_E2E_SOAK} (an ISO-8601 duration, 10 minutes
 * when unset). {@code SEEDER_E2E_SOAK_SEED} replays a run's chaos (its seed is the report's first line). The report
 * (actions, jobs, extra times, events) is printed and written to {@code target/soak-report.txt}.
 */
class SoakUnderChaosIT {

    private static final Duration DEFAULT_BOUND = Duration.ofMinutes(10);
    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(15);
    private static final Duration BACK_WITHIN = Duration.ofMinutes(5);
    /**
     * How long after the last wave its jobs' events may take: a worker force-deleted while writing a job holds its
     * event back for two gate leases (60 s by default), and Kafka may just have restarted.
     */
    private static final Duration EVENTS_WITHIN = Duration.ofMinutes(3);
    /** The quiet time between two actions: long enough for jobs to move, short enough to keep them disturbed. */
    private static final int MIN_PAUSE_SECONDS = 5;
    private static final int MAX_PAUSE_SECONDS = 25;

    /** A job of each wave: the world layer over its own zoom levels (so its tiles are its own), at a priority. */
    private record Shape(String name, int minZoom, int maxZoom, int priority) {
        String zooms() {
            return minZoom == maxZoom ? "z" + minZoom : "z" + minZoom + "-" + maxZoom;
        }
    }

    private static final List<Shape> WAVE = List.of(new Shape("small, urgent", 0, 5, 10),
            new Shape("medium", 6, 6, 5), new Shape("large, background", 7, 7, 0));
    private static final int WAVE_MAX_ZOOM = 7;

    private record Run(int wave, Shape shape, String id, JsonNode done, Instant lastTile, int tiles) {
        Duration took() {
            return Duration.between(Instant.parse(done.get("created").asText()),
                    Instant.parse(done.get("finished").asText()));
        }
    }

    private enum Action {
        WORKER_POD, COORDINATOR_POD, REDIS_POD, MINIO, KAFKA
    }

    private final Release release = Release.connect();
    private final Kube kube = release.kube();
    private final List<String> actions = Collections.synchronizedList(new ArrayList<>());
    private final List<String> eventLines = new ArrayList<>();
    /** When the first wave was submitted: the moment the bound and the actions' times count from. */
    private Instant start;

    @Test
    void everyJobSucceedsWithEveryTileAndOneEventWhilePodsAndDependenciesAreKilledAtRandom() throws Exception {
        Duration bound = bound();
        long seed = seed();
        String header = "seed " + seed + ", bound " + bound.toMinutes() + " min, waves of " + WAVE.stream()
                .map(s -> s.zooms() + " (priority " + s.priority() + ")").collect(Collectors.joining(", "));
        Set<String> expected = WorldTiles.upTo(WAVE_MAX_ZOOM);
        List<Run> runs = new ArrayList<>();
        Chaos chaos = new Chaos(new Random(seed));
        ExecutorService loop = Executors.newSingleThreadExecutor(r -> new Thread(r, "chaos"));
        try {
            start = Instant.now();
            List<Run> quiet = wave(0, expected);
            runs.addAll(quiet);
            Duration waveTime = quiet.stream().map(Run::took).max(Duration::compareTo).orElseThrow();
            Instant end = start.plus(bound);
            Future<?> disturbing = loop.submit(chaos::run);
            int wave = 1;
            do {
                runs.addAll(wave(wave++, expected));
            } while ((Instant.now().plus(waveTime.multipliedBy(2)).isBefore(end) || !chaos.roundDone())
                    && !disturbing.isDone());
            chaos.stop();
            disturbing.get(BACK_WITHIN.toMinutes() + 1, TimeUnit.MINUTES);
            assertThat(chaos.done.keySet()).as("kinds of disturbance done (a bound too short for one round?)")
                    .containsExactlyInAnyOrder(Action.values());
            Map<String, List<JobEvent>> events = release.events().awaitEach(
                    runs.stream().map(Run::id).toList(), EVENTS_WITHIN);
            for (Run run : runs) {
                List<JobEvent> ofJob = events.getOrDefault(run.id(), List.of());
                eventLines.add("  " + run.id() + ": " + ofJob.stream().map(e -> e.state() + " at " + e.time())
                        .collect(Collectors.joining(", ")));
                assertThat(ofJob).as("the events of job %s (wave %d, %s)", run.id(), run.wave(), run.shape().name())
                        .singleElement().satisfies(event -> {
                            assertThat(event.state()).isEqualTo(JobState.SUCCEEDED);
                            assertThat(event.time()).as("the event's time, against the job's last tile")
                                    .isAfterOrEqualTo(run.lastTile());
                            assertThat(event.counts().written()).as("written").isLessThanOrEqualTo(run.tiles());
                            assertThat(event.counts().written() + event.counts().skipped()
                                    + event.counts().unchanged()).as("written, skipped and unchanged")
                                    .isGreaterThanOrEqualTo(run.tiles());
                        });
            }
        } finally {
            chaos.stop();
            loop.shutdownNow();
            report(header, runs);
        }
    }

    /**
     * Submits one job of each shape at once, waits for them all, and checks that each ended SUCCEEDED and that the
     * store holds exactly the wave's tiles; the wave's runs.
     */
    private List<Run> wave(int wave, Set<String> expected) throws Exception {
        release.store().clear();
        Map<Shape, String> ids = new LinkedHashMap<>();
        for (Shape shape : WAVE) {
            ids.put(shape, release.api().submit("world", shape.minZoom(), shape.maxZoom(), shape.priority(),
                    "soak-wave-" + wave));
        }
        Map<Shape, JsonNode> done = new LinkedHashMap<>();
        for (Map.Entry<Shape, String> job : ids.entrySet()) {
            JsonNode end = release.api().awaitFinal(job.getValue(), JOB_TIMEOUT);
            done.put(job.getKey(), end);
            assertThat(end.get("state").asText()).as("job %s of wave %d (%s): %s", job.getValue(), wave,
                    job.getKey().name(), end).isEqualTo("SUCCEEDED");
        }
        Map<String, Instant> objects = release.store().objects();
        Set<String> tiles = WorldTiles.pngs(objects.keySet());
        assertThat(tiles).as("the tiles in MinIO after wave %d", wave).hasSameSizeAs(expected).isEqualTo(expected);
        List<Run> runs = new ArrayList<>();
        for (Map.Entry<Shape, JsonNode> job : done.entrySet()) {
            Shape shape = job.getKey();
            Set<String> own = tiles.stream().filter(tile -> within(tile, shape))
                    .collect(Collectors.toCollection(TreeSet::new));
            Instant last = own.stream().map(objects::get).max(Instant::compareTo).orElseThrow();
            runs.add(new Run(wave, shape, ids.get(shape), job.getValue(), last, own.size()));
        }
        return runs;
    }

    /** Whether a tile's path (world/WebMercatorQuad/z/x/y.png) is at one of the shape's zoom levels. */
    private static boolean within(String tile, Shape shape) {
        int zoom = Integer.parseInt(tile.split("/")[2]);
        return zoom >= shape.minZoom() && zoom <= shape.maxZoom();
    }

    /** The disturbances, one after another until stopped, each waited for until what it hit is Ready again. */
    private final class Chaos {

        private final Random random;
        private final CountDownLatch stopped = new CountDownLatch(1);
        private final Map<Action, Integer> done = Collections.synchronizedMap(new EnumMap<>(Action.class));

        Chaos(Random random) {
            this.random = random;
        }

        void stop() {
            stopped.countDown();
        }

        /** Whether every kind of disturbance was done at least once. */
        boolean roundDone() {
            return done.size() == Action.values().length;
        }

        void run() {
            try {
                while (true) {
                    List<Action> round = new ArrayList<>(List.of(Action.values()));
                    Collections.shuffle(round, random);
                    for (Action action : round) {
                        int pause = MIN_PAUSE_SECONDS + random.nextInt(MAX_PAUSE_SECONDS - MIN_PAUSE_SECONDS + 1);
                        if (stopped.await(pause, TimeUnit.SECONDS)) {
                            return;
                        }
                        apply(action);
                        done.merge(action, 1, Integer::sum);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void apply(Action action) throws InterruptedException {
            Instant at = Instant.now();
            String what = switch (action) {
                case WORKER_POD -> deletePod(kube.namespace, Kube.component("worker"), true);
                case COORDINATOR_POD -> deletePod(kube.namespace, Kube.component("coordinator"), true);
                case REDIS_POD -> deletePod(Kube.DEPS, "app=redis", false);
                case MINIO -> restart("minio");
                case KAFKA -> restart("kafka");
            };
            actions.add("  +%4d s  %-58s back after %d s".formatted(Duration.between(start, at).toSeconds(), what,
                    Duration.between(at, Instant.now()).toSeconds()));
        }

        /**
         * Deletes one of the pods (picked at random), force or with its grace period; waits for its replacement. First
         * waits until every pod of the selector is Ready: after a Kafka restart the pods' readiness probes need up to
         * two periods to pass again, and a pod is only deleted from a cluster that has come back.
         */
        private String deletePod(String namespace, String selector, boolean force) throws InterruptedException {
            await(() -> {
                List<Kube.Pod> live = kube.live(namespace, selector);
                return !live.isEmpty() && live.stream().allMatch(Kube.Pod::ready);
            }, "every pod of " + selector + " in " + namespace + " Ready");
            List<Kube.Pod> pods = kube.live(namespace, selector).stream().filter(Kube.Pod::ready).toList();
            assertThat(pods).as("Ready pods of %s in %s", selector, namespace).isNotEmpty();
            Kube.Pod pod = pods.get(random.nextInt(pods.size()));
            if (force) {
                kube.in(namespace, "delete", "pod", pod.name(), "--grace-period=0", "--force", "--wait=false");
            } else {
                kube.in(namespace, "delete", "pod", pod.name(), "--wait=false");
            }
            awaitReplaced(namespace, selector, pods.size(), Set.of(pod.uid()));
            return (force ? "force-deleted pod " : "deleted pod ") + pod.name();
        }

        /** Restarts a dependency's Deployment (Recreate: the old pod ends before the new starts); waits for it. */
        private String restart(String deployment) throws InterruptedException {
            List<Kube.Pod> before = kube.live(Kube.DEPS, "app=" + deployment);
            kube.deps("rollout", "restart", "deployment/" + deployment);
            awaitReplaced(Kube.DEPS, "app=" + deployment, before.size(),
                    before.stream().map(Kube.Pod::uid).collect(Collectors.toSet()));
            return "restarted " + deployment + " (rollout restart)";
        }

        /**
         * Waits until {@code count} pods of {@code selector} are Ready, none of them one of {@code gone} (UIDs: a
         * StatefulSet's pod comes back under its old name).
         */
        private void awaitReplaced(String namespace, String selector, int count, Set<String> gone)
                throws InterruptedException {
            await(() -> {
                List<Kube.Pod> ready = kube.live(namespace, selector).stream().filter(Kube.Pod::ready).toList();
                return ready.size() == count && ready.stream().noneMatch(pod -> gone.contains(pod.uid()));
            }, selector + " in " + namespace + " Ready again");
        }

        private void await(BooleanSupplier condition, String what) throws InterruptedException {
            Retry.until(BACK_WITHIN, condition, () -> "not " + what + " within " + BACK_WITHIN);
        }
    }

    private void report(String header, List<Run> runs) throws Exception {
        List<String> lines = new ArrayList<>();
        lines.add("soak under chaos: " + header);
        Map<Shape, Duration> quiet = runs.stream().filter(run -> run.wave() == 0)
                .collect(Collectors.toMap(Run::shape, Run::took));
        lines.add("jobs (time from submission to end; extra: against the same job in the undisturbed wave 0):");
        for (Run run : runs) {
            Duration extra = run.took().minus(quiet.getOrDefault(run.shape(), Duration.ZERO));
            lines.add("  wave %d  %-18s %-5s priority %2d  %s  %s  %,6d tiles  %4d s%s".formatted(run.wave(),
                    run.shape().name(), run.shape().zooms(), run.shape().priority(), run.id(),
                    run.done().get("state").asText(), run.tiles(), run.took().toSeconds(),
                    run.wave() == 0 ? "" : "  extra %+d s".formatted(extra.toSeconds())));
        }
        lines.add("actions (time from the start of the soak):");
        synchronized (actions) {
            lines.addAll(actions);
        }
        lines.add("events (each job's, at the end):");
        lines.addAll(eventLines);
        String text = String.join("\n", lines) + "\n";
        System.out.print(text);
        Files.writeString(Files.createDirectories(Path.of("target")).resolve("soak-report.txt"), text);
    }

    private static Duration bound() {
        String value = System.getenv("SEEDER_E2E_SOAK");
        return value == null || value.isBlank() ? DEFAULT_BOUND : Duration.parse(value);
    }

    private static long seed() {
        String value = System.getenv("SEEDER_E2E_SOAK_SEED");
        return value == null || value.isBlank() ? System.currentTimeMillis() : Long.parseLong(value);
    }
}
