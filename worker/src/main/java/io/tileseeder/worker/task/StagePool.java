package io.tileseeder.worker.task;

import io.tileseeder.worker.task.WorkerMetrics.PipelineStage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads of one named stage of the worker pipeline, and its bound. A <em>source</em> stage repeats one turn
 * (take a task from outside) while the pipeline runs; a <em>fed</em> stage works what the stage before it hands
 * over, one item per thread at a time.
 *
 * <p>Room before the item: a feeder {@link #reserve}s room first and only then takes on what it will hand over,
 * so nothing ever waits for a thread of a full stage while holding a task, and a full stage stops its feeders
 * (and through them the fetching). A fed stage holds at most one item per thread.
 *
 * <p>A turn that throws an unexpected {@link RuntimeException} or an {@link Error} is fatal: the owner is told
 * (and stops the pipeline) and the thread ends. Interruptions are how the owner stops a stage, not failures.
 *
 * @param <T> what is handed over to the stage
 */
final class StagePool<T extends StagePool.Held> {

    /** How long an idle thread waits for an item before it looks again whether it should stop. */
    private static final Duration IDLE = Duration.ofMillis(200);

    /** A task as one stage hands it to the next: the next stage works it, or gives it back if it stops first. */
    interface Held {
        /** Gives the task back to the queue untouched (for another delivery), releasing what it holds. */
        void giveBack();
    }

    /** One turn of a source stage's loop. */
    interface Turn {
        void run() throws InterruptedException;
    }

    /** What a fed stage does with each item handed over. */
    interface Work<T> {
        void on(T item) throws InterruptedException;
    }

    /** The pipeline the stage belongs to. */
    interface Owner {
        /** Whether the pipeline takes new tasks. */
        boolean running();

        /** The stage's thread met a fatal failure and ends. */
        void failed(PipelineStage stage, Throwable failure);
    }

    private final PipelineStage stage;
    private final Owner owner;
    private final int capacity;
    private final Semaphore room;
    private final BlockingQueue<T> inbox;
    private final AtomicInteger held = new AtomicInteger();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean inputDone;
    private volatile boolean stopped;

    private StagePool(PipelineStage stage, int threads, Owner owner) {
        this.stage = stage;
        this.owner = owner;
        this.capacity = threads;
        this.room = new Semaphore(threads);
        this.inbox = new ArrayBlockingQueue<>(threads);
    }

    /** A stage of one thread that repeats {@code turn} while the pipeline runs; not started yet. */
    static StagePool<Held> source(PipelineStage stage, Turn turn, Owner owner) {
        StagePool<Held> pool = new StagePool<>(stage, 1, owner);
        pool.make(1, () -> {
            if (pool.stopped || !owner.running()) {
                return false;
            }
            turn.run();
            return true;
        });
        return pool;
    }

    /**
     * A stage of {@code threads} threads working what is handed over; it ends once its input is done and all it
     * was handed is worked, or, stopped, gives back what it holds. Not started yet.
     */
    static <T extends Held> StagePool<T> fed(PipelineStage stage, int threads, Work<T> work, Owner owner) {
        StagePool<T> pool = new StagePool<>(stage, threads, owner);
        pool.make(threads, () -> {
            if (pool.stopped) {
                pool.giveBackWaiting();
                return false;
            }
            T item = pool.inbox.poll(IDLE.toNanos(), TimeUnit.NANOSECONDS);
            if (item == null) {
                return !pool.inputDone;
            }
            try {
                work.on(item);
            } finally {
                pool.finished();
            }
            return true;
        });
        return pool;
    }

    private interface Loop {
        /** One turn; false once the thread should end. */
        boolean turn() throws InterruptedException;
    }

    private void make(int count, Loop loop) {
        for (int i = 0; i < count; i++) {
            String name = "seeder-" + stage.tag() + (count == 1 ? "" : "-" + i);
            Thread thread = new Thread(() -> run(loop), name);
            thread.setDaemon(true);
            threads.add(thread);
        }
    }

    /** Starts the threads, once the whole pipeline they work in is made. */
    void start() {
        threads.forEach(Thread::start);
    }

    private void run(Loop loop) {
        boolean more = true;
        while (more) {
            try {
                more = loop.turn();
            } catch (InterruptedException e) {
                // The owner interrupts to stop the stage (closing, or another stage failed): the loop decides.
            } catch (RuntimeException | Error e) {
                owner.failed(stage, e);
                return;
            }
        }
    }

    PipelineStage stage() {
        return stage;
    }

    int capacity() {
        return capacity;
    }

    /** Tasks the stage holds now: handed over and not yet worked, or taken by a source and not yet passed on. */
    int held() {
        return held.get();
    }

    /** Waits up to {@code wait} for room for one item; true if reserved, to be {@link #handOver handed over}. */
    boolean reserve(Duration wait) throws InterruptedException {
        return room.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Frees room reserved for an item that is not handed over after all. */
    void unreserve() {
        room.release();
    }

    /** Waits up to {@code wait} until the stage has room for one more item, reserving nothing; true if it has. */
    boolean awaitRoom(Duration wait) throws InterruptedException {
        if (!reserve(wait)) {
            return false;
        }
        room.release();
        return true;
    }

    /** Hands over an item for which room was {@link #reserve}d. */
    void handOver(T item) {
        took();
        inbox.add(item);
    }

    /** A source stage took a task. */
    void took() {
        held.incrementAndGet();
    }

    /** A source stage passed a task on, or gave its verdict. */
    void passedOn() {
        held.decrementAndGet();
    }

    /** A fed stage's item is worked (or given back): its room is free again. */
    private void finished() {
        held.decrementAndGet();
        room.release();
    }

    /** Nothing more will be handed over: the threads end once they have worked what they hold. */
    void inputDone() {
        inputDone = true;
    }

    /**
     * Interrupts the threads; what is at work is given back by its work, what waits by the stage. A thread of the
     * stage that stops it is not interrupted: it is giving back its own task, which an interrupt could keep from
     * reaching the queue or the gate.
     */
    void stop() {
        stopped = true;
        threads.stream().filter(thread -> thread != Thread.currentThread()).forEach(Thread::interrupt);
    }

    /** Waits until every thread has ended or {@code deadline} ({@link System#nanoTime}) has passed. */
    void join(long deadline) throws InterruptedException {
        for (Thread thread : threads) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                thread.join(Duration.ofNanos(left));
            }
        }
    }

    /** Gives back what still waits; after the threads ended, what was handed over too late. */
    void giveBackWaiting() {
        for (T item = inbox.poll(); item != null; item = inbox.poll()) {
            try {
                item.giveBack();
            } finally {
                finished();
            }
        }
    }
}
