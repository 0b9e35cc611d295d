package io.tileseeder.app.wiring;

import io.micrometer.core.instrument.MeterRegistry;
import io.tileseeder.app.settings.Settings.JobSettings;
import io.tileseeder.coordinator.job.CoordinatorSettings;
import io.tileseeder.coordinator.job.JobService;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.plan.JobSpecValidator;
import java.time.Clock;

/** The coordinator's job lifecycle over a set of adapters: the same in the embedded and the distributed mode. */
public final class CoordinatorRole implements AutoCloseable {

    private final JobService jobs;
    private final AutoCloseable results;
    private final AutoCloseable expiries;

    public CoordinatorRole(Adapters adapters, LayerCatalog layers, JobSettings settings,
                           MeterRegistry registry) {
        this.jobs = new JobService(layers, new JobSpecValidator(layers, settings.limits()), adapters.records(),
                adapters.plannerTasks(), adapters.store(), adapters.events(), adapters.locks(), adapters.gate(),
                adapters.outages(), Clock.systemUTC(), new CoordinatorSettings(settings.maxRunningJobs(),
                        settings.maxQueuedJobs(), settings.maxWaiters(),
                        Math.min(CoordinatorSettings.MIN_AHEAD, settings.queueCapacity()), settings.queueCapacity(),
                        settings.queueLead(), adapters.recoverEvery()), registry);
        this.results = adapters.feedResults(jobs);
        this.expiries = adapters.feedExpiries((request, key) -> jobs.submit(request, key).id(), layers,
                settings.limits(), registry);
    }

    public JobService jobs() {
        return jobs;
    }

    /** Stops hearing expiry events and results first, so that none arrives at a closed service. */
    @Override
    public void close() {
        try {
            expiries.close();
            results.close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot stop the tile-expiry or task results feed", e);
        } finally {
            jobs.close();
        }
    }
}
