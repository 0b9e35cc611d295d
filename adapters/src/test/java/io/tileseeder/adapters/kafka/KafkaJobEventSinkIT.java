package io.tileseeder.adapters.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tileseeder.job.JobState;
import io.tileseeder.message.JobEvent;
import io.tileseeder.message.Messages;
import io.tileseeder.message.TileCounts;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link KafkaJobEventSink} against the real Kafka of {@code dev/services} ({@code SEEDER_KAFKA_BOOTSTRAP}): what
 * it sends is read back from the topic by a plain consumer and checked as a CloudEvents 1.0 structured-mode JSON
 * document. Each test has its own topic, deleted afterwards.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KafkaJobEventSinkIT {

    private String bootstrap;
    private String topic;
    private KafkaJobEventSink sink;

    @BeforeEach
    void setUp() {
        bootstrap = KafkaFixtures.bootstrap();
        topic = "seeder-it-job-events-" + KafkaFixtures.uniqueSuffix();
        sink = new KafkaJobEventSink(AckedProducer.Config.of(bootstrap, topic).withPartitions(1),
                URI.create(KafkaJobEventSink.DEFAULT_SOURCE));
    }

    @AfterEach
    void tearDown() throws Exception {
        if (sink != null) sink.close();
        try (Admin admin = KafkaClients.admin(bootstrap, Map.of())) {
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static JobEvent event(String jobId, JobState state) {
        return new JobEvent(JobEvent.VERSION, jobId, state, Instant.parse("2026-05-06T07:08:09.123Z"),
                new TileCounts(100, 40, 3, 0, state == JobState.FAILED ? 16 : 0, 123_456, 0),
                state == JobState.FAILED ? 1 : 0,
                state == JobState.FAILED ? Map.of(7L, "render timed out") : Map.of(), null,
                Map.of("team", "maps"), null);
    }

    private List<ConsumerRecord<String, byte[]>> readAll(int count) {
        Properties p = KafkaClients.common(bootstrap, Map.of());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "seeder-it-event-reader-" + UUID.randomUUID());
        List<ConsumerRecord<String, byte[]>> got = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> reader = new KafkaConsumer<>(p, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            reader.subscribe(Set.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (got.size() < count && System.nanoTime() < deadline) {
                reader.poll(Duration.ofMillis(200)).forEach(got::add);
            }
        }
        assertThat(got).as("records on %s", topic).hasSize(count);
        return got;
    }

    @Test
    void aSentEventIsReadBackAsAValidCloudEventWithEqualData() throws Exception {
        String jobId = "job-" + KafkaFixtures.uniqueSuffix();
        JobEvent succeeded = event(jobId, JobState.SUCCEEDED);
        JobEvent failed = event(jobId + "-b", JobState.FAILED);

        sink.send(succeeded);
        sink.send(failed);

        List<ConsumerRecord<String, byte[]>> records = readAll(2);
        ConsumerRecord<String, byte[]> record = records.getFirst();
        assertThat(record.key()).isEqualTo(jobId);
        Header contentType = record.headers().lastHeader("content-type");
        assertThat(contentType).isNotNull();
        assertThat(new String(contentType.value(), StandardCharsets.UTF_8)).isEqualTo("application/cloudevents+json");

        JsonNode ce = new ObjectMapper().readTree(record.value());
        assertThat(ce.get("specversion").asText()).isEqualTo("1.0");
        assertThat(ce.get("id").asText()).isEqualTo(jobId + "/succeeded");
        assertThat(ce.get("source").asText()).isEqualTo("urn:tile-seeder:coordinator");
        assertThat(ce.get("type").asText()).isEqualTo("io.tileseeder.job.succeeded");
        assertThat(ce.get("subject").asText()).isEqualTo(jobId);
        assertThat(Instant.parse(ce.get("time").asText())).isEqualTo(succeeded.time());
        assertThat(ce.get("datacontenttype").asText()).isEqualTo("application/json");
        assertThat(ce.get("data").isObject()).as("data inline as JSON, not base64").isTrue();
        assertThat(Messages.event(new ObjectMapper().writeValueAsBytes(ce.get("data")))).isEqualTo(succeeded);
        assertThat(KafkaJobEventSink.read(record.value())).isEqualTo(succeeded);

        ConsumerRecord<String, byte[]> second = records.get(1);
        assertThat(second.key()).isEqualTo(failed.jobId());
        JsonNode ce2 = new ObjectMapper().readTree(second.value());
        assertThat(ce2.get("id").asText()).isEqualTo(failed.jobId() + "/failed");
        assertThat(ce2.get("type").asText()).isEqualTo("io.tileseeder.job.failed");
        assertThat(KafkaJobEventSink.read(second.value())).isEqualTo(failed);
    }

    @Test
    void anEventSentTwiceKeepsItsIdSoAConsumerCanDropTheRepeat() throws Exception {
        JobEvent cancelled = event("job-" + KafkaFixtures.uniqueSuffix(), JobState.CANCELLED);

        sink.send(cancelled);
        sink.send(cancelled);

        List<ConsumerRecord<String, byte[]>> records = readAll(2);
        ObjectMapper json = new ObjectMapper();
        assertThat(json.readTree(records.get(0).value()).get("id"))
                .isEqualTo(json.readTree(records.get(1).value()).get("id"));
        assertThat(KafkaJobEventSink.read(records.get(1).value())).isEqualTo(cancelled);
    }

    @Test
    void onlyAFinishedJobHasAnEventAndReadRefusesOtherDocuments() {
        assertThatThrownBy(() -> sink.send(event("job-x", JobState.RUNNING)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("RUNNING");
        assertThatThrownBy(() -> KafkaJobEventSink.read("{\"specversion\":\"0.3\",\"id\":\"a\",\"source\":\"s\",\"type\":\"io.tileseeder.job.failed\"}"
                .getBytes(StandardCharsets.UTF_8))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KafkaJobEventSink.read("{\"specversion\":\"1.0\",\"id\":\"a\",\"source\":\"s\",\"type\":\"com.example.other\",\"data\":{}}"
                .getBytes(StandardCharsets.UTF_8))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a job event");
    }
}
