package io.tileseeder.runtime.distributed;

import io.tileseeder.adapters.kafka.AckedProducer;
import io.tileseeder.adapters.kafka.KafkaClients;
import io.tileseeder.adapters.kafka.KafkaJobEventSink;
import io.tileseeder.adapters.kafka.KafkaResultConsumer;
import io.tileseeder.adapters.kafka.KafkaResultSink;
import io.tileseeder.adapters.kafka.KafkaTaskQueue;
import io.tileseeder.adapters.kafka.KafkaTopics;
import io.tileseeder.adapters.redis.RedisJobGate;
import io.tileseeder.adapters.redis.RedisJobStore;
import io.tileseeder.adapters.redis.RedisTopology;
import io.tileseeder.adapters.redis.RedisUpstreamPermits;
import io.tileseeder.adapters.redis.RedissonMetatileLock;
import io.tileseeder.message.TaskResult;
import io.tileseeder.outage.Outages;
import io.tileseeder.port.MetatileLock;
import io.tileseeder.port.ResultSink;
import io.tileseeder.port.TileStore;
import io.tileseeder.port.UpstreamPermits;
import io.tileseeder.runtime.health.Monitored;
import io.tileseeder.runtime.settings.Settings.StoreSettings;
import io.tileseeder.runtime.wiring.Adapters;
import io.tileseeder.runtime.wiring.Stores;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.redisson.api.RedissonClient;

/**
 * The distributed mode's adapters: tasks and results on Kafka, job records, the job gate and locks in Redis, tiles
 * in the store. Connects at start-up, each service checked at once so that an unreachable one is reported in one
 * line naming it and its address ({@link Unreachable}), not as a stack trace minutes later. The Kafka clients a
 * role does not use (a worker's result consumer, a coordinator's share consumers) are never made. Whatever was
 * opened is closed in reverse order.
 */
public final class ClusterAdapters implements Adapters {

    private static final Logger LOG = Logger.getLogger(ClusterAdapters.class.getName());
    /** Records outlive any one coordinator: a replica looks often for jobs whose planner died. */
    private static final Duration RECOVER_EVERY = Duration.ofSeconds(5);
    /**
     * The lease of a lock whose holder stopped renewing it: shorter than the share group's record lock (30 s),
     * so when a worker dies its metatile locks are free before its tasks are delivered again.
     */
    private static final Duration LOCK_WATCHDOG = Duration.ofSeconds(10);
    /** How long a readiness probe waits for a dependency's answer. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);
    /**
     * How often the process probes its dependencies on its own, as Kubernetes' readiness checks do, so that an
     * outage is told (once when it begins, once when it ends) even while no call of the product meets it.
     */
    private static final Duration WATCH_EVERY = Duration.ofSeconds(5);

    /** A service the process cannot work without did not answer. */
    static final class Unreachable extends RuntimeException {
        Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final ClusterSettings cluster;
    private final Outages outages;
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();
    private RedissonClient redis;
    private TileStore store;
    private RedisJobStore records;
    private RedisJobGate gate;
    private MetatileLock locks;
    private RedisUpstreamPermits upstreams;
    private KafkaTaskQueue plannerTasks;
    private KafkaTaskQueue workerTasks;
    private KafkaJobEventSink events;
    private KafkaResultSink results;
    private KafkaResultConsumer resultFeed;
    private Admin probeAdmin;

    private ClusterAdapters(ClusterSettings cluster, Outages outages) {
        this.cluster = cluster;
        this.outages = outages;
    }

    /** Connects to Kafka, Redis and the store; if any fails, closes what was opened and rethrows. */
    public static ClusterAdapters open(StoreSettings store, Duration outageBudget, ClusterSettings cluster) {
        if (Stores.isFile(store.path())) {
            throw new IllegalArgumentException("seeder.store.path " + store.path() + ": the distributed mode's pods "
                    + "write one folder or object store, never one file; seed into a store and pack the finished "
                    + "cache ('seeder pack')");
        }
        ClusterAdapters adapters = new ClusterAdapters(cluster, new Outages(outageBudget, Clock.systemUTC()));
        try {
            adapters.checkKafka();
            adapters.redis = adapters.connectRedis();
            adapters.store = adapters.openStore(store);
            adapters.records = new RedisJobStore(adapters.redis, cluster.keyPrefix(), Clock.systemUTC(),
                    cluster.retainFinished(), cluster.syncReplicas());
            adapters.locks = new RedissonMetatileLock(adapters.redis, cluster.keyPrefix() + "lock:",
                    RedissonMetatileLock.DEFAULT_RESPONSE_TIMEOUT);
            adapters.upstreams = new RedisUpstreamPermits(adapters.redis, cluster.keyPrefix() + "upstream:",
                    Clock.systemUTC());
            adapters.gate = adapters.add(new RedisJobGate(adapters.redis, cluster.keyPrefix(),
                    RedisJobGate.DEFAULT_LEASE));
            adapters.watchDependencies();
            return adapters;
        } catch (RuntimeException e) {
            adapters.close();
            throw e;
        }
    }

