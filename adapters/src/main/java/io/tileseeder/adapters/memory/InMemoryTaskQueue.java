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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The embedded mode's task queue: a bounded in-process queue. New tasks wait in {@code pending}. A released
 * task waits in {@code redeliver} until its backoff has passed (0.1 s, doubling per delivery, at most 5 s),
 * and is then served before new tasks. {@code redeliver} never holds more than the deliveries that can be out
 * at once ({@code maxHolders}), so releasing never blocks and never competes with the planner for room.
 */
public final class InMemoryTaskQueue implements TaskQueue {

    private final BlockingQueue<Entry> pending;
    private final DelayQueue<Entry> redeliver = new DelayQueue<>();
    private final int maxHolders;

    /**
     * @param capacity   tasks that may wait; a planner that gets this far ahead waits
     * @param maxHolders how many deliveries can be out at once (every worker thread of every stage)
     */
    public InMemoryTaskQueue(int capacity, int maxHolders) {
        this.pending = new ArrayBlockingQueue<>(capacity);
        this.maxHolders = maxHolders;
    }

    @Override
    public boolean offer(MetatileTask task, Duration timeout) throws InterruptedException {
        return pending.offer(new Entry(task, 0, 0), timeout.toNanos(), TimeUnit.NANOSECONDS);
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
        }

        @Override
        public void release() {
            if (redeliver.size() >= maxHolders) {
                throw new IllegalStateException("more deliveries released than can be out at once (" + maxHolders + ")");
            }
            finish();
            redeliver.add(new Entry(task, count, System.nanoTime() + ReleaseBackoff.after(count).toNanos()));
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
