package io.tileseeder.worker.task;

import io.tileseeder.message.MetatileTask;
import io.tileseeder.message.TaskResult;
import io.tileseeder.message.TileCounts;
import io.tileseeder.outage.Outages;
import io.tileseeder.port.JobGate;
import io.tileseeder.port.ResultSink;
import io.tileseeder.port.TaskDelivery;
import io.tileseeder.port.TaskQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The worker's two stages, each on a bounded pool: {@code threads} threads take tasks from the queue and
 * prepare them (render and encode, CPU-bound), and hand each prepared metatile to the store stage
 * ({@code storeThreads}, I/O-bound). A thread fetches a task only when it is free and a store slot is free,
 * so a busy worker stops fetching, and at most {@code threads + storeThreads} metatiles are in memory.
 *
 * <p>Verdicts: the result is published first, then the task accepted. A failure is released for another
 * delivery until the task has been delivered {@code maxDeliveries} times; then its FAILED result is
 * published and it is rejected, so a poison task never blocks the job. A task whose metatile lock is busy is
 * released without counting against it beyond the delivery itself.
 *
 * <p>Final means final: before a task is rendered its job is entered through the {@link JobGate}; a job that is
 * final or unknown drops the task (accepted, nothing rendered or written), and the pass of a job that is not is
 * held until the task's tiles are stored, so the job's final event waits for them.
 *
 * <p>An unreachable dependency (Redis behind the gate or the locks, the store, Kafka for the result, an upstream
 * WMS) is not the task's fault: the thread keeps the task (renewing it) and tries again with backoff, for at most
 * the outage budget ({@link Outages#patiently}), instead of spending the task's deliveries. While a dependency
 * is down every slot fills with waiting tasks, so the worker stops fetching.
 *
 * <p>{@link #close} drains: no task is taken any more, and the metatiles being rendered or stored are finished
 * and reported for at most {@code drainTimeout}; what is still at work then is interrupted and given back.
 */
public final class TaskWorkers implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(TaskWorkers.class.getName());
    private static final Duration POLL = Duration.ofMillis(200);
    /** How long a render thread waits for a store slot before it renews its task and waits again. */
    private static final Duration SLOT_WAIT = Duration.ofSeconds(5);
    /** How long {@link #close} waits, after the drain, for interrupted threads to give back their tasks. */
    private static final Duration GIVE_BACK = Duration.ofSeconds(10);

    private final TaskQueue queue;
    private final MetatileProcessor processor;
    private final ResultSink results;
    private final JobGate gate;
    private final int maxDeliveries;
    private final Outages outages;
    private final Duration drainTimeout;
    private final WorkerMetrics metrics;
    private final List<Thread> threads = new ArrayList<>();
    private final ThreadPoolExecutor storeStage;
    private final Semaphore storeSlots;
    private volatile boolean running = true;

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
        AtomicInteger n = new AtomicInteger();
        this.storeStage = new ThreadPoolExecutor(storeThreads, storeThreads, 1, TimeUnit.MINUTES,
                new ArrayBlockingQueue<>(storeThreads), r -> {
                    Thread thread = new Thread(r, "seeder-store-" + n.getAndIncrement());
                    thread.setDaemon(true);
                    return thread;
                });
        this.storeStage.allowCoreThreadTimeOut(true);
        this.storeSlots = new Semaphore(storeThreads);
        this.queue = queue;
        this.processor = processor;
        this.results = results;
        this.gate = gate;
        this.maxDeliveries = maxDeliveries;
        this.outages = outages;
        this.drainTimeout = drainTimeout;
        this.metrics = processor.metrics();
        for (int i = 0; i < threads; i++) {
            Thread thread = new Thread(this::run, "seeder-worker-" + i);
            thread.setDaemon(true);
            this.threads.add(thread);
        }
        this.threads.forEach(Thread::start);
    }

    public int threads() {
        return threads.size();
    }

    /** The worker threads that died while the workers run (none ever should: each loop survives its errors). */
    public List<String> deadThreads() {
        if (!running) {
            return List.of();
        }
        return threads.stream().filter(thread -> !thread.isAlive()).map(Thread::getName).toList();
    }

    private void run() {
        while (running) {
            try {
                storeSlots.acquire();
                Optional<TaskDelivery> delivery;
                try {
                    delivery = running ? queue.poll(POLL) : Optional.empty();
                } finally {
                    storeSlots.release();
                }
                if (delivery.isPresent()) {
                    handle(delivery.get());
                }
            } catch (InterruptedException e) {
                if (!running) {
                    return;
                }
            } catch (RuntimeException e) {
                LOG.log(Level.SEVERE, "worker loop failed; continuing", e);
            }
        }
    }

    private void handle(TaskDelivery taken) throws InterruptedException {
        metrics.delivered(taken.deliveryCount());
        MetatileTask task = taken.task();
        if (!running) {
            // Taken while close() began: give it back untouched.
            metrics.verdict(WorkerMetrics.TaskOutcome.RELEASED);
            taken.release();
            return;
        }
        TaskDelivery delivery = new Counted(taken);
        Optional<JobGate.Pass> entered;
        try {
            entered = patiently(delivery, () -> gate.enter(task.jobId()));
        } catch (InterruptedException e) {
            delivery.release();
            throw e;
        } catch (Exception e) {
            failed(delivery, e);
            return;
        }
        if (entered.isEmpty()) {
            // The job is final or unknown: nothing of it is rendered or written any more.
            metrics.dropped();
            taken.accept();
            return;
        }
        JobGate.Pass pass = entered.get();
        try {
            prepareAndHandOver(delivery, pass);
        } catch (Error e) {
            pass.close();
            delivery.release();
            throw e;
        }
    }

    /** Renders and encodes the task's metatile under its pass, then hands it to the store stage. */
    private void prepareAndHandOver(TaskDelivery delivery, JobGate.Pass pass) throws InterruptedException {
        Optional<MetatileProcessor.Prepared> prepared;
        try {
            prepared = patiently(delivery, pass, () -> processor.prepare(delivery.task()));
        } catch (InterruptedException e) {
            pass.close();
            delivery.release();
            throw e;
        } catch (Exception e) {
            pass.close();
            failed(delivery, e);
            return;
        }
        if (prepared.isEmpty()) {
            pass.close();
            delivery.release();
            return;
        }
        try {
            // A full store stage (the store down, every slot waiting for it): keep the task while waiting.
            while (!storeSlots.tryAcquire(SLOT_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                delivery.renew();
            }
        } catch (InterruptedException e) {
            processor.abandon(prepared.get());
            pass.close();
            delivery.release();
            throw e;
        }
        try {
            storeStage.execute(() -> store(delivery, pass, prepared.get()));
        } catch (RejectedExecutionException e) {
            // Shutting down between taking the slot and handing over: give the task back untouched.
            storeSlots.release();
            processor.abandon(prepared.get());
            pass.close();
            delivery.release();
        }
    }

    private void store(TaskDelivery delivery, JobGate.Pass pass, MetatileProcessor.Prepared prepared) {
        try {
            if (pass.jobFinal()) {
                // The job ended while its metatile was rendered: write nothing of it.
                processor.abandon(prepared);
                pass.close();
                metrics.dropped();
                delivery.accept();
                return;
            }
            TileCounts counts;
            try {
                counts = patiently(delivery, pass, () -> processor.store(prepared));
            } catch (Exception e) {
                processor.abandon(prepared); // the store kept the lock for another try: give it up now
                throw e;
            } finally {
                pass.close(); // every tile of the task is written, or none will be by this delivery
            }
            TaskResult result = TaskResult.succeeded(delivery.task(), counts);
            patiently(delivery, () -> {
                results.publish(result);
                return result;
            });
            metrics.tiles(counts);
            delivery.accept();
        } catch (InterruptedException e) {
            delivery.release();
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            try {
                failed(delivery, e);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        } catch (Error e) {
            pass.close();
            delivery.release();
            throw e;
        } finally {
            storeSlots.release();
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
            LOG.warning(() -> "task " + task.jobId() + "#" + task.seq() + " (" + task.metatileKey()
                    + ") failed for good after " + delivery.deliveryCount() + " deliveries: " + reason);
            TileCounts counts = new TileCounts(0, 0, 0, 0, task.tiles().count(), 0);
            TaskResult result = TaskResult.failed(task, counts, reason);
            try {
                patiently(delivery, () -> {
                    results.publish(result);
                    return result;
                });
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

    /** A delivery whose verdict is counted, and leaves the tasks in flight. */
    private final class Counted implements TaskDelivery {
        private final TaskDelivery delivery;

        Counted(TaskDelivery delivery) {
            this.delivery = delivery;
        }

        @Override
        public MetatileTask task() {
            return delivery.task();
        }

        @Override
        public int deliveryCount() {
            return delivery.deliveryCount();
        }

        @Override
        public void accept() {
            metrics.verdict(WorkerMetrics.TaskOutcome.SUCCEEDED);
            delivery.accept();
        }

        @Override
        public void release() {
            metrics.verdict(WorkerMetrics.TaskOutcome.RELEASED);
            delivery.release();
        }

        @Override
        public void reject() {
            metrics.verdict(WorkerMetrics.TaskOutcome.FAILED);
            delivery.reject();
        }

        @Override
        public void renew() {
            delivery.renew();
        }
    }

    /**
     * Drains, then stops: takes no more tasks, lets the metatiles being rendered and stored finish and be
     * reported for at most the drain timeout, then interrupts what is still at work, whose tasks are given back.
     */
    @Override
    public void close() {
        running = false;
        long deadline = System.nanoTime() + drainTimeout.toNanos();
        try {
            joinAll(deadline);
            // Every render thread has handed over its metatile, or is interrupted now and gives its task back.
            threads.forEach(Thread::interrupt);
            joinAll(System.nanoTime() + GIVE_BACK.toNanos());
            storeStage.shutdown();
            if (!storeStage.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                storeStage.shutdownNow();
                storeStage.awaitTermination(GIVE_BACK.toNanos(), TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            storeStage.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private void joinAll(long deadline) throws InterruptedException {
        for (Thread thread : threads) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                thread.join(Duration.ofNanos(left));
            }
        }
    }
}