    @Override
    public TileStore store() {
        return store;
    }

    /** The job records every replica shares. */
    @Override
    public RedisJobStore records() {
        return records;
    }

    @Override
    public RedisJobGate gate() {
        return gate;
    }

    /** Locks in Redis under the deployment's key prefix: metatile locks, and the coordinators' planning locks. */
    @Override
    public MetatileLock locks() {
        return locks;
    }

    /** Upstream permits in Redis under the deployment's key prefix, leased so a dead pod's come back. */
    @Override
    public UpstreamPermits upstreams() {
        return upstreams;
    }

    @Override
    public Outages outages() {
        return outages;
    }

    /** The tasks topic, produced to only. */
    @Override
    public synchronized KafkaTaskQueue plannerTasks() {
        if (plannerTasks == null) {
            plannerTasks = tasks(0);
        }
        return plannerTasks;
    }

    /** The tasks topic, with {@code seeder.kafka.consumers} share consumers in the workers' share group. */
    @Override
    public synchronized KafkaTaskQueue workerTasks() {
        if (workerTasks == null) {
            workerTasks = tasks(cluster.consumers());
        }
        return workerTasks;
    }

    /** CloudEvents on the events topic. */
    @Override
    public synchronized KafkaJobEventSink events() {
        if (events == null) {
            events = add(new KafkaJobEventSink(producerTo(cluster.eventsTopic()),
                    URI.create(KafkaJobEventSink.DEFAULT_SOURCE)));
        }
        return events;
    }

    /** The results topic, produced to with acknowledgements. */
    @Override
    public synchronized KafkaResultSink results() {
        if (results == null) {
            results = add(new KafkaResultSink(producerTo(cluster.resultsTopic())));
        }
        return results;
    }

    /**
     * Consumes the results topic in the coordinators' consumer group, committing offsets only after
     * {@code recorder} returned.
     */
    @Override
    public synchronized AutoCloseable feedResults(ResultSink each, Consumer<List<TaskResult>> batches) {
        // The results topic must exist before the consumer subscribes, or it would see it only at a metadata refresh.
        try (Admin admin = KafkaClients.admin(cluster.kafkaBootstrap(), Map.of())) {
            KafkaTopics.ensureTopic(admin, cluster.resultsTopic(), cluster.partitions());
        }
        resultFeed = add(new KafkaResultConsumer(KafkaResultConsumer.Config.of(cluster.kafkaBootstrap(),
                cluster.resultsTopic(), cluster.coordinatorGroup()), batches));
        resultFeed.start();
        return resultFeed;
    }

    @Override
    public Duration recoverEvery() {
        return RECOVER_EVERY;
    }

    @Override
    public synchronized List<String> deadLoops() {
        List<String> dead = new ArrayList<>();
        if (resultFeed != null && !resultFeed.alive()) {
            dead.add("the Kafka task results consumer");
        }
        if (workerTasks != null) {
            workerTasks.consumerFailure().ifPresent(failure -> dead.add("a Kafka task consumer: " + failure));
        }
        return dead;
    }

    /** The task queue on Kafka, with {@code consumers} share consumers (0: it only produces). */
    private KafkaTaskQueue tasks(int consumers) {
        return add(new KafkaTaskQueue(KafkaTaskQueue.Config.of(cluster.kafkaBootstrap(), cluster.tasksTopic(),
                cluster.workerGroup(), consumers).withPartitions(cluster.partitions())
                .withSessionTimeout(cluster.sessionTimeout())));
    }

    /** An acknowledged producer to {@code topic}, which is created if missing. */
    private AckedProducer.Config producerTo(String topic) {
        return AckedProducer.Config.of(cluster.kafkaBootstrap(), topic).withPartitions(cluster.partitions());
    }

