package io.tileseeder.e2e;

import io.tileseeder.adapters.kafka.KafkaJobEventSink;
import io.tileseeder.app.testing.EventRecords;
import io.tileseeder.message.JobEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
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
        return awaitEach(List.of(job), wait).getOrDefault(job, List.of());
    }

    /**
     * Every event on the topic, by job, once each of {@code jobs} has one, or at the deadline ({@code wait} from now)
     * with what there is: a job's event waits for the passes of a worker that died while writing it (two gate
     * leases) and for Kafka, so the jobs of a wave that just ended may not have theirs yet.
     */
    Map<String, List<JobEvent>> awaitEach(Collection<String> jobs, Duration wait) throws InterruptedException {
        Instant deadline = Instant.now().plus(wait);
        while (true) {
            Map<String, List<JobEvent>> events = all();
            if (events.keySet().containsAll(jobs) || Instant.now().isAfter(deadline)) {
                return events;
            }
            Thread.sleep(500);
        }
    }

    /** Every event on the topic so far, by job. */
    private Map<String, List<JobEvent>> all() throws InterruptedException {
        return Retry.within(OUTAGE, "reading " + topic, () -> EventRecords.read(bootstrap, topic).stream()
                .map(record -> KafkaJobEventSink.read(record.value()))
                .collect(Collectors.groupingBy(JobEvent::jobId)));
    }
}
