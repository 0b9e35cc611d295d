package io.tileseeder.coordinator.embedded;

import io.tileseeder.message.MetatileTask;
import io.tileseeder.port.TaskDelivery;
import io.tileseeder.port.TaskQueue;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The embedded mode's task queue: a bounded in-process queue. New tasks wait in {@code pending}; a released
 * task goes to {@code redeliver}, which is served first and has room for every task that can be out at once
 * (one per worker thread), so releasing never blocks and never competes with the planner for space.
 */
public final class InMemoryTaskQueue implements TaskQueue {

    private final BlockingQueue<Entry> pending;
    private final BlockingQueue<Entry> redeliver;

    /**
     * @param capacity   tasks that may wait; a planner that gets this far ahead waits
     * @param maxHolders how many deliveries can be out at once (the worker threads)
     */
    public InMemoryTaskQueue(int capacity, int maxHolders) {
        this.pending = new ArrayBlockingQueue<>(capacity);
        this.redeliver = new ArrayBlockingQueue<>(maxHolders);
    }

    @Override
    public void publish(MetatileTask task) throws InterruptedException {
        pending.put(new Entry(task, 0));
    }

    @Override
    public Optional<TaskDelivery> poll(Duration timeout) throws InterruptedException {
        Entry entry = redeliver.poll();
        if (entry == null) {
            entry = pending.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        }
        return entry == null ? Optional.empty() : Optional.of(new Delivery(entry.task, entry.deliveries + 1));
    }

    /** Tasks waiting to be delivered. */
    public int size() {
        return pending.size() + redeliver.size();
    }

    private record Entry(MetatileTask task, int deliveries) {
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
        }

        @Override
        public void release() {
            finish();
            if (!redeliver.offer(new Entry(task, count))) {
                throw new IllegalStateException("more deliveries released than can be out at once");
            }
        }

        @Override
        public void reject() {
            finish();
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
