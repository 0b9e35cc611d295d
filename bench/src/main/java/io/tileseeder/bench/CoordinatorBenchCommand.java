package io.tileseeder.bench;

import com.fasterxml.jackson.databind.node.TextNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.adapters.kafka.KafkaClients;
import io.tileseeder.adapters.kafka.KafkaResultConsumer;
import io.tileseeder.adapters.kafka.KafkaTaskQueue;
import io.tileseeder.adapters.kafka.KafkaTopics;
import io.tileseeder.adapters.memory.InMemoryJobStore;
import io.tileseeder.adapters.memory.LocalJobGate;
import io.tileseeder.adapters.memory.LocalMetatileLock;
import io.tileseeder.adapters.redis.RedisJobStore;
import io.tileseeder.adapters.redis.RedissonMetatileLock;
import io.tileseeder.app.cli.ExitCodes;
import io.tileseeder.coordinator.job.CoordinatorSettings;
import io.tileseeder.coordinator.job.JobService;
import io.tileseeder.job.JobLimits;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.layer.LayerCatalogFile;
import io.tileseeder.message.Messages;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.message.TaskResult;
import io.tileseeder.message.TileCounts;
import io.tileseeder.outage.Outages;
import io.tileseeder.plan.JobSpecValidator;
import io.tileseeder.port.JobStore;
import io.tileseeder.port.TaskDelivery;
import io.tileseeder.port.TaskQueue;
import io.tileseeder.runtime.distributed.ClusterSettings;
import io.tileseeder.runtime.settings.Settings;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.redisson.api.RedissonClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code seeder bench-coordinator}: the distributed coordinator's own rates, on the Kafka and Redis of
 * SEEDER_KAFKA_BOOTSTRAP / SEEDER_REDIS_URL (bench/coordinator starts them): planning (tasks produced to Kafka
 * per second, through the job service with its Redis records), result ingestion (results consumed from Kafka
 * and recorded in Redis per second), and the planner's heap over a WebMercatorQuad z0-14 world job; with
 * {@code --coverage}, of jobs over one of the world layer's coverages.
 */
@Command(name = "bench-coordinator", mixinStandardHelpOptions = true, exitCodeOnInvalidInput = ExitCodes.USAGE,
        description = {"Measures the distributed coordinator: planning rate, result ingestion rate, planner heap.",
                "Needs SEEDER_KAFKA_BOOTSTRAP and SEEDER_REDIS_URL; run it with bench/coordinator."})
final class CoordinatorBenchCommand implements Callable<Integer> {

    private static final JobLimits NO_LIMIT = new JobLimits(Integer.MAX_VALUE, 32, 100_000, 100_000);

    @Option(names = "--plan-zoom", defaultValue = "11", description = "Plan world z0-N to Kafka (default: ${DEFAULT-VALUE}).")
    int planZoom;

    @Option(names = "--heap-zoom", defaultValue = "14", description = "Plan world z0-N for the heap (default: ${DEFAULT-VALUE}).")
    int heapZoom;

    @Option(names = "--tile-matrix-set", paramLabel = "ID", defaultValue = "WebMercatorQuad",
            description = "Plan in this tile matrix set of the layer (default: ${DEFAULT-VALUE}).")
    String tileMatrixSet;

    @Option(names = "--layers", paramLabel = "FILE",
            description = "Layer configuration with a layer named world (default: the bundled one).")
    Path layersFile;

    @Option(names = "--coverage", description = "Plan only the tiles of this coverage of the world layer "
            + "(such as africa) rather than the whole world.")
    String coverage;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = new PrintWriter(System.out, true);
        ClusterSettings cluster = ClusterSettings.from(Settings.config(Map.of()));
        LayerCatalog layers = layersFile == null ? LayerCatalogFile.bundled() : LayerCatalogFile.read(layersFile);
        String run = "bench-" + UUID.randomUUID().toString().substring(0, 8);
        RedissonClient redis = cluster.redis().connect(RedissonMetatileLock.DEFAULT_WATCHDOG_TIMEOUT);
        try {
            RedisJobStore records = new RedisJobStore(redis, run + ":", Clock.systemUTC(), Duration.ofHours(1));
            long tasks;
            double planSeconds;
            try (KafkaTaskQueue queue = new KafkaTaskQueue(KafkaTaskQueue.Config.of(cluster.kafkaBootstrap(),
                    run + ".tasks", run + "-workers", 0));
                 JobService jobs = service(layers, records, queue)) {
                long start = System.nanoTime();
                JobStatus job = jobs.submit(world(planZoom), null);
                double submitSeconds = (System.nanoTime() - start) / 1e9;
                JobStatus planned = await(records, job.id(), JobStatus::planningDone);
                planSeconds = (System.nanoTime() - start) / 1e9;
                tasks = planned.tasksPlanned();
                out.printf(Locale.ROOT, "planning: %s z0-%d, %,d tasks produced to Kafka in %.2f s: %,.0f tasks/s "
                        + "(the submission, counting %,d tiles, took %.3f s)%n", area(), planZoom, tasks, planSeconds,
                        tasks / planSeconds, planned.tilesPlanned(), submitSeconds);

                String topic = run + ".task-results";
                try (Admin admin = KafkaClients.admin(cluster.kafkaBootstrap(), Map.of())) {
                    KafkaTopics.ensureTopic(admin, topic, cluster.partitions());
                }
                produceResults(cluster.kafkaBootstrap(), topic, job.id(), tasks);
                start = System.nanoTime();
                try (KafkaResultConsumer consumer = new KafkaResultConsumer(KafkaResultConsumer.Config
                        .of(cluster.kafkaBootstrap(), topic, run + "-coordinator"),
                        jobs::publishAll)) {
                    consumer.start();
                    JobStatus done = jobs.awaitFinal(job.id(), Duration.ofMinutes(10)).orElseThrow().get();
                    if (!done.state().isFinal()) {
                        throw new IllegalStateException("ingestion stalled: " + done.tasksDone() + " of "
                                + done.tasksPlanned() + " results recorded after 10 minutes");
                    }
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                out.printf(Locale.ROOT, "ingestion: %,d results consumed from Kafka and recorded in Redis in %.2f s: "
                        + "%,.0f results/s%n", tasks, seconds, tasks / seconds);
            }
        } finally {
            redis.getKeys().deleteByPattern(run + ":*");
            redis.shutdown();
        }
        heap(layers, out);
        return 0;
    }

