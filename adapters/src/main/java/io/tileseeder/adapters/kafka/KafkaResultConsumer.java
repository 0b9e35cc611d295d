package io.tileseeder.adapters.kafka;

import io.tileseeder.message.Messages;
import io.tileseeder.message.TaskResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Feeds task results from a Kafka topic to the coordinator's recorder: an
 * ordinary consumer group, one thread, batches of up to {@code maxPollRecords}. The offsets of a batch are
 * committed only after the recorder returned (step 5 of the durability chain): a coordinator that dies between
 * the two sees the batch again, which the recorder's bitmap makes harmless.
 *
 * <p>A recorder that throws (Redis down, say) is logged; the consumer backs off (0.1 s doubling up to
 * {@code maxBackoff}), seeks every assigned partition back to its last committed offset and tries again, for as
 * long as it takes: no result is ever skipped. A failed commit is handled the same way. A record that is not a
 * readable {@link TaskResult} (bad JSON, unknown {@code "v"}) is logged with its partition and offset and
 * skipped, so one bad record cannot stop the job's progress.
 *
 * <pre>{@code
 * try (KafkaResultConsumer results = new KafkaResultConsumer(KafkaResultConsumer.Config.of("kafka:9092", "seeder.task-results", "seeder-coordinator"),
 *         batch -> progress.record(batch))) {
 *     results.start();
 *     ...
 * }
 * }</pre>
 */
public final class KafkaResultConsumer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(KafkaResultConsumer.class.getName());

    private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);

    /**
     * Settings.
     *
     * @param maxPollRecords   results handed to the recorder at most at once
     * @param pollWait         how long one {@code poll()} waits for records
     * @param maxBackoff       the longest wait between tries of a failing recorder
     * @param clientProperties extra client settings (security, client id, ...)
     */
    public record Config(String bootstrapServers, String topic, String groupId, int maxPollRecords,
                         Duration pollWait, Duration maxBackoff, Map<String, String> clientProperties) {

        public Config {
            Objects.requireNonNull(bootstrapServers, "bootstrapServers");
            Objects.requireNonNull(topic, "topic");
            Objects.requireNonNull(groupId, "groupId");
            if (maxPollRecords < 1) throw new IllegalArgumentException("maxPollRecords must be >= 1: " + maxPollRecords);
            if (maxBackoff.compareTo(FIRST_BACKOFF) < 0) {
                throw new IllegalArgumentException("maxBackoff must be at least " + FIRST_BACKOFF + ": " + maxBackoff);
            }
            clientProperties = Map.copyOf(clientProperties);
        }

        /** Up to 2000 results at once, polls of 500 ms, tries of a failing recorder at most 10 s apart. */
        public static Config of(String bootstrapServers, String topic, String groupId) {
            return new Config(bootstrapServers, topic, groupId, 2000, Duration.ofMillis(500), Duration.ofSeconds(10),
                    Map.of());
        }

        public Config withMaxBackoff(Duration maxBackoff) {
            return new Config(bootstrapServers, topic, groupId, maxPollRecords, pollWait, maxBackoff, clientProperties);
        }
    }

    private final Config config;
    private final Consumer<List<TaskResult>> recorder;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread thread;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closing = new AtomicBoolean();
    /** Counted down on close: cuts a backoff short. */
    private final CountDownLatch closed = new CountDownLatch(1);

    /** Connects; consumes once {@link #start} is called. */
    public KafkaResultConsumer(Config config, Consumer<List<TaskResult>> recorder) {
        this.config = config;
        this.recorder = Objects.requireNonNull(recorder, "recorder");
        this.consumer = new KafkaConsumer<>(consumerProperties(config), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        this.thread = Thread.ofPlatform().name("kafka-results-" + config.groupId()).daemon().unstarted(this::run);
    }

    private static Properties consumerProperties(Config config) {
        Properties p = KafkaClients.common(config.bootstrapServers(), config.clientProperties());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(config.maxPollRecords()));
        // Results are small (~200 bytes): fetch in large chunks rather than one round trip per few records.
        p.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, Integer.toString(64 * 1024));
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "100");
        return p;
    }

    public Config config() {
        return config;
    }

    /** False once the consumer's thread has stopped although the consumer was started and is not closing. */
    public boolean alive() {
        return !started.get() || closing.get() || thread.isAlive();
    }

    public void start() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("already started");
        }
        thread.start();
    }

    /** Stops consuming (a batch being recorded finishes first, its offsets may stay uncommitted) and disconnects. */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        closed.countDown();
        KafkaClients.stopPolling(consumer, thread, started.get(), "result consumer");
    }

    private void run() {
        Duration backoff = FIRST_BACKOFF;
        boolean rewind = false;
        try {
            consumer.subscribe(Set.of(config.topic()));
            while (!closing.get()) {
                try {
                    if (rewind) {
                        rewind();
                        rewind = false;
                    }
                    recordBatch(consumer.poll(config.pollWait()));
                    backoff = FIRST_BACKOFF;
                } catch (WakeupException e) {
                    break;
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "recording task results failed; retrying from the last committed offsets in "
                            + backoff.toMillis() + " ms", e);
                    if (closed.await(backoff.toMillis(), TimeUnit.MILLISECONDS)) {
                        break;
                    }
                    backoff = min(backoff.multipliedBy(2), config.maxBackoff());
                    rewind = true;
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "the result consumer stopped", e);
        } finally {
            try {
                consumer.close(Duration.ofSeconds(10));
            } catch (RuntimeException e) {
                LOG.fine("result consumer close failed: " + e);
            }
        }
    }

    /** Decodes, records, then commits the batch; throws whatever the recorder or the commit throws. */
    private void recordBatch(ConsumerRecords<byte[], byte[]> records) {
        if (records.isEmpty()) {
            return;
        }
        List<TaskResult> batch = new ArrayList<>(records.count());
        Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
        for (TopicPartition partition : records.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> inPartition = records.records(partition);
            for (ConsumerRecord<byte[], byte[]> record : inPartition) {
                try {
                    batch.add(Messages.result(record.value()));
                } catch (RuntimeException e) {
                    LOG.warning("skipping unreadable task result at " + partition + " offset " + record.offset()
                            + ": " + e.getMessage());
                }
            }
            next.put(partition, new OffsetAndMetadata(inPartition.getLast().offset() + 1));
        }
        if (!batch.isEmpty()) {
            recorder.accept(batch);
        }
        consumer.commitSync(next);
    }

    /** Back to the last committed offset of every assigned partition (the start, if none was committed yet). */
    private void rewind() {
        Set<TopicPartition> assigned = consumer.assignment();
        if (assigned.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(assigned);
        List<TopicPartition> neverCommitted = new ArrayList<>();
        for (TopicPartition partition : assigned) {
            OffsetAndMetadata offset = committed.get(partition);
            if (offset == null) {
                neverCommitted.add(partition);
            } else {
                consumer.seek(partition, offset);
            }
        }
        if (!neverCommitted.isEmpty()) {
            consumer.seekToBeginning(neverCommitted);
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
