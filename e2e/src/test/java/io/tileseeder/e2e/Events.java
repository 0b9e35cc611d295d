package io.tileseeder.e2e;

import io.tileseeder.adapters.kafka.KafkaJobEventSink;
import io.tileseeder.message.JobEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** The jobs' completion events (CloudEvents) on the events topic, read from its beginning by a plain consumer. */
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
            List<JobEvent> events = all().stream().filter(event -> event.jobId().equals(job)).toList();
            if (!events.isEmpty() || Instant.now().isAfter(deadline)) {
                return events;
            }
            Thread.sleep(500);
        }
    }

    private List<JobEvent> all() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        List<JobEvent> events = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(15)).stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    events.add(KafkaJobEventSink.read(record.value()));
                }
            }
        }
        return events;
    }
}
