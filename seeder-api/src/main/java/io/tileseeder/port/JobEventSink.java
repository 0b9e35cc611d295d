package io.tileseeder.port;

import io.tileseeder.message.JobEvent;

/** Where the coordinator announces finished jobs (Kafka {@code seeder.job-events}, or nowhere when embedded). */
@FunctionalInterface
public interface JobEventSink {

    /**
     * Returns once the event is durably accepted; throws a {@link RuntimeException} naming the cause if it could
     * not be, so the event stays in the outbox and is sent again.
     */
    void send(JobEvent event) throws InterruptedException;
}