    /** The planner's live heap while it plans a job of {@code heapZoom} into a queue that only counts. */
    private void heap(LayerCatalog layers, PrintWriter out) throws Exception {
        AtomicLong offered = new AtomicLong();
        TaskQueue counting = new TaskQueue() {
            @Override
            public boolean offer(MetatileTask task, Duration timeout) {
                offered.incrementAndGet();
                return true;
            }

            @Override
            public Optional<TaskDelivery> poll(Duration timeout) {
                return Optional.empty();
            }
        };
        InMemoryJobStore records = new InMemoryJobStore(Clock.systemUTC(), 10);
        try (HeapSampler heap = new HeapSampler(); JobService jobs = service(layers, records, counting)) {
            long start = System.nanoTime();
            JobStatus job = jobs.submit(world(heapZoom), null);
            long next = 100_000;
            long firstMb = -1;
            while (!records.get(job.id()).orElseThrow().planningDone()) {
                if (offered.get() >= next) {
                    System.gc();
                    long used = (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20;
                    firstMb = firstMb < 0 ? used : firstMb;
                    out.printf(Locale.ROOT, "heap: %,13d tasks planned, %4d MB in use after a GC%n", offered.get(), used);
                    next *= 4;
                }
                Thread.sleep(20);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            out.printf(Locale.ROOT, "heap: %s z0-%d, %,d tasks planned in %.1f s (%,.0f tasks/s without Kafka); "
                    + "live heap at most %d MB%n", area(), heapZoom, offered.get(), seconds, offered.get() / seconds,
                    heap.peakMb());
        }
    }

    private static JobService service(LayerCatalog layers, JobStore records, TaskQueue queue) throws Exception {
        return new JobService(layers, new JobSpecValidator(layers, NO_LIMIT), records, queue,
                new FileTileStore(Files.createTempDirectory("bench-coordinator")), event -> { },
                new LocalMetatileLock(), new LocalJobGate(records), new Outages(Duration.ofMinutes(10), Clock.systemUTC()),
                Clock.systemUTC(), new CoordinatorSettings(1, 0, 1,
                        Integer.MAX_VALUE, Integer.MAX_VALUE, Duration.ZERO, Duration.ofHours(1)), new SimpleMeterRegistry());
    }

    private JobRequest world(int maxZoom) {
        return new JobRequest("world", tileMatrixSet, new JobRequest.Zoom(0, maxZoom), null, null, null, null, null, null,
                null,
                coverage == null ? null : TextNode.valueOf(coverage), null);
    }

    private String area() {
        return (coverage == null ? "world" : "world over coverage " + coverage) + " in " + tileMatrixSet;
    }

    private static JobStatus await(JobStore records, String id, Predicate<JobStatus> condition) throws InterruptedException {
        while (true) {
            JobStatus job = records.get(id).orElseThrow();
            if (condition.test(job)) {
                return job;
            }
            Thread.sleep(5);
        }
    }

    /** One succeeded result per task, produced as fast as the client goes (workers would take far longer). */
    private static void produceResults(String bootstrap, String topic, String jobId, long tasks) {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(KafkaClients.durableProducer(bootstrap, Map.of(),
                Duration.ofSeconds(30)), new StringSerializer(), new ByteArraySerializer())) {
            TileCounts counts = new TileCounts(10, 6, 0, 0, 0, 120_000, 0);
            AtomicReference<Exception> failed = new AtomicReference<>();
            for (long seq = 0; seq < tasks; seq++) {
                producer.send(new ProducerRecord<>(topic, jobId, Messages.toJson(
                        new TaskResult(TaskResult.VERSION, jobId, seq, true, counts, null))),
                        (metadata, error) -> {
                            if (error != null) {
                                failed.compareAndSet(null, error);
                            }
                        });
            }
            producer.flush();
            if (failed.get() != null) {
                throw new IllegalStateException("producing the results failed: " + failed.get().getMessage(),
                        failed.get());
            }
        }
    }
}
