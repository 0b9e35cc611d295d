package io.tileseeder.port;

import io.tileseeder.message.MetatileTask;

/**
 * A task handed to a worker, with the verdict the worker gives it. Exactly one of {@link #accept},
 * {@link #release} or {@link #reject} is called, after which the delivery is done.
 */
public interface TaskDelivery {

    MetatileTask task();

    /** How many times this task has been delivered, this delivery included (1 the first time). */
    int deliveryCount();

    /** Done: every tile is durable and the result is recorded. */
    void accept();

    /** Not done, for a reason that may pass: deliver it again later. */
    void release();

    /** Done for good without success (its FAILED result is already recorded). */
    void reject();

    /** Still working on it: keep it from being redelivered for another lease period. */
    void renew();
}
