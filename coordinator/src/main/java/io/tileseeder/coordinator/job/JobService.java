package io.tileseeder.coordinator.job;

import io.micrometer.core.instrument.MeterRegistry;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobSpecValidator;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.MetatilePlan;
import io.tileseeder.job.Mode;
import io.tileseeder.job.PlannedMetatile;
import io.tileseeder.message.JobEvent;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.message.TaskResult;
import io.tileseeder.outage.Outages;
import io.tileseeder.port.DependencyUnavailableException;
import io.tileseeder.port.JobEventSink;
import io.tileseeder.port.JobGate;
import io.tileseeder.port.JobStore;
import io.tileseeder.port.MetatileLock;
import io.tileseeder.port.ResultSink;
import io.tileseeder.port.StoreUnavailableException;
import io.tileseeder.port.TaskQueue;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
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
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The coordinator's core: takes jobs, plans them into metatile tasks, records results and finishes each job
 * exactly once, when planning is done and every planned task has a result. Only then is the job event
 * emitted and are waiters released, so "finished" always means every tile is stored.
 *
 * <p>Any number of replicas may share one {@link JobStore}. Planning a job is guarded by a lock per job, and a
 * planner records how far it got only after the queue has the tasks ({@link TaskQueue#flush}); a sweep at start
 * and every {@code recoverEvery} resumes jobs whose planner is gone (a coordinator restarted mid-plan) and
 * finishes jobs whose last result was recorded by a replica that died before finishing them. Job events are
 * sent from the store's outbox, so an event whose sending was cut short is sent again.
 */
public final class JobService implements ResultSink, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(JobService.class.getName());
    /**
     * The planner flushes the queue and records its cursor every this many tasks (and at the end); a planner
     * that dies re-plans at most this many tasks, which is harmless (locks and the result bitmap).
     */
    private static final int PROGRESS_EVERY = 16384;
    /** How often a planner waiting on a full queue checks whether its job was cancelled. */
    private static final Duration OFFER_WAIT = Duration.ofMillis(200);
    /** How often waiters are checked against the store (a job may finish on another replica). */
    private static final Duration SWEEP_EVERY = Duration.ofMillis(250);

    private final LayerCatalog layers;
    private final JobSpecValidator validator;
    private final JobStore store;
    private final TaskQueue queue;
    private final TileStore tiles;
    private final JobEventSink events;
    private final MetatileLock planLocks;
    private final JobGate gate;
    private final Outages outages;
    private final Clock clock;
    private final int maxRunningJobs;
    private final int maxWaiters;
    private final int maxAhead;
    private final ThreadPoolExecutor planners;
    /** Jobs this replica is planning, so a sweep does not start a second planner for them. */
    private final Set<String> planning = ConcurrentHashMap.newKeySet();
    /** Recovery, event dispatch and waiter checks: one thread, periodic tasks only (events go out within a sweep). */
    private final ScheduledThreadPoolExecutor housekeeping;
    /** Each waiting client's own future, per job; a client that times out removes its own. */
    private final ConcurrentMap<String, Set<CompletableFuture<JobStatus>>> waiting = new ConcurrentHashMap<>();
    private final AtomicInteger waiters = new AtomicInteger();
    private final JobMetrics metrics;
    private volatile boolean closed;
    /** The periodic loops, by what they are called in liveness. */
    private final Map<String, ScheduledFuture<?>> loops;

    /**
     * @param events       where finished jobs are announced
     * @param planLocks    one lock per job being planned, shared by the replicas
     * @param gate         the workers' job gate: a job's final event waits until none of its passes is open
     * @param outages      the outage policy: how long planning waits for an unavailable dependency
     * @param maxAhead     the most tasks of a job queued ahead of its results: the backlog a queue that is not
     *                     bounded itself (Kafka) may hold for one job
     * @param recoverEvery how often to look for jobs to resume or finish (and once at start)
     * @param registry     where the job meters go ({@code seeder_jobs} and the others of {@link JobMetrics})
     */
    public JobService(LayerCatalog layers, JobSpecValidator validator, JobStore store, TaskQueue queue,
                      TileStore tiles, JobEventSink events, MetatileLock planLocks, JobGate gate, Outages outages,
                      Clock clock, int maxRunningJobs,
                      int maxWaiters, int maxAhead, Duration recoverEvery, MeterRegistry registry) {
        this.layers = layers;
        this.validator = validator;
        this.store = store;
        this.queue = queue;
        this.tiles = tiles;
        this.events = events;
        this.planLocks = planLocks;
        this.gate = gate;
        this.outages = outages;
        this.clock = clock;
        this.maxRunningJobs = maxRunningJobs;
        this.maxWaiters = maxWaiters;
        this.maxAhead = maxAhead;
        this.metrics = new JobMetrics(registry, store);
        AtomicInteger n = new AtomicInteger();
        this.planners = new ThreadPoolExecutor(maxRunningJobs, maxRunningJobs, 1, TimeUnit.MINUTES,
                new ArrayBlockingQueue<>(maxRunningJobs), r -> {
                    Thread thread = new Thread(r, "seeder-planner-" + n.getAndIncrement());
                    thread.setDaemon(true);
                    return thread;
                });
        this.planners.allowCoreThreadTimeOut(true);
        this.housekeeping = new ScheduledThreadPoolExecutor(1, r -> {
            Thread thread = new Thread(r, "seeder-housekeeping");
            thread.setDaemon(true);
            return thread;
        });
        this.loops = Map.of(
                "the coordinator's recovery", housekeeping.scheduleWithFixedDelay(guarded("recovery", this::recover),
                        0, recoverEvery.toMillis(), TimeUnit.MILLISECONDS),
                "the coordinator's sweep and outbox", housekeeping.scheduleWithFixedDelay(guarded("sweep", this::sweep),
                        SWEEP_EVERY.toMillis(), SWEEP_EVERY.toMillis(), TimeUnit.MILLISECONDS));
    }

    /**
     * A periodic task that survives its failures: an unavailable dependency is listed as an outage (once, not
     * a stack trace per run) until a run succeeds again; any other failure is logged. Either way the next run
     * tries again.
     */
    private Runnable guarded(String what, Runnable task) {
        Set<String> failing = ConcurrentHashMap.newKeySet();
        return () -> {
            try {
                task.run();
                failing.forEach(outages::up);
                failing.clear();
            } catch (DependencyUnavailableException e) {
                failing.add(e.dependency());
                outages.down(e.dependency(), e.getMessage());
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, what + " failed; will try again", e);
            }
        };
    }

    public LayerCatalog layers() {
        return layers;
    }

    /**
     * Validates and starts a job. With an idempotency key already used for the same job, returns that job instead.
     *
     * @throws io.tileseeder.job.InvalidJobException naming what is wrong
     * @throws IdempotencyConflictException          when the key was used for a different job
     * @throws TooManyJobsException                  when {@code maxRunningJobs} jobs are running already
     */
    public synchronized JobStatus submit(JobRequest request, String idempotencyKey) {
        JobSpec spec = validator.validate(request);
        if (idempotencyKey != null) {
            Optional<JobStatus> existing = store.findByIdempotencyKey(idempotencyKey);
            if (existing.isPresent()) {
                if (!existing.get().spec().equals(spec)) {
                    throw new IdempotencyConflictException(idempotencyKey, existing.get().id());
                }
                return existing.get();
            }
        }
        long running = store.countUnfinished();
        if (running >= maxRunningJobs) {
            throw new TooManyJobsException(running + " jobs are running, the limit is " + maxRunningJobs
                    + "; wait for one to finish or cancel one");
        }
        JobStatus job = store.create(JobStatus.submitted(UUID.randomUUID().toString(), spec, spec.tileCount(),
                clock.instant(), idempotencyKey));
        metrics.track(job);
        planning.add(job.id());
        try {
            planners.execute(() -> plan(job.id()));
        } catch (RejectedExecutionException e) {
            planning.remove(job.id());
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

    /** Which of the service's periodic loops stopped (an error escaped one): each must run until closed. */
    public List<String> deadLoops() {
        if (closed) {
            return List.of();
        }
        return loops.entrySet().stream().filter(loop -> loop.getValue().isDone()).map(Map.Entry::getKey).sorted()
                .toList();
    }

    /** The dependencies this coordinator finds unreachable now, longest first: what unfinished jobs wait for. */
    public List<Outages.Outage> outages() {
        return outages.current();
    }

    /**
     * The job once it is final and no worker writes a tile of it any more (no pass of it is open), or as it is
     * when {@code timeout} runs out, whichever comes first. The future fails
     * with {@link UnknownJobException} when the job leaves the store meanwhile (its record expired or was deleted).
     *
     * @throws TooManyJobsException when {@code maxWaiters} clients are waiting already
     */
    public Optional<CompletableFuture<JobStatus>> awaitFinal(String id, Duration timeout) {
        Optional<JobStatus> job = store.get(id);
        if (job.isEmpty()) {
            return Optional.empty();
        }
        if (timeout.isZero() || settled(job.get())) {
            return Optional.of(CompletableFuture.completedFuture(job.get()));
        }
        if (waiters.incrementAndGet() > maxWaiters) {
            waiters.decrementAndGet();
            throw new TooManyJobsException(maxWaiters + " clients are waiting on jobs already, the limit");
        }
        CompletableFuture<JobStatus> mine = new CompletableFuture<>();
        Set<CompletableFuture<JobStatus>> forJob = waiting.computeIfAbsent(id, key -> ConcurrentHashMap.newKeySet());
        forJob.add(mine);
        // The job may have become final, and its last pass closed, before this waiter was registered.
        store.get(id).filter(this::settled).ifPresent(this::release);
        return Optional.of(mine
                .completeOnTimeout(null, timeout.toNanos(), TimeUnit.NANOSECONDS)
                .whenComplete((ignored, error) -> {
                    forJob.remove(mine);
                    waiters.decrementAndGet();
                })
                .thenApply(finalJob -> finalJob != null ? finalJob
                        : store.get(id).orElseThrow(() -> new UnknownJobException(id))));
    }

    /** Records a worker's result; finishes the job if it was the last one. */
    @Override
    public void publish(TaskResult result) {
        if (store.record(result)) {
            metrics.received(List.of(result));
            finishIfDone(result.jobId());
        }
    }

    /**
     * Records a batch of results (each once) and finishes the jobs they completed. Returns once all of them
     * are recorded, so a caller may then commit their offsets.
     */
    public void publishAll(List<TaskResult> results) {
        Set<String> changed = store.recordAll(results);
        metrics.received(results);
        changed.forEach(this::finishIfDone);
    }

    /**
     * Plans a job from where its record says planning got to, under the job's planning lock; returns at once
     * if another replica holds it or the job needs no planning. An unavailable dependency (Redis, Kafka) pauses
     * planning, which then resumes from the last recorded cursor (a task offered twice is harmless); only an
     * outage longer than the budget fails the job, and if even that cannot be recorded, the recovery sweep
     * resumes the plan later.
     */
    private void plan(String jobId) {
        try {
            Optional<MetatileLock.Lease> lease;
            try {
                lease = planLocks.tryLock("plan/" + jobId, Duration.ZERO);
            } catch (DependencyUnavailableException e) {
                outages.down(e.dependency(), e.getMessage());
                return; // the recovery sweep tries again
            }
            if (lease.isEmpty()) {
                return;
            }
            try (MetatileLock.Lease held = lease.get()) {
                outages.patiently(() -> {
                    Optional<JobStatus> job = store.get(jobId).filter(j -> !j.state().isFinal() && !j.planningDone());
                    if (job.isPresent()) {
                        planFrom(job.get());
                    }
                    return job;
                }, () -> LOG.info(() -> "planning job " + jobId + " waits for " + outages.current()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            // Shutting down: the tasks queued so far stay recorded, and a coordinator that starts resumes the plan.
        } catch (DependencyUnavailableException e) {
            failPlan(jobId, "planning stopped: " + e.dependency() + " was unavailable for longer than the outage "
                    + "budget of " + outages.budget() + ": " + e.getMessage());
        } catch (Exception e) {
            LOG.log(Level.WARNING, "planning job " + jobId + " failed", e);
            failPlan(jobId, "planning failed: " + e.getMessage());
        } finally {
            planning.remove(jobId);
        }
    }

    private void failPlan(String jobId, String reason) {
        try {
            store.finish(jobId, JobState.FAILED, reason).ifPresent(this::finished);
        } catch (DependencyUnavailableException e) {
            LOG.warning(() -> "cannot record that job " + jobId + " failed (" + reason + "): " + e.getMessage()
                    + "; the recovery sweep resumes its plan");
        }
    }

    private void planFrom(JobStatus job) throws InterruptedException {
        JobSpec spec = job.spec();
        long planned = job.tasksPlanned();
        if (planned > 0) {
            LOG.info(() -> "resuming the plan of job " + job.id() + " at task " + job.tasksPlanned());
        }
        int chunk = Math.max(1, Math.min(PROGRESS_EVERY, maxAhead / 4));
        Iterator<PlannedMetatile> tasks = new MetatilePlan(spec).from(planned);
        while (tasks.hasNext()) {
            PlannedMetatile task = tasks.next();
            MetatileTask message = MetatileTask.of(job.id(), task.seq(), spec.layer(), spec.format(), spec.mode(),
                    task.metatile(), task.tiles(), spec.refreshBefore());
            while (!queue.offer(message, OFFER_WAIT)) {
                if (isFinal(job.id())) {
                    return;
                }
            }
            if (++planned % chunk == 0) {
                queue.flush();
                store.planned(job.id(), planned, false);
                if (!awaitBacklogBelow(job.id(), planned - maxAhead + chunk)) {
                    return;
                }
            }
        }
        queue.flush();
        store.planned(job.id(), planned, true);
        finishIfDone(job.id());
    }

    /**
     * Waits until the job has at least {@code done} task results, so the planner stays at most
     * {@code maxAhead} tasks ahead of the workers; false if the job became final meanwhile.
     */
    private boolean awaitBacklogBelow(String jobId, long done) throws InterruptedException {
        while (true) {
            Optional<JobStatus> job = store.get(jobId);
            if (job.isEmpty() || job.get().state().isFinal()) {
                return false;
            }
            if (job.get().tasksDone() >= done) {
                return true;
            }
            Thread.sleep(OFFER_WAIT);
        }
    }

    private boolean isFinal(String jobId) {
        return store.get(jobId).map(job -> job.state().isFinal()).orElse(true);
    }

    /**
     * Resumes the plans of unfinished jobs nobody is planning, and finishes jobs whose every task has a result
     * (their finishing replica may have died between the two steps).
     */
    private void recover() {
        List<JobStatus> unfinished = store.unfinished();
        metrics.retain(unfinished);
        for (JobStatus job : unfinished) {
            metrics.track(job);
            if (job.planningDone()) {
                finishIfDone(job.id());
            } else if (planning.add(job.id())) {
                try {
                    planners.execute(() -> plan(job.id()));
                } catch (RejectedExecutionException e) {
                    planning.remove(job.id()); // every planner busy: the next sweep tries again
                }
            }
        }
    }

    /** Releases waiters of jobs that finished elsewhere, and sends the events of the outbox. */
    private void sweep() {
        for (String id : List.copyOf(waiting.keySet())) {
            store.get(id).filter(this::settled).ifPresent(this::release);
        }
        for (String id : store.pendingEvents()) {
            if (gate.passesOpen(id) > 0) {
                continue; // a worker is still writing tiles of the job: its final event waits for them
            }
            Optional<JobStatus> job = store.get(id);
            if (job.isPresent()) {
                try {
                    events.send(event(job.get()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            store.eventSent(id);
        }
    }

    private static JobEvent event(JobStatus job) {
        return new JobEvent(JobEvent.VERSION, job.id(), job.state(), job.finished(), job.counts(), job.tasksFailed(),
                job.failedTasks(), job.reason(), job.spec().labels());
    }

    /**
     * Describes the seeded tiles with a TileJSON document beside them, before the job is reported done, so
     * a client that sees the job succeed finds the document too.
     */
    private Optional<String> writeTileJson(JobSpec spec) throws StoreUnavailableException {
        Optional<LayerInfo> layer = layers.find(spec.layer());
        if (spec.mode() == Mode.TRUNCATE || layer.isEmpty()) {
            return Optional.empty();
        }
        try {
            tiles.writeMetadata(spec.layer(), spec.tileMatrixSet(), TileJson.fileName(spec.format()),
                    TileJson.document(layer.get(), spec.tileMatrixSet(), spec.format()), "application/json");
            return Optional.empty();
        } catch (StoreUnavailableException e) {
            throw e;
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
            Optional<String> metadataError;
            try {
                metadataError = writeTileJson(job.spec());
            } catch (StoreUnavailableException e) {
                // Not the job's fault: it stays RUNNING, and the next recovery sweep finishes it.
                outages.down(Outages.dependencyOf(e), e.getMessage());
                return;
            }
            store.finish(jobId, metadataError.isPresent() ? JobState.FAILED : JobState.SUCCEEDED,
                    metadataError.orElse(null)).ifPresent(this::finished);
        });
    }

    private void finished(JobStatus job) {
        metrics.ended(job);
        LOG.info(() -> "job " + job.id() + " " + job.state() + (job.reason() == null ? "" : ": " + job.reason()));
        try {
            if (settled(job)) {
                release(job);
            }
        } catch (DependencyUnavailableException e) {
            outages.down(e.dependency(), e.getMessage()); // the sweep releases the waiters once it can tell
        }
    }

    /**
     * Whether a job is final and no worker holds a pass of it any more: only then are its waiters released (and
     * its event sent), so whoever gates on the job never acts while a tile of it is still being written.
     */
    private boolean settled(JobStatus job) {
        return job.state().isFinal() && gate.passesOpen(job.id()) == 0;
    }

    private void release(JobStatus job) {
        Set<CompletableFuture<JobStatus>> forJob = waiting.remove(job.id());
        if (forJob != null) {
            forJob.forEach(waiter -> waiter.complete(job));
        }
    }

    @Override
    public void close() {
        closed = true;
        housekeeping.shutdownNow();
        planners.shutdownNow();
    }
}
