package io.tileseeder.port;

import io.tileseeder.message.MetatileTask;
import java.time.Duration;
import java.util.Optional;

/** Carries metatile tasks from the planner to the workers. Bounded: a full queue makes the planner wait. */
public interface TaskQueue {

    /** Hands a task to the workers; blocks while the queue is full. */
    void publish(MetatileTask task) throws InterruptedException;

    /** The next task, waiting at most {@code timeout}; empty if none came. */
    Optional<TaskDelivery> poll(Duration timeout) throws InterruptedException;
}