    /** Checks that a Kafka broker answers within the connect timeout. */
    private void checkKafka() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.kafkaBootstrap());
        long timeout = cluster.connectTimeout().toMillis();
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Long.toString(timeout));
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(timeout));
        try (Admin admin = Admin.create(p)) {
            admin.describeCluster().nodes().get(timeout, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            throw new Unreachable("cannot reach Kafka at " + cluster.kafkaBootstrap() + " within "
                    + seconds(cluster.connectTimeout()) + " (seeder.kafka.bootstrap, SEEDER_KAFKA_BOOTSTRAP): "
                    + rootMessage(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unreachable("interrupted while connecting to Kafka", e);
        }
    }

    private RedissonClient connectRedis() {
        try {
            RedissonClient client = cluster.redis().connect(LOCK_WATCHDOG);
            opened.push(client::shutdown);
            return client;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("seeder.redis.url (SEEDER_REDIS_URL): " + e.getMessage(), e);
        } catch (RuntimeException e) {
            RedisTopology redis = cluster.redis();
            String where = redis.mode() == RedisTopology.Mode.STANDALONE ? redis.nodes().getFirst() : redis.describe();
            throw new Unreachable("cannot reach Redis at " + where + " (seeder.redis.url, SEEDER_REDIS_URL): "
                    + rootMessage(e), e);
        }
    }

    private TileStore openStore(StoreSettings settings) {
        try {
            return add(Stores.open(settings));
        } catch (UncheckedIOException e) {
            throw new Unreachable("cannot open the store " + settings.path() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Quick checks of Kafka, Redis and the store, for readiness; each also lists or clears its dependency's
     * outage, so that jobs show what they wait for.
     */
    @Override
    public Map<String, Monitored.Probe> dependencies() {
        return Map.of(
                Monitored.KAFKA, watched(Monitored.KAFKA, () -> probeAdmin().describeCluster().nodes()
                        .get(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)),
                Monitored.REDIS, watched(Monitored.REDIS, () -> redis.getBucket(cluster.keyPrefix() + "probe")
                        .isExistsAsync().toCompletableFuture().get(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)),
                Monitored.STORE, watched(Outages.OBJECT_STORE, store::probe));
    }

    private Monitored.Probe watched(String dependency, Monitored.Probe probe) {
        return () -> {
            Instant since = Instant.now();
            try {
                probe.check();
                outages.up(dependency);
            } catch (Exception e) {
                outages.down(dependency, rootMessage(e), since);
                throw e;
            }
        };
    }

    /** Runs the {@link #dependencies} probes every {@link #WATCH_EVERY} on a thread of their own until closed. */
    private void watchDependencies() {
        Collection<Monitored.Probe> probes = dependencies().values();
        probeAdmin(); // opened before the watch, so closed after it
        ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("seeder-dependency-watch").daemon().factory());
        opened.push(() -> {
            // A round under way finishes (an interrupted probe would report an outage that is none).
            watch.shutdown();
            if (!watch.awaitTermination(PROBE_TIMEOUT.toMillis() * probes.size(), TimeUnit.MILLISECONDS)) {
                watch.shutdownNow();
            }
        });
        watch.scheduleWithFixedDelay(() -> probes.forEach(probe -> {
            try {
                probe.check();
            } catch (Exception e) {
                // Recorded and logged by the probe's outage, once per outage.
            }
        }), WATCH_EVERY.toMillis(), WATCH_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    private synchronized Admin probeAdmin() {
        if (probeAdmin == null) {
            Properties p = new Properties();
            p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.kafkaBootstrap());
            p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Long.toString(PROBE_TIMEOUT.toMillis()));
            p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(PROBE_TIMEOUT.toMillis()));
            probeAdmin = add(Admin.create(p));
        }
        return probeAdmin;
    }

    /** Closes {@code resource} with the others, in reverse order of opening. */
    private <T> T add(T resource) {
        if (resource instanceof AutoCloseable closeable) {
            opened.push(closeable);
        }
        return resource;
    }

    @Override
    public synchronized void close() {
        while (!opened.isEmpty()) {
            try {
                opened.pop().close();
            } catch (Exception e) {
                LOG.log(Level.WARNING, "closing failed", e);
            }
        }
    }

    private static String seconds(Duration d) {
        return d.toSeconds() + " s";
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
