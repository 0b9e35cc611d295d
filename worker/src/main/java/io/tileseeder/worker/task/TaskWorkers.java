package io.tileseeder.worker.task;

import io.tileseeder.message.MetatileTask;
import io.tileseeder.message.TaskResult;
import io.tileseeder.message.TileCounts;
import io.tileseeder.port.ResultSink;
import io.tileseeder.port.TaskDelivery;
import io.tileseeder.port.TaskQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A fixed number of threads that take tasks from the queue and process them, one metatile per thread at a
 * time: a thread fetches a task only when it is free, so a busy pool stops fetching.
 *
 * <p>Verdicts: the result is published first, then the task accepted. A failure is released for another
 * delivery until the task has been delivered {@code maxDeliveries} times; then its FAILED result is
 * published and it is rejected, so a poison task never blocks the job. A task whose metatile lock is busy is
 * released without counting against it beyond the delivery itself.
 */
public final class TaskWorkers implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(TaskWorkers.class.getName());
    private static final Duration POLL = Duration.ofMillis(200);

    private final TaskQueue queue;
    private final MetatileProcessor processor;
    private final ResultSink results;
    private final Predicate<String> jobCancelled;
    private final int maxDeliveries;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    /**
     * @param threads       how many metatiles are worked on at once (default: 2 × cores)
     * @param maxDeliveries how often a failing task is tried before it is recorded FAILED
     * @param jobCancelled  tells whether a job was cancelled, so its remaining tasks are dropped
     */
    public TaskWorkers(TaskQueue queue, MetatileProcessor processor, ResultSink results,
                       Predicate<String> jobCancelled, int threads, int maxDeliveries) {
        if (threads < 1 || maxDeliveries < 1) {
            throw new IllegalArgumentException("need at least one thread and one delivery");
        }
        this.queue = queue;
        this.processor = processor;
        this.results = results;
        this.jobCancelled = jobCancelled;
        this.maxDeliveries = maxDeliveries;
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

    private void run() {
        while (running) {
            try {
                Optional<TaskDelivery> delivery = queue.poll(POLL);
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

    private void handle(TaskDelivery delivery) throws InterruptedException {
        MetatileTask task = delivery.task();
        if (jobCancelled.test(task.jobId())) {
            delivery.accept();
            return;
        }
        Optional<TileCounts> counts;
        try {
            counts = processor.process(task);
        } catch (InterruptedException e) {
            delivery.release();
            throw e;
        } catch (Exception e) {
            String reason = describe(e);
            if (delivery.deliveryCount() >= maxDeliveries) {
                LOG.warning(() -> "task " + task.jobId() + "#" + task.seq() + " (" + task.metatileKey()
                        + ") failed for good after " + delivery.deliveryCount() + " deliveries: " + reason);
                long tiles = task.tiles().count();
                results.publish(TaskResult.failed(task, new TileCounts(0, 0, 0, 0, tiles, 0), reason));
                delivery.reject();
            } else {
                LOG.info(() -> "task " + task.jobId() + "#" + task.seq() + " failed (delivery "
                        + delivery.deliveryCount() + " of " + maxDeliveries + "), will retry: " + reason);
                delivery.release();
            }
            return;
        }
        if (counts.isEmpty()) {
            delivery.release();
            return;
        }
        results.publish(TaskResult.succeeded(task, counts.get()));
        delivery.accept();
    }

    private static String describe(Exception e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }

    /** Stops taking tasks; a thread in the middle of a metatile is interrupted and its task released. */
    @Override
    public void close() {
        running = false;
        threads.forEach(Thread::interrupt);
        for (Thread thread : threads) {
            try {
                thread.join(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
