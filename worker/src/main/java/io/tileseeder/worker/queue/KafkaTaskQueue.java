package io.tileseeder.worker.queue;

import io.tileseeder.message.Messages;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.port.TaskDelivery;
import io.tileseeder.port.TaskQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The task queue on Kafka: tasks are produced to a topic (key: the metatile's identity) and consumed through a
 * share group ({@link KafkaShareConsumer}, explicit acknowledgement), so workers scale past the partition count
 * and each task gets its own verdict.
 *
 * <p>Threads. A {@code KafkaShareConsumer} is not thread-safe and its acknowledgements must be made on the thread
 * that polls, while the worker gives verdicts from its CPU and store threads. So one internal thread owns the
 * consumer: it fetches records, hands them to {@link #poll} through a bounded queue, and applies the verdicts the
 * {@link TaskDelivery} objects post to a bounded verdict queue ({@code acknowledge(record, type)} then
 * {@code commitAsync()}; the record, not its topic/partition/offset, which the client refuses for a record in
 * flight).
 *
 * <p>Explicit acknowledgement, as the 4.4 client behaves: {@code poll()} throws {@code IllegalStateException("All
 * records must be acknowledged in explicit acknowledgement mode.")} while any record the previous poll returned
 * has no acknowledgement. So the consumer thread polls Kafka again only once every record it holds has a verdict
 * (a RENEW counts), and {@code share.acquire.mode=record_limit} makes {@code max.poll.records} a strict bound on a
 * batch (the default {@code batch_optimized} may return whole log batches beyond it). Records in flight (handed
 * off or with a worker, no verdict yet) are therefore at most {@code max.poll.records}. The cost: the slowest
 * task of a batch holds back the next fetch; run several queue instances (consumers) per worker, or a small batch,
 * to keep the CPU busy.
 *
 * <p>RENEW ({@code AcknowledgeType.RENEW}, KIP-1222, in the 4.4 client) extends the record's acquisition lock; the
 * client then hands the renewed record back in a later {@code poll()} (KAFKA-20458), where it again needs a
 * verdict. The consumer thread recognises it by topic, partition and offset and does not hand it to the worker a
 * second time: the worker's delivery object stays the one that gives the final verdict.
 *
 * <p>The share group must start at the earliest offset ({@code share.auto.offset.reset=earliest}, a group config
 * set through the Admin API; the consumer refuses {@code auto.offset.reset}), or tasks produced before the first
 * worker joined are never delivered. {@link #prepare} does this and creates the topic.
 */
public final class KafkaTaskQueue implements TaskQueue, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(KafkaTaskQueue.class.getName());

    public static final String DEFAULT_TOPIC = "seeder.tasks";
    public static final String DEFAULT_GROUP = "seeder-workers";

    /**
     * Settings.
     *
     * @param maxPollRecords records fetched at once, and so the bound on records in flight in this instance
     * @param producerMaxBlock how long {@code send} may wait for metadata or buffer room ({@code max.block.ms});
     *                         {@link #offer} waits for it at most its timeout or this, whichever is larger
     * @param fetchWait        how long the consumer thread's {@code poll()} waits for records
     * @param clientProperties extra client settings (security, client id, ...) for producer, consumer and admin
     */
    public record Config(String bootstrapServers, String topic, String groupId, int partitions, int maxPollRecords,
                         Duration producerMaxBlock, Duration fetchWait, Map<String, String> clientProperties) {

        public Config {
            Objects.requireNonNull(bootstrapServers, "bootstrapServers");
            Objects.requireNonNull(topic, "topic");
            Objects.requireNonNull(groupId, "groupId");
            if (partitions < 1) throw new IllegalArgumentException("partitions must be >= 1: " + partitions);
            if (maxPollRecords < 1) throw new IllegalArgumentException("maxPollRecords must be >= 1: " + maxPollRecords);
            clientProperties = Map.copyOf(clientProperties);
        }

        public static Config defaults(String bootstrapServers) {
            return new Config(bootstrapServers, DEFAULT_TOPIC, DEFAULT_GROUP, 12, 16, Duration.ofSeconds(1),
                    Duration.ofMillis(100), Map.of());
        }

        public Config withTopic(String topic) {
            return new Config(bootstrapServers, topic, groupId, partitions, maxPollRecords, producerMaxBlock,
                    fetchWait, clientProperties);
        }

        public Config withGroupId(String groupId) {
            return new Config(bootstrapServers, topic, groupId, partitions, maxPollRecords, producerMaxBlock,
                    fetchWait, clientProperties);
        }

        public Config withPartitions(int partitions) {
            return new Config(bootstrapServers, topic, groupId, partitions, maxPollRecords, producerMaxBlock,
                    fetchWait, clientProperties);
        }

        public Config withMaxPollRecords(int maxPollRecords) {
            return new Config(bootstrapServers, topic, groupId, partitions, maxPollRecords, producerMaxBlock,
                    fetchWait, clientProperties);
        }
    }

    private final Config config;
    private final KafkaProducer<String, byte[]> producer;
    private final KafkaShareConsumer<String, byte[]> consumer;
    /** Records fetched, not yet taken by {@link #poll}; never fuller than {@code maxPollRecords}. */
    private final BlockingQueue<Delivery> handOff;
    /** Verdicts posted by any thread, applied by the consumer thread. */
    private final BlockingQueue<Verdict> verdicts;
    private final Thread consumerThread;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final CountDownLatch stopped = new CountDownLatch(1);

    /** Creates the topic and sets up the group if needed, then connects producer and consumer. */
    public KafkaTaskQueue(Config config) {
        this.config = config;
        try (Admin admin = admin(config)) {
            prepare(admin, config.topic(), config.partitions(), config.groupId());
        }
        this.handOff = new ArrayBlockingQueue<>(config.maxPollRecords());
        // A delivery posts at most a few verdicts (renews, then one final one); the consumer thread drains them.
        this.verdicts = new ArrayBlockingQueue<>(Math.max(64, config.maxPollRecords() * 4));
        this.producer = new KafkaProducer<>(producerProperties(config), new StringSerializer(), new ByteArraySerializer());
        try {
            this.consumer = new KafkaShareConsumer<>(consumerProperties(config), new StringDeserializer(),
                    new ByteArrayDeserializer());
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw e;
        }
        this.consumerThread = Thread.ofPlatform().name("kafka-task-queue-" + config.groupId()).daemon()
                .unstarted(this::runConsumer);
        consumerThread.start();
    }

    public Config config() {
        return config;
    }

    // ---------------------------------------------------------------- admin helpers

    public static Admin admin(Config config) {
        Properties p = new Properties();
        p.putAll(config.clientProperties());
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        return Admin.create(p);
    }

    /** Creates the topic and makes the share group start at the earliest offset; both idempotent. */
    public static void prepare(Admin admin, String topic, int partitions, String groupId) {
        ensureTopic(admin, topic, partitions);
        startAtEarliest(admin, groupId);
    }

    /** Creates {@code name} with {@code partitions} partitions unless it exists (then leaves it as it is). */
    public static void ensureTopic(Admin admin, String name, int partitions) {
        try {
            if (admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(name)) {
                return;
            }
            admin.createTopics(List.of(new NewTopic(name, Optional.of(partitions), Optional.empty())))
                    .all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new KafkaException("cannot create topic " + name + ": " + e.getCause().getMessage(), e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        } catch (TimeoutException e) {
            throw new KafkaException("no answer creating topic " + name + " within 30 s", e);
        }
    }

    /**
     * Sets the group config {@code share.auto.offset.reset=earliest}: a share group starts at the partitions' end
     * by default, which would skip the tasks produced before the first worker joined. Must happen before the
     * group first fetches a partition (the start offset is fixed then).
     */
    public static void startAtEarliest(Admin admin, String groupId) {
        try {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, groupId),
                    List.of(new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"),
                            AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new KafkaException("cannot configure share group " + groupId + ": " + e.getCause().getMessage(),
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        } catch (TimeoutException e) {
            throw new KafkaException("no answer configuring share group " + groupId + " within 30 s", e);
        }
    }

    private static Properties producerProperties(Config config) {
        Properties p = new Properties();
        p.putAll(config.clientProperties());
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(config.producerMaxBlock().toMillis()));
        return p;
    }

    private static Properties consumerProperties(Config config) {
        Properties p = new Properties();
        p.putAll(config.clientProperties());
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
        p.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        p.put(ConsumerConfig.SHARE_ACQUIRE_MODE_CONFIG, "record_limit");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(config.maxPollRecords()));
        return p;
    }

    // ---------------------------------------------------------------- TaskQueue

    @Override
    public boolean offer(MetatileTask task, Duration timeout) throws InterruptedException {
        ensureOpen();
        long deadline = System.nanoTime() + Math.max(0, timeout.toNanos());
        Future<RecordMetadata> sent;
        try {
            sent = producer.send(new ProducerRecord<>(config.topic(), task.metatileKey(), Messages.toJson(task)));
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            return false; // no metadata or no buffer room within max.block.ms
        }
        try {
            sent.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            // Not acknowledged in time. The record may still arrive; a duplicated task is harmless (locks, bitmap).
            return false;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException) {
                return false;
            }
            throw new KafkaException("cannot produce task " + task.jobId() + "#" + task.seq() + " to "
                    + config.topic() + ": " + e.getCause().getMessage(), e.getCause());
        }
    }

    @Override
    public Optional<TaskDelivery> poll(Duration timeout) throws InterruptedException {
        ensureOpen();
        Delivery next = handOff.poll(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
        if (next == null) {
            ensureOpen();
            return Optional.empty();
        }
        return Optional.of(next);
    }

    private void ensureOpen() {
        Throwable failed = failure.get();
        if (failed != null) {
            throw new IllegalStateException("the Kafka task consumer failed: " + failed, failed);
        }
        if (closing.get()) {
            throw new IllegalStateException("the task queue is closed");
        }
    }

    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        // No wakeup(): the consumer thread sees the flag within fetchWait, and a pending wakeup would abort the
        // commit that gives back the records it holds.
        try {
            if (!stopped.await(30, TimeUnit.SECONDS)) {
                LOG.warning("the Kafka task consumer thread did not stop within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(10));
    }

    // ---------------------------------------------------------------- consumer thread

    private record Key(String topic, int partition, long offset) {
        static Key of(ConsumerRecord<?, ?> r) {
            return new Key(r.topic(), r.partition(), r.offset());
        }
    }

    private record Verdict(Delivery delivery, AcknowledgeType type) {
    }

    /** Per record held (from fetch to final verdict): owned by the consumer thread. */
    private static final class Held {
        final Delivery delivery;
        /**
         * The record as last returned by poll(): acknowledge(record, type) is the way for a record in flight (the
         * topic/partition/offset overload answers "The record cannot be acknowledged." for it: it is meant for
         * records that could not be deserialized).
         */
        ConsumerRecord<String, byte[]> record;
        /** Has an acknowledgement since the last poll returned it (the client's gate for the next poll). */
        boolean acknowledged;

        Held(Delivery delivery, ConsumerRecord<String, byte[]> record) {
            this.delivery = delivery;
            this.record = record;
        }
    }

    private void runConsumer() {
        Map<Key, Held> held = new HashMap<>();
        List<Verdict> batch = new ArrayList<>();
        try {
            consumer.subscribe(Set.of(config.topic()));
            while (!closing.get()) {
                boolean mayPoll = held.values().stream().allMatch(h -> h.acknowledged);
                // Verdicts first: while records wait for theirs, sleep on the verdict queue, not on Kafka.
                Verdict first = mayPoll ? verdicts.poll() : verdicts.poll(config.fetchWait().toMillis(), TimeUnit.MILLISECONDS);
                if (first != null) {
                    batch.add(first);
                    verdicts.drainTo(batch);
                    apply(batch, held);
                    batch.clear();
                    continue;
                }
                if (!mayPoll) {
                    continue;
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(config.fetchWait())) {
                    Key key = Key.of(record);
                    Held known = held.get(key);
                    if (known != null) {
                        known.acknowledged = false; // a renewed record handed back: it needs a verdict again
                        known.record = record;
                        continue;
                    }
                    Delivery delivery = decode(record, key);
                    if (delivery == null) {
                        continue;
                    }
                    Held h = new Held(delivery, record);
                    held.put(key, h);
                    if (!handOff.offer(delivery)) {
                        // Cannot happen while batches are at most maxPollRecords; stay bounded regardless.
                        consumer.acknowledge(record, AcknowledgeType.RELEASE);
                        held.remove(key);
                        delivery.done.set(true);
                    }
                }
            }
        } catch (WakeupException e) {
            if (!closing.get()) {
                failure.compareAndSet(null, e);
            }
        } catch (InterruptedException e) {
            failure.compareAndSet(null, e);
        } catch (Throwable e) {
            LOG.log(Level.SEVERE, "the Kafka task consumer failed", e);
            failure.compareAndSet(null, e);
        } finally {
            shutDown(held);
        }
    }

    /** A record that is not a readable task is rejected at once (a poison message must not come back). */
    private Delivery decode(ConsumerRecord<String, byte[]> record, Key key) {
        try {
            MetatileTask task = Messages.task(record.value());
            return new Delivery(task, record.deliveryCount().map(Short::intValue).orElse(1), key);
        } catch (RuntimeException e) {
            LOG.warning("rejecting unreadable task record " + key + ": " + e.getMessage());
            consumer.acknowledge(record, AcknowledgeType.REJECT);
            consumer.commitAsync();
            return null;
        }
    }

    private void apply(List<Verdict> batch, Map<Key, Held> held) {
        for (Verdict v : batch) {
            Key key = v.delivery().key;
            Held h = held.get(key);
            if (h == null || h.delivery != v.delivery()) {
                continue; // closed meanwhile, or a stale delivery
            }
            try {
                consumer.acknowledge(h.record, v.type());
            } catch (IllegalStateException e) {
                // The acquisition lock ran out (the broker made the record available again): nothing to do here,
                // the record comes back with a higher delivery count.
                LOG.warning("cannot acknowledge " + key + " as " + v.type() + ": " + e.getMessage());
                held.remove(key);
                continue;
            }
            if (v.type() == AcknowledgeType.RENEW) {
                h.acknowledged = true;
            } else {
                held.remove(key);
            }
        }
        consumer.commitAsync();
    }

    private void shutDown(Map<Key, Held> held) {
        try {
            // Give back what this instance holds, so other workers get it at once instead of after the lock times out.
            for (Map.Entry<Key, Held> e : held.entrySet()) {
                e.getValue().delivery.done.set(true);
                if (!e.getValue().acknowledged) {
                    try {
                        consumer.acknowledge(e.getValue().record, AcknowledgeType.RELEASE);
                    } catch (RuntimeException ignored) {
                        // lock already gone
                    }
                }
            }
            handOff.clear();
            try {
                consumer.commitSync(Duration.ofSeconds(5));
            } catch (RuntimeException e) {
                LOG.fine("commit on close failed: " + e);
            }
        } finally {
            try {
                consumer.close(Duration.ofSeconds(10));
            } catch (RuntimeException e) {
                LOG.fine("consumer close failed: " + e);
            }
            stopped.countDown();
        }
    }

    /** A delivered task; its verdicts go to the consumer thread. */
    private final class Delivery implements TaskDelivery {
        private final MetatileTask task;
        private final int deliveryCount;
        private final Key key;
        private final AtomicBoolean done = new AtomicBoolean();

        Delivery(MetatileTask task, int deliveryCount, Key key) {
            this.task = task;
            this.deliveryCount = deliveryCount;
            this.key = key;
        }

        @Override
        public MetatileTask task() {
            return task;
        }

        @Override
        public int deliveryCount() {
            return deliveryCount;
        }

        @Override
        public void accept() {
            finish(AcknowledgeType.ACCEPT);
        }

        @Override
        public void release() {
            finish(AcknowledgeType.RELEASE);
        }

        @Override
        public void reject() {
            finish(AcknowledgeType.REJECT);
        }

        @Override
        public void renew() {
            if (!done.get()) {
                post(AcknowledgeType.RENEW);
            }
        }

        private void finish(AcknowledgeType type) {
            if (!done.compareAndSet(false, true)) {
                return; // already decided (or the queue closed and gave it back)
            }
            post(type);
        }

        private void post(AcknowledgeType type) {
            try {
                if (!verdicts.offer(new Verdict(this, type), 30, TimeUnit.SECONDS) && !closing.get()) {
                    throw new IllegalStateException("the Kafka task consumer took no verdict for 30 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                // Not applied: the record's acquisition lock runs out and it is delivered again.
            }
        }

        @Override
        public String toString() {
            return "task " + task.jobId() + "#" + task.seq() + " (" + key + ", delivery " + deliveryCount + ")";
        }
    }
}
