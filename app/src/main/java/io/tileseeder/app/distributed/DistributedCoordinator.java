package io.tileseeder.app.distributed;

import io.micrometer.core.instrument.MeterRegistry;
import io.tileseeder.adapters.kafka.KafkaClients;
import io.tileseeder.adapters.kafka.KafkaJobEventSink;
import io.tileseeder.adapters.kafka.KafkaResultConsumer;
import io.tileseeder.adapters.kafka.KafkaTopics;
import io.tileseeder.app.Engine;
import io.tileseeder.app.embedded.EngineSettings;
import io.tileseeder.coordinator.job.JobService;
import io.tileseeder.job.JobSpecValidator;
import io.tileseeder.port.TileStore;
import io.tileseeder.worker.layer.LayerCatalogConfig;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;

/**
 * The coordinator of the distributed mode: the API's job service with its records in Redis, tasks produced to
 * Kafka, results consumed from Kafka (offsets committed after Redis recorded them) and job events sent to Kafka
 * from the Redis outbox. Holds no state of its own: any number of replicas may run, and one that restarts
 * resumes where the records say.
 */
public final class DistributedCoordinator implements Engine {

    /** How often a replica looks for jobs whose planner died, and for jobs left unfinished. */
    private static final Duration RECOVER_EVERY = Duration.ofSeconds(5);

    private final Services services;
    private final LayerCatalogConfig catalog;
    private final TileStore store;
    private final JobService jobs;
    private final KafkaResultConsumer results;

    private DistributedCoordinator(EngineSettings settings, ClusterSettings cluster, Services services,
                                   MeterRegistry registry) {
        this.services = services;
        this.catalog = services.layers();
        this.store = services.store();
        KafkaJobEventSink events = services.add(new KafkaJobEventSink(services.producerTo(cluster.eventsTopic()),
                URI.create(KafkaJobEventSink.DEFAULT_SOURCE)));
        this.jobs = services.add(new JobService(catalog, new JobSpecValidator(catalog, settings.limits()),
                services.records(), services.tasks(0), store, events, services.locks(), services.gate(),
                services.outages(), Clock.systemUTC(), settings.maxRunningJobs(), settings.maxWaiters(), settings.queueCapacity(), RECOVER_EVERY, registry));
        // The results topic must exist before the consumer subscribes, or it would see it only at a metadata refresh.
        try (Admin admin = KafkaClients.admin(cluster.kafkaBootstrap(), Map.of())) {
            KafkaTopics.ensureTopic(admin, cluster.resultsTopic(), cluster.partitions());
        }
        this.results = services.add(new KafkaResultConsumer(KafkaResultConsumer.Config
                .defaults(cluster.kafkaBootstrap()).withTopic(cluster.resultsTopic())
                .withGroupId(cluster.coordinatorGroup()), jobs::publishAll));
        results.start();
    }

    /** Connects to Kafka, Redis and the store, and starts consuming results; its meters go to {@code registry}. */
    public static DistributedCoordinator start(EngineSettings settings, ClusterSettings cluster,
                                               MeterRegistry registry) {
        return Services.open(settings, cluster,
                services -> new DistributedCoordinator(settings, cluster, services, registry));
    }

    @Override
    public JobService jobs() {
        return jobs;
    }

    @Override
    public LayerCatalogConfig layers() {
        return catalog;
    }

    @Override
    public TileStore store() {
        return store;
    }

    @Override
    public Map<String, Probe> dependencies() {
        return services.probes();
    }

    @Override
    public List<String> deadLoops() {
        List<String> dead = new ArrayList<>(jobs.deadLoops());
        if (!results.alive()) {
            dead.add("the Kafka task results consumer");
        }
        return dead;
    }

    @Override
    public void close() {
        services.close();
    }
}
