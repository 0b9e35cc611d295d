package io.tileseeder.coordinator.job;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.message.TaskResult;
import io.tileseeder.plan.MetatilePlan;
import io.tileseeder.port.JobStore;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The coordinator's meters. Names as Prometheus scrapes them: {@code seeder_jobs{state}},
 * {@code seeder_jobs_finished_total{state}}, {@code seeder_job_progress_ratio{job_id,layer}},
 * {@code seeder_job_tiles_done{job_id,layer}}, {@code seeder_job_tiles_planned{job_id,layer}},
 * {@code seeder_tasks_backlog}, {@code seeder_tasks_remaining} and {@code seeder_task_results_total{outcome}}.
 *
 * <p>The gauges read a snapshot of the store taken at most once a {@link #FRESH_NANOS second}, when they are
 * scraped: the unfinished jobs (at most {@code seeder.limits.max-running-jobs} and the queued ones) and the count of
 * jobs by state.
 * A job's own gauges exist only while it is planned or running: {@link #track} adds them and {@link #ended} removes
 * them, so labels stay bounded by the running jobs.
 */
final class JobMetrics {

    private static final Logger LOG = Logger.getLogger(JobMetrics.class.getName());
    private static final long FRESH_NANOS = 1_000_000_000L;
    /** Jobs remembered as ended, so that a stale list of unfinished jobs does not bring their gauges back. */
    private static final int ENDED_KEPT = 1024;

    private record Snapshot(long at, Map<String, JobStatus> unfinished, Map<JobState, Long> byState) {
    }

    private final MeterRegistry registry;
    private final JobStore store;
    private final Map<JobState, Counter> finished = new EnumMap<>(JobState.class);
    private final Counter resultsSucceeded;
    private final Counter resultsFailed;
    /** The meters of each job being tracked. */
    private final Map<String, List<Meter>> jobs = new HashMap<>();
    private final Set<String> ended = Collections.newSetFromMap(new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > ENDED_KEPT;
        }
    });
    /** Guards {@link #snapshot} alone: a scrape reads it while the job gauges are added or removed. */
    private final Object snapshotLock = new Object();
    private Snapshot snapshot;
    /** Task counts of the unfinished jobs, by id. */
    private final Map<String, Long> taskCounts = new HashMap<>();

    JobMetrics(MeterRegistry registry, JobStore store) {
        this.registry = registry;
        this.store = store;
        for (JobState state : JobState.values()) {
            Gauge.builder("seeder.jobs", this, m -> m.snapshot().byState().getOrDefault(state, 0L))
                    .tag("state", lower(state)).strongReference(true)
                    .description("Jobs the store knows, by state").register(registry);
            if (state.isFinal()) {
                finished.put(state, Counter.builder("seeder.jobs.finished").tag("state", lower(state))
                        .description("Jobs this coordinator finished, by final state").register(registry));
            }
        }
        Gauge.builder("seeder.tasks.backlog", this, m -> m.snapshot().unfinished().values().stream()
                        .mapToLong(job -> job.tasksPlanned() - job.tasksDone()).sum())
                .strongReference(true)
                .description("Tasks planned without a result yet, over all unfinished jobs").register(registry);
        Gauge.builder("seeder.tasks.remaining", this, JobMetrics::tasksRemaining)
                .strongReference(true)
                .description("Tasks without a result yet, planned or not, over all unfinished jobs, queued ones "
                        + "included: the work left").register(registry);
        resultsSucceeded = results("succeeded");
        resultsFailed = results("failed");
    }

    /**
     * The tasks without a result of the unfinished jobs. A job's task count is kept by its id: one over an area is
     * counted down its quadtree, which a scrape should not redo for every queued job.
     */
    private double tasksRemaining() {
        Map<String, JobStatus> unfinished = snapshot().unfinished();
        synchronized (taskCounts) {
            taskCounts.keySet().retainAll(unfinished.keySet());
            return unfinished.values().stream().mapToLong(job -> Math.max(0, taskCounts.computeIfAbsent(job.id(),
                    id -> MetatilePlan.of(job.spec()).taskCount()) - job.tasksDone())).sum();
        }
    }

    private Counter results(String outcome) {
        return Counter.builder("seeder.task.results").tag("outcome", outcome)
                .description("Task results the coordinator recorded").register(registry);
    }

    private static String lower(JobState state) {
        return state.name().toLowerCase(Locale.ROOT);
    }

    /** Counts results as they are handed in for recording. */
    void received(Collection<TaskResult> results) {
        for (TaskResult result : results) {
            (result.succeeded() ? resultsSucceeded : resultsFailed).increment();
        }
    }

    /** Adds the gauges of a job planning or running, unless it has them or has ended. */
    synchronized void track(JobStatus job) {
        if (job.state().isFinal() || job.state() == JobState.QUEUED || jobs.containsKey(job.id())
                || ended.contains(job.id())) {
            return;
        }
        String id = job.id();
        Tags tags = Tags.of("job_id", id, "layer", job.spec().layer());
        jobs.put(id, List.of(
                jobGauge("seeder.job.progress.ratio", tags, id, "Share of the job's tiles done, 0 to 1",
                        j -> j.tilesPlanned() == 0 ? 1 : Math.min(1, (double) j.counts().tiles() / j.tilesPlanned())),
                jobGauge("seeder.job.tiles.done", tags, id, "Tiles of the job done, whatever their outcome",
                        j -> j.counts().tiles()),
                jobGauge("seeder.job.tiles.planned", tags, id, "Tiles the job covers", JobStatus::tilesPlanned)));
    }

    private Meter jobGauge(String name, Tags tags, String id, String description, ToDoubleFunction<JobStatus> value) {
        return Gauge.builder(name, this, m -> {
            JobStatus job = m.snapshot().unfinished().get(id);
            return job == null ? Double.NaN : value.applyAsDouble(job);
        }).tags(tags).strongReference(true).description(description).register(registry);
    }

    /** Removes the gauges of jobs tracked but no longer unfinished (finished by another replica). */
    synchronized void retain(Collection<JobStatus> unfinished) {
        Set<String> ids = new HashSet<>();
        unfinished.forEach(job -> ids.add(job.id()));
        List.copyOf(jobs.keySet()).stream().filter(id -> !ids.contains(id)).forEach(this::untrack);
    }

    /** A job this coordinator made final: counted, and its gauges removed. */
    synchronized void ended(JobStatus job) {
        Counter counter = finished.get(job.state());
        if (counter != null) {
            counter.increment();
        }
        ended.add(job.id());
        untrack(job.id());
    }

    private void untrack(String id) {
        List<Meter> meters = jobs.remove(id);
        if (meters != null) {
            meters.forEach(registry::remove);
        }
    }

    /** The store as it was at most a second ago; the last one if the store cannot be read now. */
    private Snapshot snapshot() {
        synchronized (snapshotLock) {
            long now = System.nanoTime();
            if (snapshot == null || now - snapshot.at() >= FRESH_NANOS) {
                try {
                    Map<String, JobStatus> unfinished = new HashMap<>();
                    store.unfinished().forEach(job -> unfinished.put(job.id(), job));
                    snapshot = new Snapshot(now, unfinished, store.countByState());
                } catch (RuntimeException e) {
                    LOG.log(Level.FINE, "cannot read the jobs for the metrics; showing the last ones", e);
                    if (snapshot == null) {
                        return new Snapshot(now, Map.of(), Map.of());
                    }
                }
            }
            return snapshot;
        }
    }
}
