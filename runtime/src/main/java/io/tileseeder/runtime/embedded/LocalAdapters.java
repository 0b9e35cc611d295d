package io.tileseeder.runtime.embedded;

import io.tileseeder.adapters.memory.InMemoryJobStore;
import io.tileseeder.adapters.memory.InMemoryTaskQueue;
import io.tileseeder.adapters.memory.LocalJobGate;
import io.tileseeder.adapters.memory.LocalMetatileLock;
import io.tileseeder.adapters.memory.LocalUpstreamPermits;
import io.tileseeder.message.TaskResult;
import io.tileseeder.outage.Outages;
import io.tileseeder.port.JobEventSink;
import io.tileseeder.port.JobGate;
import io.tileseeder.port.JobStore;
import io.tileseeder.port.MetatileLock;
import io.tileseeder.port.ResultSink;
import io.tileseeder.port.TaskQueue;
import io.tileseeder.port.TileStore;
import io.tileseeder.port.UpstreamPermits;
import io.tileseeder.runtime.health.Monitored;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.runtime.wiring.Adapters;
import io.tileseeder.runtime.wiring.Stores;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The embedded mode's adapters, all in this JVM: a bounded in-memory task queue, in-memory job records and their
 * gate, in-process locks, and the store (a folder, or S3). Results go straight to the coordinator's recorder and
 * job events nowhere: nobody outside this process waits for them.
 */
public final class LocalAdapters implements Adapters {

    /** Nothing outlives this JVM's job records, so recovery only ever finds this process's own jobs. */
    private static final Duration RECOVER_EVERY = Duration.ofSeconds(10);

    private final TileStore store;
    private final InMemoryTaskQueue tasks;
    private final InMemoryJobStore records;
    private final LocalJobGate gate;
    private final LocalMetatileLock locks = new LocalMetatileLock();
    private final LocalUpstreamPermits upstreams = new LocalUpstreamPermits();
    private final Outages outages;
    private volatile ResultSink recorder;

    public LocalAdapters(Settings settings) {
        this.store = Stores.open(settings.store());
        // Deliveries out at once: one per CPU thread plus one per store slot.
        this.tasks = new InMemoryTaskQueue(settings.jobs().queueCapacity(),
                settings.workers().threads() + settings.workers().storeThreads());
        this.records = new InMemoryJobStore(Clock.systemUTC(), settings.jobs().retainJobs());
        this.gate = new LocalJobGate(records);
        this.outages = new Outages(settings.outageBudget(), Clock.systemUTC());
    }

    @Override
    public TileStore store() {
        return store;
    }

    @Override
    public JobStore records() {
        return records;
    }

    @Override
    public JobGate gate() {
        return gate;
    }

    @Override
    public MetatileLock locks() {
        return locks;
    }

    /** Upstream permits of this process, which is the whole cluster. */
    @Override
    public UpstreamPermits upstreams() {
        return upstreams;
    }

    @Override
    public Outages outages() {
        return outages;
    }

    @Override
    public TaskQueue plannerTasks() {
        return tasks;
    }

    @Override
    public TaskQueue workerTasks() {
        return tasks;
    }

    @Override
    public JobEventSink events() {
        return event -> { };
    }

    /** Hands each result to the recorder at once: recorded is as durable as this process's job records get. */
    @Override
    public ResultSink results() {
        return result -> Objects.requireNonNull(recorder, "no coordinator records results").publish(result);
    }

    @Override
    public AutoCloseable feedResults(ResultSink each, Consumer<List<TaskResult>> batches) {
        this.recorder = each;
        return () -> this.recorder = null;
    }

    @Override
    public Duration recoverEvery() {
        return RECOVER_EVERY;
    }

    @Override
    public Map<String, Monitored.Probe> dependencies() {
        return Map.of(STORE, store::probe);
    }

    @Override
    public List<String> deadLoops() {
        return List.of();
    }

    @Override
    public void close() {
        if (store instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new IllegalStateException("cannot close the store " + store.describe(), e);
            }
        }
    }
}
