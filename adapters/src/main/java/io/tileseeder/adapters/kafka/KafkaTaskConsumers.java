package io.tileseeder.adapters.kafka;

import io.tileseeder.message.Messages;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.port.ReleaseBackoff;
import io.tileseeder.port.TaskDelivery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The consuming side of a {@link KafkaTaskQueue}: its share consumers, each polling on a thread of its own, and the
 * verdicts the worker gives on the tasks they fetched.
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
 */
final class KafkaTaskConsumers implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(KafkaTaskConsumers.class.getName());

    private final KafkaTaskQueue.Config config;
    private final List<Fetcher> fetchers = new ArrayList<>();
    /** Records fetched by any consumer, not yet taken by {@link #poll}; never fuller than its capacity. */
    private final BlockingQueue<Delivery> handOff;
    /** Applies RELEASE verdicts once their backoff has passed. */
    private final ScheduledExecutorService releases;
    private final AtomicBoolean closing = new AtomicBoolean();
    /** The first consumer thread's failure; poll throws it. */
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final CountDownLatch stopped;

    /** Connects {@code config.consumers()} share consumers (none for a queue that only produces); not started yet. */
    KafkaTaskConsumers(KafkaTaskQueue.Config config) {
        this.config = config;
        this.handOff = new ArrayBlockingQueue<>(Math.max(1, config.consumers() * config.maxPollRecords()));
        this.stopped = new CountDownLatch(config.consumers());
        this.releases = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("kafka-task-release-" + config.groupId()).daemon().factory());
        try {
            for (int i = 0; i < config.consumers(); i++) {
                fetchers.add(new Fetcher(i));
            }
        } catch (RuntimeException e) {
            fetchers.forEach(f -> f.consumer.close(Duration.ZERO));
            releases.shutdownNow();
            throw e;
        }
    }

    /** Starts the consumer threads. */
    void start() {
        fetchers.forEach(f -> f.thread.start());
    }

    /**
     * One share consumer per thread, acknowledging each record explicitly, with {@code max.poll.records} a strict
     * bound on what it holds (see the class comment).
     */
    private static Properties consumerProperties(KafkaTaskQueue.Config config, int index) {
        Properties p = KafkaClients.common(config.bootstrapServers(), config.clientProperties());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
        p.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "seeder-tasks-" + config.groupId() + "-" + index);
        p.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        p.put(ConsumerConfig.SHARE_ACQUIRE_MODE_CONFIG, "record_limit");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(config.maxPollRecords()));
        return p;
    }

    /** The next task fetched by any consumer, waiting at most {@code timeout}; empty if none came. */
    Optional<TaskDelivery> poll(Duration timeout) throws InterruptedException {
        if (fetchers.isEmpty()) {
            throw new IllegalStateException("this task queue only produces (it was made with 0 consumers)");
        }
        return Optional.ofNullable(handOff.poll(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS));
    }

    /** Why a share consumer stopped while they are open; empty while they all run. */
    Optional<String> failure() {
        Throwable failed = failure.get();
        return failed == null || closing.get() ? Optional.empty() : Optional.of(String.valueOf(failed));
    }

    /** Throws the first consumer thread's failure, if one failed. */
    void throwFailure() {
        Throwable failed = failure.get();
        if (failed != null) {
            throw new IllegalStateException("a Kafka task consumer failed: " + failed, failed);
        }
    }

    /** Gives back every task the consumers hold (a RELEASE still in its backoff at once) and stops them. */
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
    }

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
