package io.tileseeder.coordinator.job;

import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobSpecValidator;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.Mode;
import io.tileseeder.job.PlannedMetatile;
import io.tileseeder.job.MetatilePlan;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.message.TaskResult;
import io.tileseeder.port.JobStore;
import io.tileseeder.port.ResultSink;
import io.tileseeder.port.TaskQueue;
import io.tileseeder.port.TileStore;
import io.tileseeder.worker.store.TileJson;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * The coordinator's core: takes jobs, plans them into metatile tasks, records results and finishes each job
 * exactly once, when planning is done and every planned task has a result. Only then is the job event
 * emitted and are waiters released, so "finished" always means every tile is stored.
 */
public final class JobService implements ResultSink, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(JobService.class.getName());
    /** Planned-task counts are written to the store every this many tasks (and at the end). */
    private static final int PROGRESS_EVERY = 256;
    /** How often a planner waiting on a full queue checks whether its job was cancelled. */
    private static final Duration OFFER_WAIT = Duration.ofMillis(200);

    private final LayerCatalog layers;
    private final JobSpecValidator validator;
    private final JobStore store;
    private final TaskQueue queue;
    private final TileStore tiles;
    private final Clock clock;
    private final int maxRunningJobs;
    private final int maxWaiters;
    private final ThreadPoolExecutor planners;
    /** Each waiting client's own future, per job; a client that times out removes its own. */
    private final ConcurrentMap<String, Set<CompletableFuture<JobStatus>>> waiting = new ConcurrentHashMap<>();
    private final AtomicInteger waiters = new AtomicInteger();

    public JobService(LayerCatalog layers, JobSpecValidator validator, JobStore store, TaskQueue queue,
                      TileStore tiles, Clock clock, int maxRunningJobs, int maxWaiters) {
        this.layers = layers;
        this.validator = validator;
        this.store = store;
        this.queue = queue;
        this.tiles = tiles;
        this.clock = clock;
        this.maxRunningJobs = maxRunningJobs;
        this.maxWaiters = maxWaiters;
        AtomicInteger n = new AtomicInteger();
        this.planners = new ThreadPoolExecutor(maxRunningJobs, maxRunningJobs, 1, TimeUnit.MINUTES,
                new ArrayBlockingQueue<>(maxRunningJobs), r -> {
                    Thread thread = new Thread(r, "seeder-planner-" + n.getAndIncrement());
                    thread.setDaemon(true);
                    return thread;
                });
        this.planners.allowCoreThreadTimeOut(true);
    }

    public LayerCatalog layers() {
        return layers;
    }

    /**
     * Validates and starts a job. With an idempotency key already used, returns that job instead.
     *
     * @throws io.tileseeder.job.InvalidJobException naming what is wrong
     * @throws TooManyJobsException                  when {@code maxRunningJobs} jobs are running already
     */
    public synchronized JobStatus submit(JobRequest request, String idempotencyKey) {
        if (idempotencyKey != null) {
            Optional<JobStatus> existing = store.findByIdempotencyKey(idempotencyKey);
            if (existing.isPresent()) {
                return existing.get();
            }
        }
        JobSpec spec = validator.validate(request);
        long running = store.list(Integer.MAX_VALUE).stream().filter(job -> !job.state().isFinal()).count();
        if (running >= maxRunningJobs) {
            throw new TooManyJobsException(running + " jobs are running, the limit is " + maxRunningJobs
                    + "; wait for one to finish or cancel one");
        }
        JobStatus job = store.create(JobStatus.submitted(UUID.randomUUID().toString(), spec, spec.tileCount(),
                clock.instant(), idempotencyKey));
        try {
            planners.execute(() -> plan(job.id(), spec));
        } catch (RejectedExecutionException e) {
            // Planners of cancelled jobs still winding down hold every slot: refuse rather than orphan the job.
            store.finish(job.id(), JobState.FAILED, "refused: every planner is busy").ifPresent(this::finished);
            throw new TooManyJobsException("every planner is busy (" + maxRunningJobs + "); try again shortly");
        }
        return job;
    }

    public Optional<JobStatus> get(String id) {
        return store.get(id);
    }

    public List<JobStatus> list(int limit) {
        return store.list(limit);
    }

    /** Cancels a job that has not finished: planning stops and workers drop its remaining tasks. */
    public Optional<JobStatus> cancel(String id) {
        Optional<JobStatus> job = store.get(id);
        if (job.isEmpty()) {
            return Optional.empty();
        }
        store.finish(id, JobState.CANCELLED, "cancelled").ifPresent(this::finished);
        return store.get(id);
    }

    public boolean isCancelled(String jobId) {
        return store.get(jobId).map(job -> job.state() == JobState.CANCELLED).orElse(true);
    }

    /**
     * The job once it is final, or as it is when {@code timeout} runs out, whichever comes first.
     *
     * @throws TooManyJobsException when {@code maxWaiters} clients are waiting already
     */
    public Optional<CompletableFuture<JobStatus>> awaitFinal(String id, Duration timeout) {
        Optional<JobStatus> job = store.get(id);
        if (job.isEmpty()) {
            return Optional.empty();
        }
        if (job.get().state().isFinal() || timeout.isZero()) {
            return Optional.of(CompletableFuture.completedFuture(job.get()));
        }
        if (waiters.incrementAndGet() > maxWaiters) {
            waiters.decrementAndGet();
            throw new TooManyJobsException(maxWaiters + " clients are waiting on jobs already, the limit");
        }
        CompletableFuture<JobStatus> mine = new CompletableFuture<>();
        Set<CompletableFuture<JobStatus>> forJob = waiting.computeIfAbsent(id, key -> ConcurrentHashMap.newKeySet());
        forJob.add(mine);
        // The job may have become final before this waiter was registered.
        store.get(id).filter(current -> current.state().isFinal()).ifPresent(this::release);
        return Optional.of(mine
                .completeOnTimeout(null, timeout.toNanos(), TimeUnit.NANOSECONDS)
                .whenComplete((ignored, error) -> {
                    forJob.remove(mine);
                    waiters.decrementAndGet();
                })
                .thenApply(finalJob -> finalJob != null ? finalJob : store.get(id).orElseThrow()));
    }

    /** Records a worker's result; finishes the job if it was the last one. */
    @Override
    public void publish(TaskResult result) {
        if (store.record(result)) {
            finishIfDone(result.jobId());
        }
    }

    private void plan(String jobId, JobSpec spec) {
        try {
            long planned = 0;
            for (PlannedMetatile task : new MetatilePlan(spec)) {
                MetatileTask message = MetatileTask.of(jobId, task.seq(), spec.layer(), spec.format(), spec.mode(),
                        task.metatile(), task.tiles(), spec.refreshBefore());
                do {
                    if (isCancelled(jobId)) {
                        return;
                    }
                } while (!queue.offer(message, OFFER_WAIT));
                if (++planned % PROGRESS_EVERY == 0) {
                    store.planned(jobId, planned, false);
                }
            }
            store.planned(jobId, planned, true);
            finishIfDone(jobId);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            store.finish(jobId, JobState.FAILED, "planning was interrupted (shutdown)").ifPresent(this::finished);
        } catch (RuntimeException e) {
            store.finish(jobId, JobState.FAILED, "planning failed: " + e.getMessage()).ifPresent(this::finished);
        }
    }

    /**
     * Describes the seeded tiles with a TileJSON document beside them, before the job is reported done, so
     * a client that sees the job succeed finds the document too.
     */
    private Optional<String> writeTileJson(JobSpec spec) {
        Optional<LayerInfo> layer = layers.find(spec.layer());
        if (spec.mode() == Mode.TRUNCATE || layer.isEmpty()) {
            return Optional.empty();
        }
        try {
            tiles.writeMetadata(spec.layer(), spec.tileMatrixSet(), TileJson.fileName(spec.format()),
                    TileJson.document(layer.get(), spec.tileMatrixSet(), spec.format()), "application/json");
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("cannot write the TileJSON document to " + tiles.describe() + ": " + e.getMessage());
        }
    }

    private void finishIfDone(String jobId) {
        store.get(jobId).filter(job -> !job.state().isFinal() && job.allTasksDone()).ifPresent(job -> {
            if (job.tasksFailed() > 0) {
                String first = job.failedTasks().entrySet().stream().sorted(Map.Entry.comparingByKey())
                        .map(e -> "task " + e.getKey() + ": " + e.getValue()).findFirst().orElse("");
                store.finish(jobId, JobState.FAILED, job.tasksFailed() + " of " + job.tasksPlanned()
                        + " tasks failed; first: " + first).ifPresent(this::finished);
                return;
            }
            Optional<String> metadataError = writeTileJson(job.spec());
            store.finish(jobId, metadataError.isPresent() ? JobState.FAILED : JobState.SUCCEEDED,
                    metadataError.orElse(null)).ifPresent(this::finished);
        });
    }

    private void finished(JobStatus job) {
        LOG.info(() -> "job " + job.id() + " " + job.state() + (job.reason() == null ? "" : ": " + job.reason()));
        release(job);
    }

    private void release(JobStatus job) {
        Set<CompletableFuture<JobStatus>> forJob = waiting.remove(job.id());
        if (forJob != null) {
            forJob.forEach(waiter -> waiter.complete(job));
        }
    }

    @Override
    public void close() {
        planners.shutdownNow();
    }
}
