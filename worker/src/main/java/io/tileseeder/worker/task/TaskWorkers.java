package io.tileseeder.worker.task;

import io.tileseeder.job.Timeouts;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.message.TaskResult;
import io.tileseeder.message.TileCounts;
import io.tileseeder.outage.Outages;
import io.tileseeder.port.ArchivePacker;
import io.tileseeder.port.JobGate;
import io.tileseeder.port.ResultSink;
import io.tileseeder.port.TaskDelivery;
import io.tileseeder.port.TaskQueue;
import io.tileseeder.worker.task.WorkerMetrics.PipelineStage;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The worker pipeline, as its tasks flow through its named stages, each on threads of its own and bounded:
 * <pre>
 *   fetch (1 thread)          take a task from the queue, enter its job through the gate
 *   prepare ({@code threads})       lock → check what exists → render → cut → encode (CPU)
 *   store ({@code storeThreads})    write every tile durably, release the lock (I/O)
 *   report                    publish the task's result, wait for its acknowledgement, then accept the task
 * </pre>
 * Fetch takes a task only once prepare has room for it and store has room for one more, so a full pipeline
 * stops fetching and holds at most {@code threads + storeThreads} tasks (what a queue must let out at once).
 * Report is no pool of its own: each result is published by the thread that decides the task's verdict (store,
 * or the stage the task failed in), so that no task is held beyond that bound waiting for a reporter. Every
 * stage reports what it holds as {@code seeder_worker_stage_queue{stage}}.
 *
 * <p>Verdicts: the result is published first, then the task accepted. A failure is released for another
 * delivery until the task has been delivered {@code maxDeliveries} times; then its FAILED result is
 * published and it is rejected, so a poison task never blocks the job. A task whose metatile lock is busy is
 * kept, renewed, until the lock is free (each try waits the lock wait): it is not released, so it spends none of
 * the deliveries the queue allows.
 *
 * <p>Final means final: before a task is rendered its job is entered through the {@link JobGate}; a job that is
 * final or unknown drops the task (accepted, nothing rendered or written), and the pass of a job that is not is
 * held until the task's tiles are stored, so the job's final event waits for them.
 *
 * <p>An unreachable dependency (Redis behind the gate or the locks, the store, Kafka for the result, an upstream
 * WMS) is not the task's fault: the thread keeps the task (renewing it) and tries again with backoff, for at most
 * the outage budget ({@link Outages#patiently}), instead of spending the task's deliveries. While a dependency
 * is down every stage fills with waiting tasks, so the worker stops fetching.
 *
 * <p>A fatal failure (an {@link Error}, or an unexpected exception escaping a stage, such as a task queue whose
 * consumer died) stops the whole pipeline: it is logged, every task held is given back, and {@link #failure}
 * and {@link #deadThreads} name it, so liveness fails and the process is restarted rather than left running
 * with a stage missing.
 *
 * <p>{@link #close} drains: no task is taken any more, and the metatiles being rendered or stored are finished
 * and reported for at most {@code drainTimeout}; what is still at work then is interrupted and given back.
 */
public final class TaskWorkers implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(TaskWorkers.class.getName());
    private static final Duration POLL = Duration.ofMillis(200);
    /** How long a prepare thread waits for room in the store stage before it renews its task and waits again. */
    private static final Duration SLOT_WAIT = Duration.ofSeconds(5);
    /** How long {@link #close} waits, after the drain, for interrupted threads to give back their tasks. */
    private static final Duration GIVE_BACK = Duration.ofSeconds(10);

    /** The first fatal failure: the stage, the thread it killed, and what it was. */
    public record Failure(PipelineStage stage, String thread, Throwable cause) {
        @Override
        public String toString() {
            return thread + " (" + stage.tag() + " stage) stopped the pipeline: " + cause;
        }
    }

    private final TaskQueue queue;
    private final ResultSink results;
    private final JobGate gate;
    private final MetatileProcessor processor;
    private final int maxDeliveries;
    private final Outages outages;
    private final Duration drainTimeout;
    private final WorkerMetrics metrics;
    private final AtomicInteger reporting = new AtomicInteger();
    private final AtomicReference<Failure> failure = new AtomicReference<>();
    private final StagePool<StagePool.Held> fetch;
    private final StagePool<Entered> prepare;
    private final StagePool<Encoded> store;
    private volatile boolean running = true;

    /**
     * What a stage holds of one task: its delivery, and what was taken for it. {@link #letGo} releases what was
     * taken (the job's pass, the metatile's lock) and keeps the delivery for its verdict; {@link #giveBack} also
     * gives the delivery back untouched.
     */
    private interface Holding extends StagePool.Held {
        CountedDelivery delivery();

        void letGo();

        @Override
        default void giveBack() {
            letGo();
            delivery().release();
        }
    }

    /** A task taken from the queue, before its job let it in, or after its tiles are stored: only its delivery. */
    private record Taken(CountedDelivery delivery) implements Holding {
        @Override
        public void letGo() {
        }
    }

    /** A task whose job let it in: its delivery and the job's pass, held until its tiles are stored. */
    private record Entered(CountedDelivery delivery, JobGate.Pass pass) implements Holding {
        @Override
        public void letGo() {
            pass.close();
        }
    }

    /** A task whose metatile is encoded and locked, to be stored. */
    private record Encoded(Entered entered, MetatileProcessor.Prepared prepared) implements Holding {
        @Override
        public CountedDelivery delivery() {
            return entered.delivery();
        }

        @Override
        public void letGo() {
            prepared.abandon();
            entered.letGo();
        }
    }

    /** One step of a stage's work on a task; returns what the stage goes on with (never null). */
    private interface Step<T> {
        T run() throws Exception;
    }

    /**
     * @param threads       metatiles rendered and encoded at once (default: 2 × cores)
     * @param storeThreads  metatiles being stored at once
     * @param maxDeliveries how often a failing task is tried before it is recorded FAILED
     * @param gate          lets tasks of jobs that are neither final nor unknown through, and holds back their
     *                      final events while their tiles are being written
     * @param outages       how long a task waits for an unavailable dependency before it counts as failed
     * @param drainTimeout  how long {@link #close} lets the metatiles at work finish before it interrupts them
     */
    public TaskWorkers(TaskQueue queue, MetatileProcessor processor, ResultSink results, JobGate gate,
                       int threads, int storeThreads, int maxDeliveries, Outages outages, Duration drainTimeout) {
        if (threads < 1 || storeThreads < 1 || maxDeliveries < 1) {
            throw new IllegalArgumentException("need at least one thread of each stage and one delivery");
        }
        this.queue = queue;
        this.processor = processor;
        this.results = results;
        this.gate = gate;
        this.maxDeliveries = maxDeliveries;
        this.outages = outages;
        this.drainTimeout = drainTimeout;
        this.metrics = processor.metrics();
        StagePool.Owner owner = new StagePool.Owner() {
            @Override
            public boolean running() {
                return running;
            }

            @Override
            public void failed(PipelineStage stage, Throwable cause) {
                fatal(stage, cause);
            }
        };
        this.store = StagePool.fed(PipelineStage.STORE, storeThreads, this::store, owner);
        this.prepare = StagePool.fed(PipelineStage.PREPARE, threads, this::prepare, owner);
        this.fetch = StagePool.source(PipelineStage.FETCH, this::fetch, owner);
        for (StagePool<?> stage : stages()) {
            metrics.watch(stage.stage(), stage.capacity(), stage::held);
        }
        // Each thread reports the tasks whose verdict it decides.
        metrics.watch(PipelineStage.REPORT, 1 + threads + storeThreads, reporting::get);
        stages().forEach(StagePool::start);
    }

    public int threads() {
        return prepare.capacity();
    }

    /** The fatal failure that stopped the pipeline; empty while it runs (or was only closed). */
    public Optional<Failure> failure() {
        return Optional.ofNullable(failure.get());
    }

    /** The threads that stopped the pipeline, with the reason; empty while it runs or after a plain close. */
    public List<String> deadThreads() {
        return failure().map(f -> List.of(f.toString())).orElse(List.of());
    }

    private List<StagePool<?>> stages() {
        return List.of(fetch, prepare, store);
    }

    /** Tasks the stages hold now. */
    private int held() {
        return stages().stream().mapToInt(StagePool::held).sum();
    }

    /**
     * Stops the whole pipeline for a fatal failure; the first one is kept and logged. A stage that meets an
     * {@link Error} while holding a task calls this before it gives the task back, so the task is not taken
     * again, and then rethrows it, which ends its thread.
     */
    private void fatal(PipelineStage stage, Throwable cause) {
        Failure first = new Failure(stage, Thread.currentThread().getName(), cause);
        if (failure.compareAndSet(null, first)) {
            LOG.log(Level.SEVERE, "the worker pipeline stops: " + first, cause);
            running = false;
            stages().forEach(StagePool::stop);
        }
    }

    // ---- fetch ----------------------------------------------------------------------------------------------

    /** Takes one task, once prepare and store have room, and hands it to prepare if its job lets it in. */
    private void fetch() throws InterruptedException {
        if (!prepare.reserve(POLL)) {
            return;
        }
        boolean handedOver = false;
        try {
            // Checked after prepare has room, that is after the task before was handed to store, if it was.
            if (!store.awaitRoom(POLL)) {
                return;
            }
            Optional<TaskDelivery> taken = running ? queue.poll(POLL) : Optional.empty();
            if (taken.isPresent()) {
                fetch.took();
                try {
                    handedOver = enter(taken.get());
                } finally {
                    fetch.passedOn();
                }
            }
        } finally {
            if (!handedOver) {
                prepare.unreserve();
            }
        }
    }

    /** Enters the task's job; true if handed to prepare, false if it has its verdict. */
    private boolean enter(TaskDelivery taken) throws InterruptedException {
        metrics.delivered(taken.deliveryCount());
        CountedDelivery delivery = new CountedDelivery(taken, metrics);
        if (!running) {
            // Taken while close() began: give it back untouched.
            delivery.release();
            return false;
        }
        Optional<Optional<JobGate.Pass>> entered = guard(PipelineStage.FETCH, new Taken(delivery),
                () -> patiently(delivery, () -> gate.enter(delivery.task().jobId())));
        if (entered.isEmpty()) {
            return false;
        }
        if (entered.get().isEmpty()) {
            // The job is final or unknown: nothing of it is rendered or written any more.
            delivery.drop();
            return false;
        }
        prepare.handOver(new Entered(delivery, entered.get().get()));
        return true;
    }

    // ---- prepare --------------------------------------------------------------------------------------------

    /** Renders and encodes the task's metatile under its pass, then hands it to store. */
    private void prepare(Entered entered) throws InterruptedException {
        CountedDelivery delivery = entered.delivery();
        Optional<Optional<MetatileProcessor.Prepared>> tried = guard(PipelineStage.PREPARE, entered, () -> {
            Optional<MetatileProcessor.Prepared> prepared = patiently(delivery, entered.pass(),
                    () -> processor.prepare(delivery.task()));
            // Its metatile is locked elsewhere: keep the task (renewed) and try the lock again, each try waiting up
            // to the lock wait. Released, it would spend one of the task's max-deliveries and could end FAILED for
            // no fault of its own: a killed worker's locks outlive it by their lease, while Kafka hands its tasks to
            // the others as soon as its connection is gone.
            while (prepared.isEmpty() && running && !entered.pass().jobFinal()) {
                delivery.renew();
                prepared = patiently(delivery, entered.pass(), () -> processor.prepare(delivery.task()));
            }
            return prepared;
        });
        if (tried.isEmpty()) {
            return;
        }
        Optional<MetatileProcessor.Prepared> prepared = tried.get();
        if (prepared.isEmpty() && entered.pass().jobFinal()) {
            entered.letGo();
            delivery.drop(); // its job ended while it waited: nothing of it is rendered or written any more
            return;
        }
        if (prepared.isEmpty()) {
            entered.giveBack(); // closing: give it back untouched
            return;
        }
        Encoded encoded = new Encoded(entered, prepared.get());
        // A full store stage (the store down, every thread waiting for it): keep the task while waiting.
        Optional<Boolean> reserved = guard(PipelineStage.PREPARE, encoded, () -> {
            while (!store.reserve(SLOT_WAIT)) {
                delivery.renew();
            }
            return true;
        });
        if (reserved.isPresent()) {
            store.handOver(encoded);
        }
    }

    // ---- store, then report ---------------------------------------------------------------------------------

    private void store(Encoded encoded) throws InterruptedException {
        CountedDelivery delivery = encoded.delivery();
        JobGate.Pass pass = encoded.entered().pass();
        if (pass.jobFinal()) {
            // The job ended while its metatile was rendered: write nothing of it.
            encoded.letGo();
            delivery.drop();
            return;
        }
        ArchivePacker.Watch watch = new ArchivePacker.Watch() {
            @Override
            public void alive() {
                delivery.renew();
            }

            @Override
            public boolean stopped() {
                return !running || pass.jobFinal();
            }
        };
        Optional<Optional<TileCounts>> tried = guard(PipelineStage.STORE, encoded, () -> {
            try {
                return Optional.of(patiently(delivery, pass, () -> processor.store(encoded.prepared(), watch)));
            } catch (ArchivePacker.Stopped e) {
                return Optional.<TileCounts>empty();
            }
        });
        if (tried.isEmpty()) {
            return;
        }
        if (tried.get().isEmpty()) {
            // A pack stopped: its job ended (nothing of it is written any more), or closing (another worker packs).
            encoded.entered().letGo();
            if (running) {
                delivery.drop();
            } else {
                delivery.release();
            }
            return;
        }
        pass.close(); // every tile of the task is written
        TileCounts counts = tried.get().get();
        guard(PipelineStage.STORE, new Taken(delivery), () -> {
            report(delivery, TaskResult.succeeded(delivery.task(), counts));
            metrics.tiles(counts);
            delivery.accept();
            return counts;
        });
    }

    /**
     * The report stage: publishes the task's result and waits for its acknowledgement, keeping the task (renewed)
     * while the result sink is unavailable. Only once this returns may the task be accepted or rejected.
     */
    private void report(TaskDelivery delivery, TaskResult result) throws Exception {
        reporting.incrementAndGet();
        try {
            patiently(delivery, () -> {
                results.publish(result);
                return result;
            });
        } finally {
            reporting.decrementAndGet();
        }
    }

    /**
     * The one way every stage meets what goes wrong while it works a task: interrupted (closing, or another stage
     * failed), the task is given back untouched and the interruption goes on; an {@link Error} stops the pipeline,
     * the task is given back and the error ends the thread; any other exception is the task's own failure: what was
     * taken for it is let go and the task is released for another try or, after its last, recorded FAILED. Returns
     * what the step returned, or empty once the task has its verdict.
     */
    private <T> Optional<T> guard(PipelineStage stage, Holding holding, Step<T> step) throws InterruptedException {
        try {
            return Optional.of(step.run());
        } catch (InterruptedException e) {
            holding.giveBack();
            throw e;
        } catch (Error e) {
            fatal(stage, e);
            holding.giveBack();
            throw e;
        } catch (Exception e) {
            holding.letGo();
            failed(holding.delivery(), e);
            return Optional.empty();
        }
    }

    /**
     * Runs {@code step} under the outage policy, renewing the task while a dependency is unavailable; while
     * closing, an unavailable dependency is not waited for.
     */
    private <T> T patiently(TaskDelivery delivery, Outages.Step<T> step) throws Exception {
        return outages.patiently(step, delivery::renew, () -> running);
    }

    /** As {@link #patiently(TaskDelivery, Outages.Step)}, and not waiting either once the task's job is final. */
    private <T> T patiently(TaskDelivery delivery, JobGate.Pass pass, Outages.Step<T> step) throws Exception {
        return outages.patiently(step, delivery::renew, () -> running && !pass.jobFinal());
    }

    /**
     * Releases the task for another try, or after the last one records it FAILED. While closing, a failure is
     * the interruption's doing more likely than the task's: the task is given back.
     */
    private void failed(TaskDelivery delivery, Exception e) throws InterruptedException {
        MetatileTask task = delivery.task();
        String reason = describe(e);
        if (!running) {
            LOG.fine(() -> "task " + task.jobId() + "#" + task.seq() + " given back while closing: " + reason);
            delivery.release();
        } else if (delivery.deliveryCount() >= maxDeliveries) {
            // Information, as each try is: the warning is the coordinator's, once per failed job, summing its tasks up.
            LOG.info(() -> "task " + task.jobId() + "#" + task.seq() + " (" + task.metatileKey()
                    + ") failed for good after " + delivery.deliveryCount() + " deliveries: " + reason);
            TileCounts counts = TileCounts.failed(task.tilesToStore().size());
            try {
                report(delivery, TaskResult.failed(task, counts, reason));
            } catch (InterruptedException interrupted) {
                delivery.release();
                throw interrupted;
            } catch (Exception unpublished) {
                // The result cannot be recorded (Kafka away past the budget): the task comes back, nothing lost.
                LOG.warning(() -> "cannot publish the failure of task " + task.jobId() + "#" + task.seq()
                        + "; giving it back: " + describe(unpublished));
                delivery.release();
                return;
            }
            metrics.tiles(counts);
            delivery.reject();
        } else {
            LOG.info(() -> "task " + task.jobId() + "#" + task.seq() + " failed (delivery "
                    + delivery.deliveryCount() + " of " + maxDeliveries + "), will retry: " + reason);
            delivery.release();
        }
    }

    private static String describe(Exception e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }

    /**
     * Drains, then stops: takes no more tasks, lets each stage finish what it holds, upstream first, for at most
     * the drain timeout, then interrupts what is still at work, whose tasks are given back.
     */
    @Override
    public void close() {
        running = false;
        long start = System.nanoTime();
        long deadline = start + drainTimeout.toNanos();
        int atWork = held();
        LOG.info(() -> "draining: " + atWork + " metatile task(s) at work, finished for at most "
                + Timeouts.format(drainTimeout));
        try {
            fetch.join(deadline);
            prepare.inputDone();
            prepare.join(deadline);
            store.inputDone();
            store.join(deadline);
            int left = held();
            long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();
            LOG.info(() -> left == 0 ? "drained in " + millis + " ms: every task at work finished"
                    : "drain timeout after " + millis + " ms: " + left + " task(s) at work given back");
            stages().forEach(StagePool::stop);
            long givenBack = System.nanoTime() + GIVE_BACK.toNanos();
            for (StagePool<?> stage : stages()) {
                stage.join(givenBack);
            }
        } catch (InterruptedException e) {
            stages().forEach(StagePool::stop);
            Thread.currentThread().interrupt();
        } finally {
            // Handed over after a stage's threads had ended (its feeder outlasted the drain): give it back.
            prepare.giveBackWaiting();
            store.giveBackWaiting();
        }
    }
}
