package io.tileseeder.port;

import io.tileseeder.message.TaskResult;

/** Where workers report finished tasks. Returns only once the result is durably recorded or queued. */
@FunctionalInterface
public interface ResultSink {

    void publish(TaskResult result) throws InterruptedException;
}
