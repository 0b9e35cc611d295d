package io.tileseeder.server.wiring;

import io.micrometer.core.instrument.MeterRegistry;
import io.tileseeder.coordinator.job.CoordinatorSettings;
import io.tileseeder.coordinator.job.JobService;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.plan.JobSpecValidator;
import io.tileseeder.runtime.distributed.ClusterSettings;
import io.tileseeder.runtime.settings.Settings.JobSettings;
import io.tileseeder.runtime.wiring.Adapters;
import io.tileseeder.runtime.wiring.Role;
import io.tileseeder.server.distributed.ExpiryFeed;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The coordinator's job lifecycle over a set of adapters: the same in the embedded and the distributed mode, where
 * it also turns the tile-expiry events of {@code seeder.expiry.*} into reseed jobs.
 */
public final class CoordinatorRole implements Role {

    private final JobService jobs;
    private final AutoCloseable results;
    private final Optional<ExpiryFeed> expiries;

    /**
     * @param cluster the distributed mode's services, whose tile-expiry topic (if {@code seeder.expiry.enabled}) is
     *                read; empty in the embedded mode
     */
    public CoordinatorRole(Adapters adapters, LayerCatalog layers, JobSettings settings, MeterRegistry registry,
                           Optional<ClusterSettings> cluster) {
        this.jobs = new JobService(layers, new JobSpecValidator(layers, settings.limits(), adapters.store()::refuses),
                adapters.records(),
                adapters.plannerTasks(), adapters.store(), adapters.events(), adapters.locks(), adapters.gate(),
                adapters.outages(), Clock.systemUTC(), new CoordinatorSettings(settings.maxRunningJobs(),
                        settings.maxQueuedJobs(), settings.maxWaiters(),
                        Math.min(CoordinatorSettings.MIN_AHEAD, settings.queueCapacity()), settings.queueCapacity(),
                        settings.queueLead(), adapters.recoverEvery()), registry);
        this.results = adapters.feedResults(jobs, jobs::publishAll);
        try {
            this.expiries = cluster.filter(c -> c.expiryTopic() != null).map(c -> ExpiryFeed.open(c,
                    (request, key) -> jobs.submit(request, key).id(), layers, settings.limits(), registry));
        } catch (RuntimeException e) {
            close(results);
            jobs.close();
            throw e;
        }
    }

    public JobService jobs() {
        return jobs;
    }

    /** The coordinator's loops that died: its housekeeping, the tile-expiry consumer. */
    @Override
    public List<String> deadLoops() {
        List<String> dead = new ArrayList<>(jobs.deadLoops());
        if (expiries.isPresent() && !expiries.get().alive()) {
            dead.add("the Kafka tile-expiry consumer");
        }
        return dead;
    }

    /** Stops hearing expiry events and results first, so that none arrives at a closed service. */
    @Override
    public void close() {
        try {
            expiries.ifPresent(CoordinatorRole::close);
        } finally {
            try {
                close(results);
            } finally {
                jobs.close();
            }
        }
    }

    private static void close(AutoCloseable feed) {
        try {
            feed.close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot stop the tile-expiry or task results feed", e);
        }
    }
}
