package io.tileseeder.e2e;

import io.tileseeder.adapters.kafka.KafkaJobEventSink;
import io.tileseeder.app.testing.EventRecords;
import io.tileseeder.message.JobEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** The jobs' completion events (CloudEvents) on the events topic. */
final class Events {

    private final String bootstrap;
    private final String topic;

    Events(String bootstrap, String topic) {
        this.bootstrap = bootstrap;
        this.topic = topic;
    }

    /** The job's events, once there is one (the outbox sends it after the job is final), for at most {@code wait}. */
    List<JobEvent> await(String job, Duration wait) throws InterruptedException {
        Instant deadline = Instant.now().plus(wait);
        while (true) {
            List<JobEvent> events = EventRecords.read(bootstrap, topic).stream()
                    .map(record -> KafkaJobEventSink.read(record.value())).filter(event -> event.jobId().equals(job))
                    .toList();
            if (!events.isEmpty() || Instant.now().isAfter(deadline)) {
                return events;
            }
            Thread.sleep(500);
        }
    }
}
