package io.tileseeder.adapters.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

/** What the Kafka integration tests of this package share: the real broker's address and unique names. */
final class KafkaFixtures {

    private KafkaFixtures() {
    }

    /** {@code SEEDER_KAFKA_BOOTSTRAP}, which must be set: these tests run against the real Kafka of dev/services. */
    static String bootstrap() {
        String bootstrap = System.getenv("SEEDER_KAFKA_BOOTSTRAP");
        assertThat(bootstrap).as("SEEDER_KAFKA_BOOTSTRAP (run dev/services up and source .dev/services.env)")
                .isNotBlank();
        return bootstrap;
    }

    /** A short random suffix for a test's own topic, group and job names. */
    static String uniqueSuffix() {
        return UUID.randomUUID().toString().substring(0, 8);
    }
}
