package io.tileseeder.app.distributed;

import io.tileseeder.adapters.kafka.AckedProducer;
import io.tileseeder.adapters.kafka.KafkaTaskQueue;
import io.tileseeder.adapters.redis.RedisJobGate;
import io.tileseeder.adapters.redis.RedisJobStore;
import io.tileseeder.adapters.redis.RedisTopology;
import io.tileseeder.adapters.redis.RedissonMetatileLock;
import io.tileseeder.app.embedded.EngineSettings;
import io.tileseeder.app.health.Monitored;
import io.tileseeder.outage.Outages;
import io.tileseeder.port.MetatileLock;
import io.tileseeder.port.TileStore;
import io.tileseeder.worker.layer.LayerCatalogConfig;
import io.tileseeder.worker.layer.LayerCatalogFile;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.redisson.api.RedissonClient;

/**
 * Connects to the distributed mode's services at start-up, each checked at once so that an unreachable one is
 * reported in one line naming it and its address ({@link Unreachable}), not as a stack trace minutes later.
 * Whatever was opened is closed in reverse order.
 */
final class Services implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Services.class.getName());
    /**
     * The lease of a lock whose holder stopped renewing it: shorter than the share group's record lock (30 s),
     * so when a worker dies its metatile locks are free before its tasks are delivered again.
     */
    private static final Duration LOCK_WATCHDOG = Duration.ofSeconds(10);
    /** How long a readiness probe waits for a dependency's answer. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

    /** A service the process cannot work without did not answer. */
    static final class Unreachable extends RuntimeException {
        Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final ClusterSettings cluster;
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();
    private LayerCatalogConfig layers;
    private RedissonClient redis;
    private TileStore store;
    private RedisJobStore records;
    private RedisJobGate gate;
    private Outages outages;
    private Admin probeAdmin;

    private Services(ClusterSettings cluster) {
        this.cluster = cluster;
    }

    /**
     * Reads the layers, connects to Kafka, Redis and the store, then builds the process on them with
     * {@code build}; if any step fails, closes what was opened and rethrows.
     */
    static <T> T open(EngineSettings settings, ClusterSettings cluster, Function<Services, T> build) {
        Services services = new Services(cluster);
        services.outages = new Outages(settings.outageBudget(), Clock.systemUTC());
        try {
            services.layers = settings.layersFile().map(LayerCatalogFile::read).orElseGet(LayerCatalogFile::bundled);
            services.checkKafka();
            services.redis = services.connectRedis();
            services.store = services.openStore(settings);
            services.records = new RedisJobStore(services.redis, cluster.keyPrefix(), Clock.systemUTC(),
                    cluster.retainFinished(), cluster.syncReplicas());
            return build.apply(services);
        } catch (RuntimeException e) {
            services.close();
            throw e;
        }
    }

    LayerCatalogConfig layers() {
        return layers;
    }

    TileStore store() {
        return store;
    }

    /** The job records every replica shares. */
    RedisJobStore records() {
        return records;
    }

    /** The job gate beside the job records: workers enter it, the coordinator's outbox waits on it. */
    RedisJobGate gate() {
        if (gate == null) {
            gate = add(new RedisJobGate(redis, cluster.keyPrefix(), RedisJobGate.DEFAULT_LEASE));
        }
        return gate;
    }

    /** This process's outage policy and the outages it meets. */
    Outages outages() {
        return outages;
    }

    /** Locks in Redis under the deployment's key prefix: metatile locks, and the coordinators' planning locks. */
    MetatileLock locks() {
        return new RedissonMetatileLock(redis, cluster.keyPrefix() + "lock:", RedissonMetatileLock.DEFAULT_RESPONSE_TIMEOUT);
    }

    /** The task queue on Kafka, with {@code consumers} share consumers (0: it only produces). */
    KafkaTaskQueue tasks(int consumers) {
        return add(new KafkaTaskQueue(KafkaTaskQueue.Config.defaults(cluster.kafkaBootstrap())
                .withTopic(cluster.tasksTopic()).withGroupId(cluster.workerGroup())
                .withPartitions(cluster.partitions()).withConsumers(consumers)));
    }

    /** An acknowledged producer to {@code topic}, which is created if missing. */
    AckedProducer.Config producerTo(String topic) {
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

    private TileStore openStore(EngineSettings settings) {
        try {
            return add(settings.openStore());
        } catch (UncheckedIOException e) {
            throw new Unreachable("cannot open the store " + settings.store() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Quick checks of Kafka, Redis and the store, for readiness; each also lists or clears its dependency's
     * outage, so that jobs show what they wait for.
     */
    Map<String, Monitored.Probe> probes() {
        return Map.of(
                Monitored.KAFKA, watched(Monitored.KAFKA, () -> probeAdmin().describeCluster().nodes()
                        .get(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)),
                Monitored.REDIS, watched(Monitored.REDIS, () -> redis.getBucket(cluster.keyPrefix() + "probe")
                        .isExistsAsync().toCompletableFuture().get(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)),
                Monitored.STORE, watched(Outages.OBJECT_STORE, store::probe));
    }

    private Monitored.Probe watched(String dependency, Monitored.Probe probe) {
        return () -> {
            try {
                probe.check();
                outages.up(dependency);
            } catch (Exception e) {
                outages.down(dependency, rootMessage(e));
                throw e;
            }
        };
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
    <T> T add(T resource) {
        if (resource instanceof AutoCloseable closeable) {
            opened.push(closeable);
        }
        return resource;
    }

    @Override
    public void close() {
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
