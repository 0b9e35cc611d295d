package io.tileseeder.adapters.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link KafkaTopics} against the real Kafka of {@code dev/services}, on a topic of its own, deleted afterwards. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KafkaTopicsIT {

    private final String topic = "seeder-it-topics-" + KafkaFixtures.uniqueSuffix();

    private static Admin admin() {
        return KafkaClients.admin(KafkaFixtures.bootstrap(), Map.of());
    }

    @AfterEach
    void tearDown() throws Exception {
        try (Admin admin = admin()) {
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void ensureTopicIsIdempotent() throws Exception {
        try (Admin admin = admin()) {
            KafkaTopics.ensureTopic(admin, topic, 3);
            KafkaTopics.ensureTopic(admin, topic, 3);
            assertThat(admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(topic).partitions()).hasSize(3);
        }
    }
}
