package io.tileseeder.adapters.memory;

import io.tileseeder.message.MetatileTask;
import io.tileseeder.port.ReleaseBackoff;
import io.tileseeder.port.TaskDelivery;
import io.tileseeder.port.TaskQueue;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The embedded mode's task queue: a bounded in-process queue. New tasks wait in {@code pending}. A released
 * task waits in {@code redeliver} until its backoff has passed (0.1 s, doubling per delivery, at most 5 s),
 * and is then served before new tasks.
 *
 * <p>A task holds one of {@code maxHolders} slots from its first delivery to its verdict (accepted or rejected),
 * through any releases and the backoffs after them: a new task is delivered only into a free slot. So the
 * deliveries out plus the released tasks waiting never pass {@code maxHolders}, releasing never blocks and never
 * competes with the planner for room, and tasks that keep failing slow the intake of new ones down instead of
 * piling up behind their backoffs.
 */
public final class InMemoryTaskQueue implements TaskQueue {

    private final BlockingQueue<Entry> pending;
    private final DelayQueue<Entry> redeliver = new DelayQueue<>();
    private final Semaphore slots;

    /**
     * @param capacity   tasks that may wait; a planner that gets this far ahead waits
     * @param maxHolders how many tasks may be out or waiting to be delivered again at once (every worker thread of
     *                   every stage)
     */
    public InMemoryTaskQueue(int capacity, int maxHolders) {
        if (maxHolders < 1) {
            throw new IllegalArgumentException("maxHolders must be at least 1, not " + maxHolders);
        }
        this.pending = new ArrayBlockingQueue<>(capacity);
        this.slots = new Semaphore(maxHolders);
    }

    @Override
    public boolean offer(MetatileTask task, Duration timeout) throws InterruptedException {
        return pending.offer(new Entry(task, 0, 0), timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * A released task whose backoff has passed, else a new task if a slot is free; with every slot held, waits for a
     * released task's backoff to pass.
     */
    @Override
    public Optional<TaskDelivery> poll(Duration timeout) throws InterruptedException {
        Entry entry = redeliver.poll();
        if (entry == null) {
            if (slots.tryAcquire()) {
                entry = pending.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
                if (entry == null) {
                    slots.release();
                }
            } else {
                entry = redeliver.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
            }
        }
        return entry == null ? Optional.empty() : Optional.of(new Delivery(entry.task, entry.deliveries + 1));
    }

    /** Tasks waiting to be delivered. */
    public int size() {
        return pending.size() + redeliver.size();
    }

    private record Entry(MetatileTask task, int deliveries, long dueNanos) implements Delayed {
        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(dueNanos, ((Entry) other).dueNanos);
        }
    }

    private final class Delivery implements TaskDelivery {
        private final MetatileTask task;
        private final int count;
        private final AtomicBoolean done = new AtomicBoolean();

        Delivery(MetatileTask task, int count) {
            this.task = task;
            this.count = count;
        }

        @Override
        public MetatileTask task() {
            return task;
        }

        @Override
        public int deliveryCount() {
            return count;
        }

        @Override
        public void accept() {
            finish();
            slots.release();
        }

        /** The task keeps its slot while it waits to be delivered again. */
        @Override
        public void release() {
            finish();
            redeliver.add(new Entry(task, count, System.nanoTime() + ReleaseBackoff.after(count).toNanos()));
        }

        @Override
        public void reject() {
            finish();
            slots.release();
        }

        @Override
        public void renew() {
            // In one process a delivery is never taken back, so there is no lease to extend.
        }

        private void finish() {
            if (!done.compareAndSet(false, true)) {
                throw new IllegalStateException("delivery of task " + task.seq() + " already has a verdict");
            }
        }
    }
}
