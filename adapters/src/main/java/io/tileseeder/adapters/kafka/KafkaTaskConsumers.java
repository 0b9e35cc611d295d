package io.tileseeder.adapters.kafka;

import io.tileseeder.message.Messages;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.port.ReleaseBackoff;
import io.tileseeder.port.TaskDelivery;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.header.Header;
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
 * <p>RENEW ({@code AcknowledgeType.RENEW}, KIP-1222, in the 4.4 client) extends the record's acquisition lock. Once
 * the RENEW is committed the client takes the record out of its in-flight set until the broker has answered, and
 * refuses any acknowledgement of it meanwhile ({@code IllegalStateException("The record cannot be acknowledged.")});
 * it then hands the renewed record back in a later {@code poll()} (KAFKA-20458), where it again needs a verdict. So
 * a verdict given while a renewal is under way waits, and is applied when the record comes back; the consumer
 * thread recognises it by topic, partition and offset and does not hand it to the worker a second time.
 *
 * <p>The last delivery. A share group archives a record once its delivery count reaches the group's limit
 * ({@code group.share.delivery.count.limit}, 5 by default) and it is released or its lock runs out: a task given
 * back while closing, or held by a worker that died, would be gone, and its job would never end. So a record
 * delivered again (count 2 or more) is never handed to the worker: its task is produced anew, durably, with the
 * deliveries so far in the header {@value #EARLIER_DELIVERIES}, and the record is accepted; the new record starts
 * at count 1, far from the limit, and the worker still sees every delivery counted ({@link TaskDelivery#deliveryCount}),
 * so its own {@code max-deliveries} decides when a task has failed.
 *
 * <p>What the broker answers is read from the acknowledgement commit callback. A renewal it refused (the lock was
 * gone, the broker restarted) means the client will not hand the record back: the record is {@link State#LOST},
 * and the broker delivers it again. If it comes back to this consumer while the worker still has its task, it is
 * joined to that delivery; if the worker had finished it, or an ACCEPT or REJECT was refused, the verdict is
 * remembered (a bounded number of them) and given again when the record comes back here, so the task is processed
 * once. A record that comes back to another instance is processed there again, which is harmless (locks, bitmap).
 */
final class KafkaTaskConsumers implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(KafkaTaskConsumers.class.getName());
    /** Header of a task record produced anew: how often the task was delivered through the records before it. */
    static final String EARLIER_DELIVERIES = "seeder-earlier-deliveries";
    /** How long producing tasks anew may take before their records are released instead. */
    private static final Duration PRODUCE_AGAIN_TIMEOUT = Duration.ofSeconds(30);
    /** How often what the broker refused is told, at most. */
    private static final Duration TALLY_EVERY = Duration.ofSeconds(10);

    private final KafkaTaskQueue.Config config;
    /** Produces tasks anew (see the class comment); the queue's own producer. */
    private final Producer<String, byte[]> producer;
    private final List<Fetcher> fetchers = new ArrayList<>();
    /** Records fetched by any consumer, not yet taken by {@link #poll}; never fuller than its capacity. */
    private final BlockingQueue<Delivery> handOff;
    /** Applies RELEASE verdicts once their backoff has passed, and tells the {@link Tally}. */
    private final ScheduledExecutorService releases;
    private final AtomicBoolean closing = new AtomicBoolean();
    /** The first consumer thread's failure; poll throws it. */
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final CountDownLatch stopped;
    /**
     * Deliveries whose record the client no longer holds (a renewal the broker refused) while their task is still
     * worked on: a consumer of this instance that gets the record again joins it to them. At most the deliveries out.
     * Guards {@link #toGiveAgain} too.
     */
    private final Map<Key, Delivery> lost = new HashMap<>();
    /** ACCEPTs and REJECTs the broker could not take, given again if their record comes back to this instance. */
    private final Map<Key, Sent> toGiveAgain;
    private final Tally tally = new Tally();

    /** Connects {@code config.consumers()} share consumers (none for a queue that only produces); not started yet. */
    KafkaTaskConsumers(KafkaTaskQueue.Config config, Producer<String, byte[]> producer) {
        this.config = config;
        this.producer = producer;
        this.handOff = new ArrayBlockingQueue<>(Math.max(1, config.consumers() * config.maxPollRecords()));
        this.stopped = new CountDownLatch(config.consumers());
        this.toGiveAgain = bounded(remembered());
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
        synchronized (lost) {
            lost.values().forEach(d -> d.done.set(true));
            lost.clear();
        }
    }

    /** How many verdicts to remember for records that may come back: a few batches of every consumer's. */
    private int remembered() {
        return Math.max(256, config.consumers() * config.maxPollRecords() * 4);
    }

    /**
     * A verdict on a delivery whose record the client no longer holds ({@link #lost}, or a final verdict the broker
     * refused): a final one ends it, and an ACCEPT or REJECT is kept to give again if the record comes back here.
     * Called holding {@link #lost}.
     */
    private void settleLost(Delivery delivery, AcknowledgeType type) {
        if (type == AcknowledgeType.RENEW) {
            return;
        }
        lost.remove(delivery.key);
        if (type != AcknowledgeType.RELEASE) {
            toGiveAgain.put(delivery.key, new Sent(delivery, type));
        }
    }

    /** The task's deliveries, this one included: through earlier records of it, and through this record. */
    static int deliveries(ConsumerRecord<?, ?> record) {
        int earlier = 0;
        Header header = record.headers().lastHeader(EARLIER_DELIVERIES);
        if (header != null) {
            try {
                earlier = Math.max(0, Integer.parseInt(new String(header.value(), StandardCharsets.US_ASCII)));
            } catch (NumberFormatException e) {
                LOG.warning("ignoring the header " + EARLIER_DELIVERIES + " of " + Key.of(record) + ": " + e.getMessage());
            }
        }
        return earlier + record.deliveryCount().map(Short::intValue).orElse(1);
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
        /**
         * A RENEW is committed: the client refuses acknowledgements until it hands the record back. Otherwise the
         * record was returned by the last poll and has no acknowledgement since (the client's gate for the next one).
         */
        boolean renewing;
        /** The verdict given while renewing, applied when the record is handed back. */
        AcknowledgeType deferred;

        Held(Delivery delivery, ConsumerRecord<String, byte[]> record) {
            this.delivery = delivery;
            this.record = record;
        }
    }

    /**
     * What the broker refused and what was settled again, told in one line for each {@link #TALLY_EVERY} in which
     * any happened (an outage refuses acknowledgements in many small batches).
     */
    private final class Tally {
        private int refused;
        private int givenAgain;
        private String reason;
        private boolean told = true;

        synchronized void refused(int count, String why) {
            refused += count;
            reason = why;
            tellLater();
        }

        synchronized void givenAgain(int count) {
            givenAgain += count;
            tellLater();
        }

        private void tellLater() {
            if (told) {
                told = false;
                try {
                    releases.schedule(this::tell, TALLY_EVERY.toMillis(), TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException e) {
                    // Closing.
                }
            }
        }

        private synchronized void tell() {
            LOG.info("in the last " + TALLY_EVERY.toSeconds() + " s the broker refused " + refused
                    + " acknowledgement(s)" + (reason == null ? "" : " (" + reason + ")") + ", and " + givenAgain
                    + " record(s) came back and were given their verdict again, not processed twice");
            refused = 0;
            givenAgain = 0;
            reason = null;
            told = true;
        }
    }

    /** A final acknowledgement sent and not yet answered. */
    private record Sent(Delivery delivery, AcknowledgeType type) {
    }

    /** A map that forgets its eldest entry beyond {@code capacity}: what it remembers is an optimisation. */
    private static <K, V> Map<K, V> bounded(int capacity) {
        return new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > capacity;
            }
        };
    }

    /** One share consumer, its thread, and the verdicts for the records it fetched. */
    private final class Fetcher {
        final KafkaShareConsumer<String, byte[]> consumer;
        /** Verdicts posted by any thread for this consumer's records, applied by its thread. */
        final BlockingQueue<Verdict> verdicts;
        final Thread thread;
        /** The records this consumer holds for a delivery with no final verdict applied; only its thread uses it. */
        private final Map<Key, Held> held = new HashMap<>();
        /** Final acknowledgements sent, until the broker answers them; only its thread uses it. */
        private final Map<Key, Sent> unanswered;

        Fetcher(int index) {
            this.consumer = new KafkaShareConsumer<>(consumerProperties(config, index), new StringDeserializer(),
                    new ByteArrayDeserializer());
            // A delivery posts at most a few verdicts (renews, then one final one); the thread drains them.
            this.verdicts = new ArrayBlockingQueue<>(Math.max(64, config.maxPollRecords() * 4));
            this.unanswered = bounded(remembered());
            this.thread = Thread.ofPlatform().name("kafka-task-queue-" + config.groupId() + "-" + index).daemon()
                    .unstarted(this::run);
        }

        private void run() {
            List<Verdict> batch = new ArrayList<>();
            try {
                consumer.setAcknowledgementCommitCallback(this::answered);
                consumer.subscribe(Set.of(config.topic()));
                while (!closing.get()) {
                    boolean mayPoll = held.values().stream().allMatch(h -> h.renewing);
                    // Verdicts first: while records wait for theirs, sleep on the verdict queue, not on Kafka.
                    Verdict first = mayPoll ? verdicts.poll()
                            : verdicts.poll(config.fetchWait().toMillis(), TimeUnit.MILLISECONDS);
                    if (first != null) {
                        batch.add(first);
                        verdicts.drainTo(batch);
                        batch.forEach(this::apply);
                        batch.clear();
                        consumer.commitAsync();
                        continue;
                    }
                    if (mayPoll) {
                        fetch();
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
                shutDown();
            }
        }

        private void fetch() throws InterruptedException {
            boolean acknowledged = false;
            List<Held> again = new ArrayList<>();
            int givenAgain = 0;
            for (ConsumerRecord<String, byte[]> record : consumer.poll(config.fetchWait())) {
                Key key = Key.of(record);
                Held known = held.get(key);
                if (known != null) {
                    // A renewed record handed back.
                    known.record = record;
                    known.renewing = false;
                    AcknowledgeType deferred = known.deferred;
                    known.deferred = null;
                    if (deferred != null) {
                        acknowledge(known, deferred);
                        acknowledged = true;
                    }
                    continue;
                }
                Sent settled;
                Delivery rejoined = null;
                synchronized (lost) {
                    settled = toGiveAgain.remove(key);
                    if (settled == null) {
                        rejoined = lost.remove(key);
                        if (rejoined != null) {
                            rejoined.fetcher = this;
                        }
                    }
                }
                if (settled != null) {
                    LOG.fine(() -> settled.delivery() + " was delivered again after the broker refused its "
                            + settled.type() + "; given again, not processed twice");
                    consumer.acknowledge(record, settled.type());
                    unanswered.put(key, settled);
                    givenAgain++;
                    acknowledged = true;
                } else if (rejoined != null) {
                    Delivery d = rejoined;
                    LOG.info(() -> d + " was delivered again while its task is still being worked on; joined to it");
                    held.put(key, new Held(rejoined, record));
                } else {
                    Delivery delivery = decode(record, key);
                    if (delivery == null) {
                        acknowledged = true;
                    } else if (record.deliveryCount().orElse((short) 1) > 1) {
                        again.add(new Held(delivery, record));
                    } else if (handOff.offer(delivery)) {
                        held.put(key, new Held(delivery, record));
                    } else {
                        // Cannot happen while each consumer holds at most maxPollRecords; stay bounded regardless.
                        consumer.acknowledge(record, AcknowledgeType.RELEASE);
                        delivery.done.set(true);
                        acknowledged = true;
                    }
                }
            }
            if (givenAgain > 0) {
                tally.givenAgain(givenAgain);
            }
            if (!again.isEmpty()) {
                produceAgain(again);
                acknowledged = true;
            }
            if (acknowledged) {
                consumer.commitAsync();
            }
        }

        /**
         * Produces the tasks of records delivered again as new records, durably, then accepts the old ones; a record
         * whose task could not be produced is released (Kafka is away: it comes back, and is tried again).
         */
        private void produceAgain(List<Held> records) throws InterruptedException {
            List<Future<RecordMetadata>> sent = new ArrayList<>(records.size());
            for (Held held : records) {
                ConsumerRecord<String, byte[]> record = held.record;
                ProducerRecord<String, byte[]> copy = new ProducerRecord<>(record.topic(), record.key(), record.value());
                // This delivery of the record is not one of the task's: the worker never sees it.
                copy.headers().add(EARLIER_DELIVERIES, Integer.toString(deliveries(record) - 1)
                        .getBytes(StandardCharsets.US_ASCII));
                sent.add(producer.send(copy));
            }
            long deadline = System.nanoTime() + PRODUCE_AGAIN_TIMEOUT.toNanos();
            for (int i = 0; i < records.size(); i++) {
                Held held = records.get(i);
                try {
                    sent.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    consumer.acknowledge(held.record, AcknowledgeType.ACCEPT);
                    // Refused, the ACCEPT is given again if the record comes back: not a second new record.
                    unanswered.put(held.delivery.key, new Sent(held.delivery, AcknowledgeType.ACCEPT));
                } catch (ExecutionException | TimeoutException e) {
                    LOG.warning("cannot produce " + held.delivery + " anew, releasing its record: " + e);
                    consumer.acknowledge(held.record, AcknowledgeType.RELEASE);
                }
            }
        }

        /** A record that is not a readable task is rejected at once (a poison message must not come back). */
        private Delivery decode(ConsumerRecord<String, byte[]> record, Key key) {
            try {
                MetatileTask task = Messages.task(record.value());
                return new Delivery(this, task, deliveries(record), key);
            } catch (RuntimeException e) {
                LOG.warning("rejecting unreadable task record " + key + ": " + e.getMessage());
                consumer.acknowledge(record, AcknowledgeType.REJECT);
                return null;
            }
        }

        private void apply(Verdict v) {
            Key key = v.delivery().key;
            Held h = held.get(key);
            if (h != null && h.delivery == v.delivery()) {
                if (!h.renewing) {
                    acknowledge(h, v.type());
                } else if (h.deferred == null || h.deferred == AcknowledgeType.RENEW) {
                    // A final verdict replaces a renewal still to come; a renewal does not replace a final verdict.
                    h.deferred = v.type();
                }
                return;
            }
            Fetcher now;
            synchronized (lost) {
                if (lost.get(key) == v.delivery()) {
                    settleLost(v.delivery(), v.type());
                    return;
                }
                now = v.delivery().fetcher;
            }
            // Posted before another consumer of this instance took the record over: that one applies it. Otherwise
            // the delivery is stale (closed meanwhile, or already decided).
            if (now != this && !now.verdicts.offer(v)) {
                LOG.warning("no room to pass on the " + v.type() + " of " + v.delivery()
                        + "; its record is delivered again when its lock runs out");
            }
        }

        /** Acknowledges a record the client holds in flight (fetched, not renewing). */
        private void acknowledge(Held h, AcknowledgeType type) {
            Key key = h.delivery.key;
            try {
                consumer.acknowledge(h.record, type);
            } catch (IllegalStateException e) {
                LOG.warning("cannot acknowledge " + key + " as " + type + ": " + e.getMessage());
                lose(h, type);
                return;
            }
            if (type == AcknowledgeType.RENEW) {
                h.renewing = true;
            } else {
                held.remove(key);
                unanswered.put(key, new Sent(h.delivery, type));
            }
        }

        /** The client no longer holds the record; {@code verdict}, if any, is the one it could not take. */
        private void lose(Held h, AcknowledgeType verdict) {
            held.remove(h.delivery.key);
            synchronized (lost) {
                lost.put(h.delivery.key, h.delivery);
                if (verdict != null) {
                    settleLost(h.delivery, verdict);
                }
            }
        }

        /** The broker's answer to acknowledgements this consumer committed (the client calls it on this thread). */
        private void answered(Map<TopicIdPartition, Set<Long>> offsets, Exception exception) {
            int refused = 0;
            for (Map.Entry<TopicIdPartition, Set<Long>> partition : offsets.entrySet()) {
                for (long offset : partition.getValue()) {
                    Key key = new Key(partition.getKey().topic(), partition.getKey().partition(), offset);
                    Sent sent = unanswered.remove(key);
                    Held h = held.get(key);
                    if (exception == null) {
                        continue;
                    }
                    refused++;
                    if (sent != null) {
                        LOG.fine(() -> "the broker refused the " + sent.type() + " of " + sent.delivery());
                        synchronized (lost) {
                            settleLost(sent.delivery(), sent.type());
                        }
                    } else if (h != null && h.renewing) {
                        LOG.fine(() -> "the broker refused to renew " + h.delivery);
                        lose(h, h.deferred);
                    }
                }
            }
            if (refused > 0) {
                tally.refused(refused, exception.getMessage());
            }
        }

        private void shutDown() {
            try {
                // Give back what this consumer holds, so other workers get it at once instead of after the lock
                // times out.
                for (Held h : held.values()) {
                    h.delivery.done.set(true);
                    if (!h.renewing) {
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
        /** The consumer whose client holds the record: the one that fetched it, or one that got it again. */
        private volatile Fetcher fetcher;
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
