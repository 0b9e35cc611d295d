package io.tileseeder.adapters.kafka;

import io.tileseeder.message.Messages;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.port.ReleaseBackoff;
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
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.admin.Admin;
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
 * <p>Producing. {@link #offer} hands the record to the producer and returns without waiting for the broker: a
 * planner must produce 100 000 tasks a second, which one round trip per task cannot give. The producer batches
 * ({@code linger.ms}, {@code batch.size}, lz4) and stays idempotent with {@code acks=all}. The first send that
 * fails leaves the queue failed for producing: the next {@link #offer} and every {@link #flush} throw it (naming
 * the task and the cause), so a planner that records its cursor only after a successful {@code flush()} never
 * skips a task. Close such a queue and open a new one; a task produced twice is harmless (locks, bitmap).
 *
 * <p>Consumer threads. A {@code KafkaShareConsumer} is not thread-safe and its acknowledgements must be made on
 * the thread that polls, while the worker gives verdicts from its CPU and store threads. So each of the
 * {@code consumers} share consumers of an instance has a thread of its own: it fetches records, hands them to
 * {@link #poll} through the one bounded hand-off queue, and applies the verdicts the {@link TaskDelivery} objects
 * it fetched post to its own verdict queue ({@code acknowledge(record, type)} then {@code commitAsync()}; the
 * record, not its topic/partition/offset, which the client refuses for a record in flight).
 *
 * <p>Explicit acknowledgement, as the 4.4 client behaves: {@code poll()} throws {@code IllegalStateException("All
 * records must be acknowledged in explicit acknowledgement mode.")} while any record the previous poll returned
 * has no acknowledgement. So a consumer thread polls Kafka again only once every record it holds has a verdict
 * (a RENEW counts), and {@code share.acquire.mode=record_limit} makes {@code max.poll.records} a strict bound on a
 * batch (the default {@code batch_optimized} may return whole log batches beyond it). Records in flight (handed
 * off or with a worker, no verdict yet) are therefore at most {@code consumers × maxPollRecords}. The cost: the
 * slowest task of a batch holds back that consumer's next fetch; the other consumers keep fetching, which is why
 * an instance has several.
 *
 * <p>RELEASE waits out a backoff first ({@link ReleaseBackoff}: 0.1 s doubling per delivery, at most 5 s, as in the
 * embedded queue) on one small scheduler thread, so a task failing for a transient reason does not spin through
 * the workers. The record stays acquired meanwhile: the backoff is far below the share group's record lock
 * duration ({@code group.share.record.lock.duration.ms}, 30 s by default), and scheduled releases are bounded by
 * the records in flight.
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
     * @param maxPollRecords   records one consumer fetches at once, and so the bound on its records in flight
     * @param consumers        share consumers (each with a thread) in this instance; records in flight are at most
     *                         {@code consumers × maxPollRecords}; 0 for a queue that only produces (a coordinator)
     * @param producerMaxBlock how long {@link #offer} may wait for metadata or buffer room ({@code max.block.ms});
     *                         it waits at most this, whatever timeout it is given
     * @param fetchWait        how long a consumer thread's {@code poll()} waits for records
     * @param clientProperties extra client settings (security, client id, ...) for producer, consumers and admin
     */
    public record Config(String bootstrapServers, String topic, String groupId, int partitions, int maxPollRecords,
                         int consumers, Duration producerMaxBlock, Duration fetchWait,
                         Map<String, String> clientProperties) {

        public Config {
            Objects.requireNonNull(bootstrapServers, "bootstrapServers");
            Objects.requireNonNull(topic, "topic");
            Objects.requireNonNull(groupId, "groupId");
            if (partitions < 1) throw new IllegalArgumentException("partitions must be >= 1: " + partitions);
            if (maxPollRecords < 1) throw new IllegalArgumentException("maxPollRecords must be >= 1: " + maxPollRecords);
            if (consumers < 0) throw new IllegalArgumentException("consumers must be >= 0: " + consumers);
            clientProperties = Map.copyOf(clientProperties);
        }

        public static Config defaults(String bootstrapServers) {
            return new Config(bootstrapServers, DEFAULT_TOPIC, DEFAULT_GROUP, 12, 16, 4, Duration.ofSeconds(1),
                    Duration.ofMillis(100), Map.of());
        }

        public Config withTopic(String topic) {
            return new Config(bootstrapServers, topic, groupId, partitions, maxPollRecords, consumers,
                    producerMaxBlock, fetchWait, clientProperties);
        }

        public Config withGroupId(String groupId) {
            return new Config(bootstrapServers, topic, groupId, partitions, maxPollRecords, consumers,
                    producerMaxBlock, fetchWait, clientProperties);
        }

        public Config withPartitions(int partitions) {
            return new Config(bootstrapServers, topic, groupId, partitions, maxPollRecords, consumers,
                    producerMaxBlock, fetchWait, clientProperties);
        }

        public Config withMaxPollRecords(int maxPollRecords) {
            return new Config(bootstrapServers, topic, groupId, partitions, maxPollRecords, consumers,
                    producerMaxBlock, fetchWait, clientProperties);
        }

        public Config withConsumers(int consumers) {
            return new Config(bootstrapServers, topic, groupId, partitions, maxPollRecords, consumers,
                    producerMaxBlock, fetchWait, clientProperties);
        }
    }

    private final Config config;
    private final KafkaProducer<String, byte[]> producer;
    /** The first asynchronous send that failed; from then on offer and flush throw it. */
    private final AtomicReference<RuntimeException> sendFailure = new AtomicReference<>();
    private final List<Fetcher> fetchers = new ArrayList<>();
    /** Records fetched by any consumer, not yet taken by {@link #poll}; never fuller than its capacity. */
    private final BlockingQueue<Delivery> handOff;
    /** Applies RELEASE verdicts once their backoff has passed. */
    private final ScheduledExecutorService releases;
    private final AtomicBoolean closing = new AtomicBoolean();
    /** The first consumer thread's failure; poll throws it. */
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final CountDownLatch stopped;

    /** Creates the topic and sets up the group if needed, then connects the producer and the consumers. */
    public KafkaTaskQueue(Config config) {
        this.config = config;
        try (Admin admin = admin(config)) {
            prepare(admin, config.topic(), config.partitions(), config.groupId());
        }
        this.handOff = new ArrayBlockingQueue<>(Math.max(1, config.consumers() * config.maxPollRecords()));
        this.stopped = new CountDownLatch(config.consumers());
        this.producer = new KafkaProducer<>(producerProperties(config), new StringSerializer(), new ByteArraySerializer());
        this.releases = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("kafka-task-release-" + config.groupId()).daemon().factory());
        try {
            for (int i = 0; i < config.consumers(); i++) {
                fetchers.add(new Fetcher(i));
            }
        } catch (RuntimeException e) {
            fetchers.forEach(f -> f.consumer.close(Duration.ZERO));
            releases.shutdownNow();
            producer.close(Duration.ZERO);
            throw e;
        }
        fetchers.forEach(f -> f.thread.start());
    }

    public Config config() {
        return config;
    }

    // ---------------------------------------------------------------- admin helpers

    public static Admin admin(Config config) {
        return KafkaClients.admin(config.bootstrapServers(), config.clientProperties());
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

    private static Properties consumerProperties(Config config, int index) {
        Properties p = KafkaClients.common(config.bootstrapServers(), config.clientProperties());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
        p.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "seeder-tasks-" + config.groupId() + "-" + index);
        p.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        p.put(ConsumerConfig.SHARE_ACQUIRE_MODE_CONFIG, "record_limit");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(config.maxPollRecords()));
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
        if (fetchers.isEmpty()) {
            throw new IllegalStateException("this task queue only produces (it was made with 0 consumers)");
        }
        Delivery next = handOff.poll(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
        if (next == null) {
            ensureOpen();
            return Optional.empty();
        }
        return Optional.of(next);
    }

    /** Why a share consumer of this queue stopped while the queue is open; empty while they all run. */
    public Optional<String> consumerFailure() {
        Throwable failed = failure.get();
        return failed == null || closing.get() ? Optional.empty() : Optional.of(String.valueOf(failed));
    }

    private void ensureOpen() {
        Throwable failed = failure.get();
        if (failed != null) {
            throw new IllegalStateException("a Kafka task consumer failed: " + failed, failed);
        }
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
        // Releases still waiting are dropped: each consumer thread releases what it holds as it stops.
        releases.shutdownNow();
        // No wakeup(): the consumer threads see the flag within fetchWait, and a pending wakeup would abort the
        // commit that gives back the records they hold.
        try {
            if (!stopped.await(30, TimeUnit.SECONDS)) {
                LOG.warning("the Kafka task consumer threads did not stop within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(10));
    }

    // ---------------------------------------------------------------- consumer threads

    private record Key(String topic, int partition, long offset) {
        static Key of(ConsumerRecord<?, ?> r) {
            return new Key(r.topic(), r.partition(), r.offset());
        }
    }

    private record Verdict(Delivery delivery, AcknowledgeType type) {
    }

    /** Per record held (from fetch to final verdict): owned by its consumer thread. */
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

    /** One share consumer, its thread, and the verdicts for the records it fetched. */
    private final class Fetcher {
        final KafkaShareConsumer<String, byte[]> consumer;
        /** Verdicts posted by any thread for this consumer's records, applied by its thread. */
        final BlockingQueue<Verdict> verdicts;
        final Thread thread;

        Fetcher(int index) {
            this.consumer = new KafkaShareConsumer<>(consumerProperties(config, index), new StringDeserializer(),
                    new ByteArrayDeserializer());
            // A delivery posts at most a few verdicts (renews, then one final one); the thread drains them.
            this.verdicts = new ArrayBlockingQueue<>(Math.max(64, config.maxPollRecords() * 4));
            this.thread = Thread.ofPlatform().name("kafka-task-queue-" + config.groupId() + "-" + index).daemon()
                    .unstarted(this::run);
        }

        private void run() {
            Map<Key, Held> held = new HashMap<>();
            List<Verdict> batch = new ArrayList<>();
            try {
                consumer.subscribe(Set.of(config.topic()));
                while (!closing.get()) {
                    boolean mayPoll = held.values().stream().allMatch(h -> h.acknowledged);
                    // Verdicts first: while records wait for theirs, sleep on the verdict queue, not on Kafka.
                    Verdict first = mayPoll ? verdicts.poll()
                            : verdicts.poll(config.fetchWait().toMillis(), TimeUnit.MILLISECONDS);
                    if (first != null) {
                        batch.add(first);
                        verdicts.drainTo(batch);
                        apply(batch, held);
                        batch.clear();
                        continue;
                    }
                    if (mayPoll) {
                        fetch(held);
                    }
                }
            } catch (WakeupException e) {
                if (!closing.get()) {
                    failure.compareAndSet(null, e);
                }
            } catch (InterruptedException e) {
                failure.compareAndSet(null, e);
            } catch (Throwable e) {
                LOG.log(Level.SEVERE, "a Kafka task consumer failed", e);
                failure.compareAndSet(null, e);
            } finally {
                shutDown(held);
            }
        }

        private void fetch(Map<Key, Held> held) {
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
                held.put(key, new Held(delivery, record));
                if (!handOff.offer(delivery)) {
                    // Cannot happen while each consumer holds at most maxPollRecords; stay bounded regardless.
                    consumer.acknowledge(record, AcknowledgeType.RELEASE);
                    held.remove(key);
                    delivery.done.set(true);
                }
            }
        }

        /** A record that is not a readable task is rejected at once (a poison message must not come back). */
        private Delivery decode(ConsumerRecord<String, byte[]> record, Key key) {
            try {
                MetatileTask task = Messages.task(record.value());
                return new Delivery(this, task, record.deliveryCount().map(Short::intValue).orElse(1), key);
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
                    // The acquisition lock ran out (the broker made the record available again): nothing to do
                    // here, the record comes back with a higher delivery count.
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
                // Give back what this consumer holds, so other workers get it at once instead of after the lock
                // times out.
                for (Held h : held.values()) {
                    h.delivery.done.set(true);
                    if (!h.acknowledged) {
                        try {
                            consumer.acknowledge(h.record, AcknowledgeType.RELEASE);
                        } catch (RuntimeException ignored) {
                            // lock already gone
                        }
                    }
                }
                handOff.removeIf(d -> d.fetcher == this);
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

        /** Queues a verdict for this consumer's thread. */
        void post(Delivery delivery, AcknowledgeType type) {
            try {
                if (!verdicts.offer(new Verdict(delivery, type), 30, TimeUnit.SECONDS) && !closing.get()) {
                    throw new IllegalStateException("the Kafka task consumer took no verdict for 30 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                // Not applied: the record's acquisition lock runs out and it is delivered again.
            }
        }
    }

    /** A delivered task; its verdicts go to the consumer thread that fetched it. */
    private final class Delivery implements TaskDelivery {
        private final Fetcher fetcher;
        private final MetatileTask task;
        private final int deliveryCount;
        private final Key key;
        private final AtomicBoolean done = new AtomicBoolean();

        Delivery(Fetcher fetcher, MetatileTask task, int deliveryCount, Key key) {
            this.fetcher = fetcher;
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
            if (decide()) {
                fetcher.post(this, AcknowledgeType.ACCEPT);
            }
        }

        /** Released after {@link ReleaseBackoff#after}; until then the record stays acquired by this instance. */
        @Override
        public void release() {
            if (!decide()) {
                return;
            }
            try {
                releases.schedule(() -> fetcher.post(this, AcknowledgeType.RELEASE),
                        ReleaseBackoff.after(deliveryCount).toNanos(), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                // Closing: the consumer thread releases what it still holds as it stops.
            }
        }

        @Override
        public void reject() {
            if (decide()) {
                fetcher.post(this, AcknowledgeType.REJECT);
            }
        }

        @Override
        public void renew() {
            if (!done.get()) {
                fetcher.post(this, AcknowledgeType.RENEW);
            }
        }

        /** True for the first final verdict; false if already decided (or the queue closed and gave it back). */
        private boolean decide() {
            return done.compareAndSet(false, true);
        }

        @Override
        public String toString() {
            return "task " + task.jobId() + "#" + task.seq() + " (" + key + ", delivery " + deliveryCount + ")";
        }
    }
}
