package io.tileseeder.coordinator.job;

import io.micrometer.core.instrument.MeterRegistry;
import io.tileseeder.job.IdempotencyConflictException;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.job.TooManyJobsException;
import io.tileseeder.job.UnknownJobException;
import io.tileseeder.message.TaskResult;
import io.tileseeder.outage.Outages;
import io.tileseeder.plan.JobSpecValidator;
import io.tileseeder.port.JobEventSink;
import io.tileseeder.port.JobGate;
import io.tileseeder.port.JobStore;
import io.tileseeder.port.MetatileLock;
import io.tileseeder.port.ResultSink;
import io.tileseeder.port.TaskQueue;
import io.tileseeder.port.TileStore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The coordinator's job lifecycle, as the application sees it: takes jobs, plans them into metatile tasks, records
 * results and finishes each job exactly once, when planning is done and every planned task has a result. Only then
 * is the job event emitted and are waiters released, so "finished" always means every tile is stored.
 *
 * <p>A thin front over parts that each own one concern and say which thread runs them: {@link Admission} (request
 * threads), {@link Planner} (its own planner pool) with {@link Shares} (how far ahead each job may queue),
 * {@link ResultsRecorder} (the threads delivering results), {@link Finisher} (whichever of those completed the job),
 * {@link Waiters} (long-polls), and {@link Recovery}, {@link Outbox} and {@link JobQueue} on the one
 * {@link Housekeeping} thread ({@link JobQueue} also on request threads).
 *
 * <p>Any number of replicas may share one {@link JobStore}. Planning a job is guarded by a lock per job, and a
 * planner records how far it got only after the queue has the tasks ({@link TaskQueue#flush}); a sweep at start
 * and every {@code recoverEvery} resumes jobs whose planner is gone (a coordinator restarted mid-plan) and
 * finishes jobs whose last result was recorded by a replica that died before finishing them. Job events are
 * sent from the store's outbox, so an event whose sending was cut short is sent again.
 */
public final class JobService implements ResultSink, AutoCloseable {

    private final LayerCatalog layers;
    private final JobSpecValidator validator;
    private final JobStore store;
    private final Outages outages;
    private final Waiters waiters;
    private final Finisher finisher;
    private final Planner planner;
    private final JobQueue queue;
    private final Admission admission;
    private final ResultsRecorder recorder;
    private final Recovery recovery;
    private final AtomicBoolean startPending = new AtomicBoolean();
    private volatile Housekeeping housekeeping;

    /**
     * @param events    where finished jobs are announced
     * @param planLocks one lock per job being planned, shared by the replicas
     * @param gate      the workers' job gate: a job's final event waits until none of its passes is open
     * @param outages   the outage policy: how long planning waits for an unavailable dependency
     * @param settings  the limits and the recovery period
     * @param registry  where the job meters go ({@code seeder_jobs} and the others of {@link JobMetrics})
     */
    public JobService(LayerCatalog layers, JobSpecValidator validator, JobStore store, TaskQueue queue,
                      TileStore tiles, JobEventSink events, MetatileLock planLocks, JobGate gate, Outages outages,
                      Clock clock, CoordinatorSettings settings, MeterRegistry registry) {
        this.layers = layers;
        this.validator = validator;
        this.store = store;
        this.outages = outages;
        JobMetrics metrics = new JobMetrics(registry, store);
        this.waiters = new Waiters(store, this::get, gate, settings.maxWaiters());
        this.finisher = new Finisher(store, layers, tiles, gate, outages, metrics, waiters, this::placeFreed);
        Shares shares = new Shares(store, settings.queueLead(), settings.minAhead(), settings.maxAhead(),
                System::nanoTime);
        this.planner = new Planner(store, queue, planLocks, outages, finisher, settings.maxRunningJobs(), shares,
                validator.plans());
        this.queue = new JobQueue(store, planLocks, planner, metrics, settings.maxRunningJobs());
        this.admission = new Admission(validator, store, clock, settings.maxRunningJobs(), settings.maxQueuedJobs(),
                metrics, planner, this.queue);
        this.recorder = new ResultsRecorder(store, metrics, finisher);
        Outbox outbox = new Outbox(store, gate, events, clock, tiles.layout());
        this.recovery = new Recovery(store, metrics, planner, finisher, this.queue);
        this.housekeeping = new Housekeeping(outages, settings.recoverEvery(), recovery, () -> {
                    waiters.releaseSettled();
                    outbox.sendPending();
                });
    }

    /**
     * A job became final: queued jobs are started on the housekeeping thread (not on the thread that finished the
     * job, which may hold a planning lock or be recording results), once for any number of jobs finished meanwhile.
     * Before the housekeeping thread exists the recovery it starts with does it.
     */
    private void placeFreed() {
        Housekeeping running = housekeeping;
        if (running != null && startPending.compareAndSet(false, true)) {
            running.soon("starting queued jobs", () -> {
                startPending.set(false);
                queue.startWhatFits();
            });
        }
    }

    public LayerCatalog layers() {
        return layers;
    }

    /**
     * Validates and starts a job. With an idempotency key already used for the same job, returns that job instead.
     *
     * @throws io.tileseeder.job.InvalidJobException naming what is wrong
     * @throws IdempotencyConflictException          when the key was used for a different job
     * @throws TooManyJobsException                  when {@code maxRunningJobs} jobs are running and
     *                                               {@code maxQueuedJobs} queued already
     */
    public JobStatus submit(JobRequest request, String idempotencyKey) {
        JobStatus job = admission.submit(request, idempotencyKey);
        if (!job.state().isFinal()) {
            recovery.watch(job);
        }
        return job;
    }

    /**
     * The job as it would run, checked as a submission is, without submitting it (a dry run).
     *
     * @throws io.tileseeder.job.InvalidJobException naming what is wrong
     */
    public JobSpec check(JobRequest request) {
        return validator.validate(request);
    }

    /** The job; one whose record the store lost while this replica knew it unfinished is recorded LOST first. */
    public Optional<JobStatus> get(String id) {
        return store.get(id).or(() -> recovery.recordIfLost(id));
    }

    public List<JobStatus> list(int limit) {
        return store.list(limit);
    }

    /** Each queued job's place in the queue, 1 for the next to start: read from the store, so only when needed. */
    public Map<String, Integer> queuePositions() {
        return JobQueue.positions(store.unfinished());
    }

    /** Cancels a job that has not finished: planning stops and workers drop its remaining tasks. */
    public Optional<JobStatus> cancel(String id) {
        if (get(id).isEmpty()) {
            return Optional.empty();
        }
        finisher.finish(id, JobState.CANCELLED, "cancelled");
        return store.get(id);
    }

    /** Which of the service's periodic loops stopped (an error escaped one): each must run until closed. */
    public List<String> deadLoops() {
        return housekeeping.deadLoops();
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
        return waiters.awaitFinal(id, timeout);
    }

    /** Records a worker's result; finishes the job if it was the last one. */
    @Override
    public void publish(TaskResult result) {
        recorder.record(result);
    }

    /**
     * Records a batch of results (each once) and finishes the jobs they completed. Returns once all of them
     * are recorded, so a caller may then commit their offsets.
     */
    public void publishAll(List<TaskResult> results) {
        recorder.recordAll(results);
    }

    @Override
    public void close() {
        housekeeping.close();
        planner.close();
    }
}
