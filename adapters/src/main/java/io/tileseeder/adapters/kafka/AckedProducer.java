package io.tileseeder.adapters.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Produces records to one topic and waits for each acknowledgement: the step of the durability chain where a
 * message (a task result, a job event) must be on the broker before its sender goes on. Idempotent, acks=all
 * ({@link KafkaClients#durableProducer}); thread-safe, and concurrent senders share the producer's batches.
 * Creates the topic if it is missing.
 */
public final class AckedProducer implements AutoCloseable {

    /**
     * Settings.
     *
     * @param partitions       partitions of the topic if this producer creates it
     * @param ackTimeout       how long a send waits for metadata, buffer room and the acknowledgement, together
     * @param clientProperties extra client settings (security, client id, ...) for producer and admin
     */
    public record Config(String bootstrapServers, String topic, int partitions, Duration ackTimeout,
                         Map<String, String> clientProperties) {

        public Config {
            Objects.requireNonNull(bootstrapServers, "bootstrapServers");
            Objects.requireNonNull(topic, "topic");
            if (partitions < 1) throw new IllegalArgumentException("partitions must be >= 1: " + partitions);
            if (ackTimeout.isNegative() || ackTimeout.isZero()) {
                throw new IllegalArgumentException("ackTimeout must be positive: " + ackTimeout);
            }
            clientProperties = Map.copyOf(clientProperties);
        }

        /** {@code topic} with 12 partitions, a 30 s acknowledgement timeout, no extra client settings. */
        public static Config of(String bootstrapServers, String topic) {
            return new Config(bootstrapServers, topic, 12, Duration.ofSeconds(30), Map.of());
        }

        public Config withPartitions(int partitions) {
            return new Config(bootstrapServers, topic, partitions, ackTimeout, clientProperties);
        }

        public Config withAckTimeout(Duration ackTimeout) {
            return new Config(bootstrapServers, topic, partitions, ackTimeout, clientProperties);
        }
    }

    private final Config config;
    private final KafkaProducer<String, byte[]> producer;

    public AckedProducer(Config config) {
        this.config = config;
        try (Admin admin = KafkaClients.admin(config.bootstrapServers(), config.clientProperties())) {
            KafkaTopics.ensureTopic(admin, config.topic(), config.partitions());
        }
        this.producer = new KafkaProducer<>(KafkaClients.durableProducer(config.bootstrapServers(),
                config.clientProperties(), config.ackTimeout()), new StringSerializer(), new ByteArraySerializer());
    }

    public Config config() {
        return config;
    }

    /**
     * Sends and waits for the broker's acknowledgement, at most {@code ackTimeout}.
     *
     * @param what names the message in the exception, e.g. {@code "result of job-1#7"}
     * @throws io.tileseeder.port.DependencyUnavailableException naming {@code what} if Kafka could not be
     *                                                             reached or did not acknowledge in time
     * @throws KafkaException naming {@code what} and the cause if it was refused for good
     */
    public RecordMetadata send(String key, byte[] value, List<Header> headers, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + config.ackTimeout().toNanos();
        Future<RecordMetadata> sent;
        try {
            sent = producer.send(new ProducerRecord<>(config.topic(), null, key, value, headers));
        } catch (InterruptException e) {
            Thread.interrupted(); // the client re-sets the flag; the caller's way is InterruptedException
            throw new InterruptedException("interrupted sending " + what);
        } catch (KafkaException e) {
            throw KafkaClients.failure("cannot send " + what + " to " + config.topic() + ": " + e, e);
        }
        try {
            return sent.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw KafkaClients.failure("cannot send " + what + " to " + config.topic() + ": " + e.getCause(),
                    e.getCause());
        } catch (TimeoutException e) {
            // It may still arrive: a receiver sees it twice at worst, which the chain tolerates.
            throw KafkaClients.failure("no acknowledgement for " + what + " from " + config.topic() + " within "
                    + config.ackTimeout(), e);
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
