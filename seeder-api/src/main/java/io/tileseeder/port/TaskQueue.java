package io.tileseeder.port;

import io.tileseeder.message.MetatileTask;
import java.time.Duration;
import java.util.Optional;

/** Carries metatile tasks from the planner to the workers. Bounded: a full queue makes the planner wait. */
public interface TaskQueue {

    /**
     * Hands a task to the workers, waiting at most {@code timeout} for room; false if there was none, so a
     * planner can check for cancellation between tries.
     */
    boolean offer(MetatileTask task, Duration timeout) throws InterruptedException;

    /**
     * Returns once every task offered so far is durably queued (a queue may send asynchronously); throws a
     * {@link RuntimeException} naming the cause if some could not be. The planner calls it before it records
     * how far it got, so a restarted planner never skips a task.
     */
    default void flush() throws InterruptedException {
    }

    /** The next task, waiting at most {@code timeout}; empty if none came. */
    Optional<TaskDelivery> poll(Duration timeout) throws InterruptedException;
}
