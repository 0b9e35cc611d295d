package io.tileseeder.e2e;

import io.tileseeder.adapters.kafka.KafkaJobEventSink;
import io.tileseeder.app.testing.EventRecords;
import io.tileseeder.message.JobEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The jobs' completion events (CloudEvents) on the events topic, read again while Kafka restarts. */
final class Events {

    private static final Duration OUTAGE = Duration.ofMinutes(3);

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
            List<JobEvent> events = all().getOrDefault(job, List.of());
            if (!events.isEmpty() || Instant.now().isAfter(deadline)) {
                return events;
            }
            Thread.sleep(500);
        }
    }

    /** Every event on the topic so far, by job. */
    Map<String, List<JobEvent>> all() throws InterruptedException {
        return Retry.within(OUTAGE, "reading " + topic, () -> EventRecords.read(bootstrap, topic).stream()
                .map(record -> KafkaJobEventSink.read(record.value()))
                .collect(Collectors.groupingBy(JobEvent::jobId)));
    }
}
