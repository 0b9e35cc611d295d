package io.tileseeder.adapters.kafka;

import io.tileseeder.message.Messages;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.port.TaskDelivery;
import io.tileseeder.port.TaskQueue;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The task queue on Kafka: tasks are produced to a topic (key: the metatile's identity) and consumed through a
 * share group ({@link KafkaShareConsumer}, explicit acknowledgement), so workers scale past the partition count
 * and each task gets its own verdict.
 *
 * <p>Producing. {@link #offer} hands the record to the producer and returns without waiting for the broker: a
 * planner must produce 100 000 tasks a second, which one round trip per task cannot give. The producer batches
 * ({@code linger.ms}, {@code batch.size}, lz4) and stays idempotent with {@code acks=all}. The first send that
 * fails leaves the queue failed for producing: the next {@link #offer} and every {@link #flush} throw it (naming
 * the task and the cause), so a planner that records its cursor only after a successful {@code flush()} never
 * skips a task. Close such a queue and open a new one; a task produced twice is harmless (locks, bitmap).
 *
 * <p>Consuming. {@link KafkaTaskConsumers} runs the share consumers, each on a thread of its own, and applies the
 * verdicts; at most {@code consumers × maxPollRecords} records are in flight.
 *
 * <p>The share group must start at the earliest offset ({@code share.auto.offset.reset=earliest}, a group config
 * set through the Admin API; the consumer refuses {@code auto.offset.reset}), or tasks produced before the first
 * worker joined are never delivered. The constructor does this and creates the topic
 * ({@link KafkaTopics#prepareShareGroup}), and sets the group's session timeout when one is given
 * ({@link KafkaTopics#limitSession}).
 */
public final class KafkaTaskQueue implements TaskQueue, AutoCloseable {

    /**
     * Settings.
     *
     * @param maxPollRecords   records one consumer fetches at once, and so the bound on its records in flight
     * @param consumers        share consumers (each with a thread) in this instance; records in flight are at most
     *                         {@code consumers × maxPollRecords}; 0 for a queue that only produces (a coordinator)
     * @param producerMaxBlock how long {@link #offer} may wait for metadata or buffer room ({@code max.block.ms});
     *                         it waits at most this, whatever timeout it is given
     * @param fetchWait        how long a consumer thread's {@code poll()} waits for records
     * @param clientProperties extra client settings (security, client id, ...) for producer, consumers and admin
     * @param sessionTimeout   how soon the broker hands a dead consumer's tasks to the others (the share group's
     *                         {@code share.session.timeout.ms}); null leaves the group's setting as it is
     */
    public record Config(String bootstrapServers, String topic, String groupId, int partitions, int maxPollRecords,
                         int consumers, Duration producerMaxBlock, Duration fetchWait,
                         Map<String, String> clientProperties, Duration sessionTimeout) {

        public Config {
            Objects.requireNonNull(bootstrapServers, "bootstrapServers");
            Objects.requireNonNull(topic, "topic");
            Objects.requireNonNull(groupId, "groupId");
            if (partitions < 1) throw new IllegalArgumentException("partitions must be >= 1: " + partitions);
            if (maxPollRecords < 1) throw new IllegalArgumentException("maxPollRecords must be >= 1: " + maxPollRecords);
            if (consumers < 0) throw new IllegalArgumentException("consumers must be >= 0: " + consumers);
            clientProperties = Map.copyOf(clientProperties);
        }

        /**
         * 12 partitions, 16 records per consumer, {@code consumers} share consumers, offers that wait at most 1 s,
         * polls of 100 ms.
         */
        public static Config of(String bootstrapServers, String topic, String groupId, int consumers) {
            return new Config(bootstrapServers, topic, groupId, 12, 16, consumers, Duration.ofSeconds(1),
                    Duration.ofMillis(100), Map.of(), null);
        }

        public Config withPartitions(int partitions) {
            return new Config(bootstrapServers, topic, groupId, partitions, maxPollRecords, consumers,
                    producerMaxBlock, fetchWait, clientProperties, sessionTimeout);
        }

        public Config withMaxPollRecords(int maxPollRecords) {
            return new Config(bootstrapServers, topic, groupId, partitions, maxPollRecords, consumers,
                    producerMaxBlock, fetchWait, clientProperties, sessionTimeout);
        }

        public Config withSessionTimeout(Duration sessionTimeout) {
            return new Config(bootstrapServers, topic, groupId, partitions, maxPollRecords, consumers,
                    producerMaxBlock, fetchWait, clientProperties, sessionTimeout);
        }

    }

    private final Config config;
    private final KafkaProducer<String, byte[]> producer;
    /** The first asynchronous send that failed; from then on offer and flush throw it. */
    private final AtomicReference<RuntimeException> sendFailure = new AtomicReference<>();
    private final KafkaTaskConsumers consumers;
    private final AtomicBoolean closing = new AtomicBoolean();

    /** Creates the topic and sets up the group if needed, then connects the producer and the consumers. */
    public KafkaTaskQueue(Config config) {
        this.config = config;
        try (Admin admin = KafkaClients.admin(config.bootstrapServers(), config.clientProperties())) {
            KafkaTopics.prepareShareGroup(admin, config.topic(), config.partitions(), config.groupId());
            if (config.sessionTimeout() != null) {
                KafkaTopics.limitSession(admin, config.groupId(), config.sessionTimeout());
            }
        }
        this.producer = new KafkaProducer<>(producerProperties(config), new StringSerializer(), new ByteArraySerializer());
        try {
            this.consumers = new KafkaTaskConsumers(config, producer);
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw e;
        }
        consumers.start();
    }

    public Config config() {
        return config;
    }

    /**
     * Tuned for a planner producing 100 000 small (~300 byte) tasks a second on two cores: records wait up to 20 ms
     * to fill 256 KiB batches, compressed with lz4 (JSON compresses well, and fewer bytes means less broker work on
     * the same cores). Idempotence keeps at most 5 requests in flight per partition, in order.
     */
    private static Properties producerProperties(Config config) {
        Properties p = KafkaClients.durableProducer(config.bootstrapServers(), config.clientProperties(),
                config.producerMaxBlock());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(256 * 1024));
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(64L * 1024 * 1024));
        return p;
    }

    // ---------------------------------------------------------------- TaskQueue

    /**
     * Hands the task to the producer and returns without waiting for the broker's acknowledgement (see
     * {@link #flush}). False if the producer had no metadata or buffer room within {@code producerMaxBlock}.
     *
     * @throws io.tileseeder.port.DependencyUnavailableException if an earlier asynchronous send failed because
     *         Kafka could not be reached, {@link KafkaException} if it failed for good; each failure is thrown
     *         once, and the tasks offered since the last {@link #flush} may be lost: offer again from there
     */
    @Override
    public boolean offer(MetatileTask task, Duration timeout) throws InterruptedException {
        ensureOpen();
        throwSendFailure();
        try {
            producer.send(new ProducerRecord<>(config.topic(), task.metatileKey(), Messages.toJson(task)),
                    (metadata, error) -> {
                        if (error != null) {
                            sendFailed(task, error);
                        }
                    });
            return true;
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            return false; // no metadata or no buffer room within max.block.ms
        } catch (InterruptException e) {
            Thread.interrupted(); // the client re-sets the flag; the port's way is InterruptedException
            throw new InterruptedException("interrupted offering task " + task.jobId() + "#" + task.seq());
        }
    }

    /** Waits for the broker's acknowledgement of every task offered so far; throws the first send failure. */
    @Override
    public void flush() throws InterruptedException {
        ensureOpen();
        try {
            producer.flush();
        } catch (InterruptException e) {
            Thread.interrupted();
            throw new InterruptedException("interrupted flushing the task producer");
        }
        throwSendFailure();
    }

    private void sendFailed(MetatileTask task, Exception error) {
        // On the producer's I/O thread: keep the first failure, nothing more.
        if (sendFailure.get() == null) {
            sendFailure.compareAndSet(null, KafkaClients.failure("cannot produce task " + task.jobId() + "#"
                    + task.seq() + " to " + config.topic() + ": " + error, error));
        }
    }

    /** Throws the first send failure since the last one thrown: the caller offers again from its last flush. */
    private void throwSendFailure() {
        RuntimeException failed = sendFailure.getAndSet(null);
        if (failed != null) {
            throw failed;
        }
    }

    @Override
    public Optional<TaskDelivery> poll(Duration timeout) throws InterruptedException {
        ensureOpen();
        Optional<TaskDelivery> next = consumers.poll(timeout);
        if (next.isEmpty()) {
            ensureOpen();
        }
        return next;
    }

    /** Why a share consumer of this queue stopped while the queue is open; empty while they all run. */
    public Optional<String> consumerFailure() {
        return closing.get() ? Optional.empty() : consumers.failure();
    }

    private void ensureOpen() {
        consumers.throwFailure();
        if (closing.get()) {
            throw new IllegalStateException("the task queue is closed");
        }
    }

    /**
     * Gives back every task this instance holds (a RELEASE still in its backoff at once), stops the consumers and
     * closes the producer after sending what it buffers.
     */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        consumers.close();
        producer.close(Duration.ofSeconds(10));
    }
}
