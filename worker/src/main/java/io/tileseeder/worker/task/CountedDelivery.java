package io.tileseeder.worker.task;

import io.tileseeder.message.MetatileTask;
import io.tileseeder.port.TaskDelivery;

/**
 * A delivery whose verdict is counted ({@code seeder_tasks_total{outcome}}), and leaves the tasks in flight. Made
 * once the worker has taken a task, so every verdict a stage gives is counted exactly once.
 */
final class CountedDelivery implements TaskDelivery {

    private final TaskDelivery delivery;
    private final WorkerMetrics metrics;

    CountedDelivery(TaskDelivery delivery, WorkerMetrics metrics) {
        this.delivery = delivery;
        this.metrics = metrics;
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

    /** Accepts a task of a job that is final or unknown, with nothing written. */
    void drop() {
        metrics.dropped();
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
