package io.tileseeder.adapters.kafka;

import io.tileseeder.port.DependencyUnavailableException;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.logging.Logger;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RetriableException;

/**
 * Client settings every Kafka adapter of the seeder shares, so that the durability settings are written once:
 * the caller's extra properties (security, client id, ...) first, then what the seeder insists on.
 */
public final class KafkaClients {

    private static final Logger LOG = Logger.getLogger(KafkaClients.class.getName());

    private KafkaClients() {
    }

    /** {@code clientProperties} plus the bootstrap servers: the base of every client. */
    public static Properties common(String bootstrapServers, Map<String, String> clientProperties) {
        Properties p = new Properties();
        p.putAll(clientProperties);
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return p;
    }

    /**
     * Stops a consumer that one thread of its own polls: wakes the poll and waits up to 30 s for the thread, which
     * closes the consumer, to end; closes the consumer here if the thread never started.
     *
     * @param what the consumer, for the warning when its thread does not end in time
     */
    public static void stopPolling(Consumer<?, ?> consumer, Thread thread, boolean started, String what) {
        if (!started) {
            consumer.close(Duration.ofSeconds(10));
            return;
        }
        consumer.wakeup();
        try {
            thread.join(Duration.ofSeconds(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.warning("the " + what + " thread did not stop within 30 s");
        }
    }

    public static Admin admin(String bootstrapServers, Map<String, String> clientProperties) {
        return Admin.create(common(bootstrapServers, clientProperties));
    }

    /**
     * A producer for the durability chain: idempotent (a retried send is written once) and {@code acks=all} (a
     * send is acknowledged only once every in-sync replica has it).
     *
     * @param maxBlock how long {@code send} may wait for metadata or buffer room ({@code max.block.ms})
     */
    public static Properties durableProducer(String bootstrapServers, Map<String, String> clientProperties,
                                             Duration maxBlock) {
        Properties p = common(bootstrapServers, clientProperties);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(maxBlock.toMillis()));
        return p;
    }

    /** What {@link DependencyUnavailableException}s from Kafka adapters name. */
    public static final String KAFKA = "Kafka";

    /**
     * A failure to reach Kafka that may pass (a broker restarting, a leader moving, no acknowledgement in time)
     * as a {@link DependencyUnavailableException}; any other as a {@link KafkaException}, both with
     * {@code message}.
     */
    public static RuntimeException failure(String message, Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RetriableException || t instanceof java.util.concurrent.TimeoutException) {
                return new DependencyUnavailableException(KAFKA, message, cause);
            }
        }
        return new KafkaException(message, cause);
    }
}
