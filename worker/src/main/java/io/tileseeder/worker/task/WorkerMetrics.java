package io.tileseeder.worker.task;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tileseeder.layer.LayerCatalogConfig;
import io.tileseeder.layer.HttpSource;
import io.tileseeder.message.TileCounts;
import io.tileseeder.render.wms.WmsClient;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * The worker pipeline's meters, all made up front so that recording costs an add and no tag lookup. Names as
 * Prometheus scrapes them: {@code seeder_tiles_total{outcome}}, {@code seeder_worker_stage_seconds{stage}} (a
 * histogram per metatile), {@code seeder_metatiles_rendered_total}, {@code seeder_tasks_in_flight},
 * {@code seeder_tasks_total{outcome}}, {@code seeder_worker_stage_queue{stage}} and
 * {@code seeder_worker_stage_capacity{stage}} (tasks each named stage of the pipeline holds, and its bound),
 * {@code seeder_task_deliveries_total},
 * {@code seeder_task_redeliveries_total}, {@code seeder_lock_contended_total}, {@code seeder_store_retries_total},
 * {@code seeder_store_errors_total}, {@code seeder_upstream_requests_total{upstream}},
 * {@code seeder_upstream_errors_total{upstream}}, {@code seeder_upstream_in_flight{upstream}},
 * {@code seeder_upstream_window{upstream}}, {@code seeder_upstream_latency_seconds{upstream}} and
 * {@code seeder_upstream_permit_wait_seconds_total{upstream}}. Labels are bounded: outcomes, stages, and the upstreams the
 * layer configuration names.
 *
 * <p>Meters of one name registered twice in a registry are the same meter, so two pipelines on one registry
 * add up; give each its own registry to tell them apart ({@link #unregistered()}).
 */
public final class WorkerMetrics {

    /** The pipeline's stages, as timed per metatile. */
    public enum Stage { LOCK, CHECK, RENDER, ENCODE, STORE }

    /**
     * The pipeline's named stages, each on threads of its own with a bound ({@link TaskWorkers}); the timed
     * {@link Stage}s are steps inside prepare (lock to encode) and store.
     */
    public enum PipelineStage {
        FETCH, PREPARE, STORE, REPORT;

        /** As the stage is named in metrics and thread names. */
        public String tag() {
            return lower(this);
        }
    }

    /** Task verdicts as counted: accepted after its result, released for another try, or recorded FAILED. */
    public enum TaskOutcome { SUCCEEDED, RELEASED, FAILED, DROPPED }

    /** Bucket bounds of the stage histograms, from a lock that is free to a slow upstream WMS. */
    private static final Duration[] STAGE_BUCKETS = {
            Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
            Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
            Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(10), Duration.ofSeconds(60)};

    private final MeterRegistry registry;
    private final Map<Stage, Timer> stages = new EnumMap<>(Stage.class);
    private final Map<TaskOutcome, Counter> tasks = new EnumMap<>(TaskOutcome.class);
    private final Counter tilesWritten;
    private final Counter tilesEmpty;
    private final Counter tilesSkipped;
    private final Counter tilesUnchanged;
    private final Counter tilesDeleted;
    private final Counter tilesFailed;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Counter deliveries;
    private final Counter redeliveries;
    private final Counter lockContended;
    private final Counter storeErrors;

    public WorkerMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (Stage stage : Stage.values()) {
            stages.put(stage, Timer.builder("seeder.worker.stage").tag("stage", lower(stage))
                    .description("Time a metatile spent in each stage of the pipeline")
                    .serviceLevelObjectives(STAGE_BUCKETS).register(registry));
        }
        FunctionCounter.builder("seeder.metatiles.rendered", stages.get(Stage.RENDER), Timer::count)
                .description("Metatiles rendered").register(registry);
        tilesWritten = tiles("written");
        tilesEmpty = tiles("empty");
        tilesSkipped = tiles("skipped");
        tilesUnchanged = tiles("unchanged");
        tilesDeleted = tiles("deleted");
        tilesFailed = tiles("failed");
        Gauge.builder("seeder.tasks.in.flight", inFlight, AtomicInteger::get).strongReference(true)
                .description("Tasks taken from the queue without a verdict yet").register(registry);
        for (TaskOutcome outcome : TaskOutcome.values()) {
            tasks.put(outcome, Counter.builder("seeder.tasks").tag("outcome", lower(outcome))
                    .description("Task verdicts: succeeded (accepted), released (to be tried again), failed "
                            + "(recorded FAILED), dropped (its job final or unknown: accepted, nothing written)")
                    .register(registry));
        }
        deliveries = Counter.builder("seeder.task.deliveries").description("Tasks taken from the queue")
                .register(registry);
        redeliveries = Counter.builder("seeder.task.redeliveries")
                .description("Tasks taken from the queue that had been delivered before").register(registry);
        lockContended = Counter.builder("seeder.lock.contended")
                .description("Tasks released because someone else held their metatile's lock").register(registry);
        storeErrors = Counter.builder("seeder.store.errors")
                .description("Store operations that failed after their retries").register(registry);
    }

    /** Meters on a registry of their own, for a pipeline nobody scrapes (tests, benchmarks). */
    public static WorkerMetrics unregistered() {
        return new WorkerMetrics(new SimpleMeterRegistry());
    }

    private Counter tiles(String outcome) {
        return Counter.builder("seeder.tiles").tag("outcome", outcome)
                .description("Tiles by outcome: written, empty (by the layer's policy), skipped (already there; "
                        + "fresh enough for a reseed; not there for a truncate), unchanged (reseeded to the bytes "
                        + "stored), deleted (by a truncate, or by a reseed: stored tiles that became empty), "
                        + "failed (of tasks recorded FAILED)").register(registry);
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /** Counts the store's retried requests ({@code seeder_store_retries_total}; 0 for a store that never retries). */
    public WorkerMetrics watchStoreRetries(LongSupplier retries) {
        FunctionCounter.builder("seeder.store.retries", retries, LongSupplier::getAsLong)
                .description("Store requests sent again after a failure worth retrying").register(registry);
        return this;
    }

    /**
     * Counts the requests (GetMaps, tiles) to each upstream the layers name, the failed ones, those in flight, and
     * the time spent waiting to send them.
     */
    public WorkerMetrics watch(LayerCatalogConfig layers, WmsClient wms) {
        layers.layers().stream().map(layer -> layer.source()).filter(HttpSource.class::isInstance)
                .map(source -> ((HttpSource) source).upstream()).distinct().forEach(upstream -> {
                    FunctionCounter.builder("seeder.upstream.requests", wms, client -> client.requests(upstream))
                            .tag("upstream", upstream).description("Requests answered by an upstream (a WMS GetMap, a tile server tile)")
                            .register(registry);
                    FunctionCounter.builder("seeder.upstream.errors", wms, client -> client.failures(upstream))
                            .tag("upstream", upstream)
                            .description("Tries of an upstream that failed (error status, no image, I/O error, timeout)")
                            .register(registry);
                    Gauge.builder("seeder.upstream.in.flight", wms, client -> client.inFlight(upstream))
                            .tag("upstream", upstream)
                            .description("Requests of this pod on the wire to an upstream now, each with a permit "
                                    + "of the cluster's limit")
                            .register(registry);
                    Gauge.builder("seeder.upstream.window", wms, client -> client.window(upstream))
                            .tag("upstream", upstream)
                            .description("Requests this pod may send to an upstream at once now: its adaptive "
                                    + "window (at most the per-pod limit and the cluster's), or the per-pod limit")
                            .register(registry);
                    Gauge.builder("seeder.upstream.latency.seconds", wms, client -> client.latencySeconds(upstream))
                            .tag("upstream", upstream)
                            .description("An upstream's recent latency as this pod sees it, averaged over about "
                                    + "fifty answers")
                            .register(registry);
                    FunctionCounter.builder("seeder.upstream.permit.wait.seconds", wms,
                                    client -> client.waitSeconds(upstream))
                            .tag("upstream", upstream)
                            .description("Time spent waiting for a place among the requests in flight to an "
                                    + "upstream: this pod's own limit, then the cluster's")
                            .register(registry);
                });
        return this;
    }

    /**
     * Reports how many tasks {@code stage} holds (waiting for one of its threads, or at work) and how many it
     * may hold at most. A second pipeline on the same registry does not add to these gauges: the first one
     * registered is reported.
     */
    void watch(PipelineStage stage, int capacity, IntSupplier held) {
        Gauge.builder("seeder.worker.stage.queue", held, IntSupplier::getAsInt).tag("stage", stage.tag())
                .strongReference(true)
                .description("Tasks a stage of the worker pipeline holds: waiting for one of its threads or at work")
                .register(registry);
        Gauge.builder("seeder.worker.stage.capacity", () -> capacity).tag("stage", stage.tag())
                .description("Tasks a stage of the worker pipeline may hold at most").register(registry);
    }

    void stage(Stage stage, long nanos) {
        stages.get(stage).record(nanos, TimeUnit.NANOSECONDS);
    }

    void delivered(int deliveryCount) {
        deliveries.increment();
        if (deliveryCount > 1) {
            redeliveries.increment();
        }
        inFlight.incrementAndGet();
    }

    void verdict(TaskOutcome outcome) {
        inFlight.decrementAndGet();
        tasks.get(outcome).increment();
    }

    /** A task of a job that is final or unknown, accepted with nothing written. */
    void dropped() {
        verdict(TaskOutcome.DROPPED);
    }

    void tiles(TileCounts counts) {
        tilesWritten.increment(counts.written());
        tilesEmpty.increment(counts.empty());
        tilesSkipped.increment(counts.skipped());
        tilesUnchanged.increment(counts.unchanged());
        tilesDeleted.increment(counts.deleted());
        tilesFailed.increment(counts.failed());
    }

    void lockContended() {
        lockContended.increment();
    }

    void storeError() {
        storeErrors.increment();
    }

    /** Time spent in the stage, summed over threads. */
    public long nanos(Stage stage) {
        return (long) stages.get(stage).totalTime(TimeUnit.NANOSECONDS);
    }

    /**
     * Seconds per stage, in stage order, of the pipeline recording into {@code registry} (0 for a stage it has not
     * timed yet): how a caller that holds only the registry, such as a benchmark of a whole engine, reads them.
     */
    public static Map<Stage, Double> seconds(MeterRegistry registry) {
        Map<Stage, Double> seconds = new EnumMap<>(Stage.class);
        for (Stage stage : Stage.values()) {
            Timer timer = registry.find("seeder.worker.stage").tag("stage", lower(stage)).timer();
            seconds.put(stage, timer == null ? 0.0 : timer.totalTime(TimeUnit.SECONDS));
        }
        return seconds;
    }
}
