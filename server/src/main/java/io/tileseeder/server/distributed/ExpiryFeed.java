package io.tileseeder.server.distributed;

import io.micrometer.core.instrument.MeterRegistry;
import io.tileseeder.adapters.kafka.KafkaClients;
import io.tileseeder.adapters.kafka.KafkaTopics;
import io.tileseeder.coordinator.expiry.ExpiryReseeds;
import io.tileseeder.coordinator.expiry.ExpirySettings;
import io.tileseeder.job.JobLimits;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.runtime.distributed.ClusterSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the tile-expiry topic into {@link ExpiryReseeds} on one thread: an ordinary consumer group of the coordinators
 * (each merges the events of its partitions). A partition's offset is committed up to the first event still held in
 * a batch not submitted, so a coordinator that dies reads those events again. While a batch waits after a refusal
 * (the job queue full, Redis down), its partitions are paused: the events wait in Kafka, not in memory.
 */
public final class ExpiryFeed implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ExpiryFeed.class.getName());
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration BACKOFF = Duration.ofSeconds(5);
    /** Events are small; a poll hands at most these many to the merger. */
    private static final int MAX_POLL_RECORDS = 500;

    private final String topic;
    private final ExpiryReseeds reseeds;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread thread;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closing = new AtomicBoolean();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Map<TopicPartition, Long> committed = new HashMap<>();

    ExpiryFeed(String bootstrap, String topic, String groupId, ExpiryReseeds reseeds) {
        this.topic = topic;
        this.reseeds = reseeds;
        Properties p = KafkaClients.common(bootstrap, Map.of());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(MAX_POLL_RECORDS));
        this.consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.thread = Thread.ofPlatform().name("kafka-tile-expiry").daemon().unstarted(this::run);
    }

    /**
     * Reads the tile-expiry topic of {@code cluster} (created if missing) into reseed jobs submitted through
     * {@code submitter}; started.
     */
    public static ExpiryFeed open(ClusterSettings cluster, ExpiryReseeds.Submitter submitter, LayerCatalog layers,
                                  JobLimits limits, MeterRegistry registry) {
        try (Admin admin = KafkaClients.admin(cluster.kafkaBootstrap(), Map.of())) {
            KafkaTopics.ensureTopic(admin, cluster.expiryTopic(), cluster.partitions());
        }
        ClusterSettings.Expiry expiry = cluster.expiry();
        ExpiryFeed feed = new ExpiryFeed(cluster.kafkaBootstrap(), cluster.expiryTopic(),
                cluster.coordinatorGroup() + "-expiry", new ExpiryReseeds(submitter, layers, limits,
                        new ExpirySettings(expiry.window(), expiry.maxBatches(), expiry.priority()), Clock.systemUTC(),
                        registry));
        feed.start();
        return feed;
    }

    void start() {
        if (started.compareAndSet(false, true)) {
            thread.start();
        }
    }

    /** False once the thread stopped although the feed was started and is not closing. */
    public boolean alive() {
        return !started.get() || closing.get() || thread.isAlive();
    }

    private void run() {
        try {
            consumer.subscribe(Set.of(topic));
            while (!closing.get()) {
                try {
                    if (reseeds.waiting()) {
                        consumer.pause(consumer.assignment());
                    } else {
                        consumer.resume(consumer.paused());
                    }
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                        reseeds.add(record.value(), record.topic() + "-" + record.partition(), record.offset());
                    }
                    reseeds.submitDue();
                    commit();
                } catch (WakeupException e) {
                    break;
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "reading tile-expiry events failed; trying again in " + BACKOFF.toSeconds()
                            + " s", e);
                    if (closed.await(BACKOFF.toMillis(), TimeUnit.MILLISECONDS)) {
                        break;
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                consumer.close(Duration.ofSeconds(10));
            } catch (RuntimeException e) {
                LOG.fine("tile-expiry consumer close failed: " + e);
            }
        }
    }

    /** Commits each assigned partition up to its first held event, or to where it was read. */
    private void commit() {
        Map<String, Long> held = reseeds.held();
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition partition : consumer.assignment()) {
            long offset = held.getOrDefault(partition.topic() + "-" + partition.partition(),
                    consumer.position(partition));
            if (!Long.valueOf(offset).equals(committed.get(partition))) {
                offsets.put(partition, new OffsetAndMetadata(offset));
            }
        }
        if (!offsets.isEmpty()) {
            consumer.commitSync(offsets);
            offsets.forEach((partition, offset) -> committed.put(partition, offset.offset()));
        }
    }

    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        closed.countDown();
        KafkaClients.stopPolling(consumer, thread, started.get(), "tile-expiry consumer");
    }
}
