package io.tileseeder.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.tileseeder.coordinator.job.JobService;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.job.Mode;
import io.tileseeder.layer.HttpSource;
import io.tileseeder.layer.LayerCatalogConfig;
import io.tileseeder.layer.LayerConfig;
import io.tileseeder.outage.Outages;
import io.tileseeder.port.TileStore;
import io.tileseeder.port.UpstreamPermits.Hold;
import io.tileseeder.runtime.distributed.ClusterAdapters;
import io.tileseeder.runtime.distributed.ClusterSettings;
import io.tileseeder.runtime.embedded.LocalAdapters;
import io.tileseeder.runtime.health.Monitored;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.runtime.wiring.Adapters;
import io.tileseeder.runtime.wiring.Role;
import io.tileseeder.server.dryrun.DryRun;
import io.tileseeder.server.wiring.CoordinatorRole;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What a process behind the API runs: the coordinator's job lifecycle on a set of adapters, and in the embedded
 * mode the workers beside it on the in-process adapters, started by the caller's {@link Workers} (this module has no
 * worker classes). A distributed coordinator is the coordinator alone, on the Kafka, Redis and S3 adapters.
 */
public final class Engine implements Monitored, AutoCloseable {

    private final Settings settings;
    private final LayerCatalogConfig layers;
    private final Adapters adapters;
    private final CoordinatorRole coordinator;
    private final DryRun dryRun;
    /** The pipeline in this process: the embedded mode's; empty in a distributed coordinator. */
    private final Optional<Role> worker;

    /** Starts the workers that run beside the coordinator, on its adapters and layers. */
    @FunctionalInterface
    public interface Workers {
        Role start(Adapters adapters, LayerCatalogConfig layers);
    }

    private Engine(Settings settings, LayerCatalogConfig layers, Adapters adapters, Optional<ClusterSettings> cluster,
                   MeterRegistry registry, Optional<Workers> workers) {
        this.settings = settings;
        this.layers = layers;
        this.adapters = adapters;
        this.coordinator = new CoordinatorRole(adapters, layers, settings.jobs(), registry, cluster);
        this.dryRun = new DryRun(layers, settings.workers().wmsRequestsPerUpstream(),
                settings.jobs().dryRunSamples(), settings.workers().threads());
        try {
            this.worker = workers.map(start -> start.start(adapters, layers));
        } catch (RuntimeException e) {
            coordinator.close();
            throw e;
        }
    }

    /** Coordinator and {@code workers} in this JVM, on the in-process adapters; meters in {@code registry}. */
    public static Engine embedded(Settings settings, MeterRegistry registry, Workers workers) {
        return start(settings, () -> new LocalAdapters(settings), Optional.empty(), registry, Optional.of(workers));
    }

    /** A distributed coordinator: connects to Kafka, Redis and the store, and starts consuming results. */
    public static Engine coordinator(Settings settings, ClusterSettings cluster, MeterRegistry registry) {
        return start(settings, () -> ClusterAdapters.open(settings.store(), settings.outageBudget(), cluster),
                Optional.of(cluster), registry, Optional.empty());
    }

    /** Reads the layers first, so that a broken layer file is named before any connection is made. */
    private static Engine start(Settings settings, Supplier<Adapters> open, Optional<ClusterSettings> cluster,
                                MeterRegistry registry, Optional<Workers> workers) {
        LayerCatalogConfig layers = settings.layers();
        Adapters adapters = open.get();
        try {
            return new Engine(settings, layers, adapters, cluster, registry, workers);
        } catch (RuntimeException e) {
            adapters.close();
            throw e;
        }
    }

    public Settings settings() {
        return settings;
    }

    public JobService jobs() {
        return coordinator.jobs();
    }

    /**
     * What {@code job} waits for now: the dependencies the coordinator finds unreachable, and its layer's upstream
     * while that asked to be left alone ({@code Retry-After}, held off for every worker).
     */
    public List<Outages.Outage> waitingFor(JobStatus job) {
        List<Outages.Outage> outages = jobs().outages();
        if (job.spec().mode() == Mode.PACK) {
            return outages;
        }
        Optional<String> upstream = layers.layer(job.spec().layer()).map(LayerConfig::source)
                .filter(HttpSource.class::isInstance).map(source -> ((HttpSource) source).upstream());
        Optional<Hold> hold = upstream.flatMap(adapters.upstreams()::hold);
        if (hold.isEmpty()) {
            return outages;
        }
        List<Outages.Outage> all = new ArrayList<>(outages);
        all.add(new Outages.Outage("the upstream " + upstream.get(), hold.get().since(), "shedding load: "
                + hold.get().reason() + "; every worker holds off until " + hold.get().until()));
        return all;
    }

    /** Estimates jobs without running them. */
    public DryRun dryRun() {
        return dryRun;
    }

    public LayerCatalog layers() {
        return layers;
    }

    public TileStore store() {
        return adapters.store();
    }

    @Override
    public Map<String, Probe> dependencies() {
        return adapters.dependencies();
    }

    @Override
    public List<String> deadLoops() {
        List<String> dead = new ArrayList<>(coordinator.deadLoops());
        dead.addAll(adapters.deadLoops());
        worker.ifPresent(w -> dead.addAll(w.deadLoops()));
        return dead;
    }

    /**
     * Stops the workers first (they finish what they hold within the drain timeout, publishing through the
     * adapters), then the coordinator, then closes the adapters.
     */
    @Override
    public void close() {
        try {
            worker.ifPresent(Role::close);
        } finally {
            try {
                coordinator.close();
            } finally {
                adapters.close();
            }
        }
    }
}
