package io.tileseeder.runtime.wiring;

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
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * The ports' implementations one process runs on: all that the embedded and the distributed mode differ by.
 * The coordinator and the worker are built the same way over either set (their roles live in the modules that
 * assemble them). A set opens its connections when made and closes them, in reverse order, on {@link #close}.
 */
public interface Adapters extends Monitored, AutoCloseable {

    TileStore store();

    /** The job records. */
    JobStore records();

    /** Workers enter a job here before writing; the coordinator's outbox waits until no pass is open. */
    JobGate gate();

    /** Metatile locks, and the coordinators' planning locks (their keys differ). */
    MetatileLock locks();

    /** Where the limit of requests in flight to each upstream, among all workers, is kept. */
    UpstreamPermits upstreams();

    /** This process's outage policy and the outages it meets. */
    Outages outages();

    /** The end of the task queue the planner offers to. */
    TaskQueue plannerTasks();

    /** The end of the task queue workers take from. */
    TaskQueue workerTasks();

    /** Where final job events go. */
    JobEventSink events();

    /** Where workers publish their results. */
    ResultSink results();

    /**
     * Hands every result published to {@link #results()}, in this process or any other, to the coordinator until the
     * returned feed is closed (or this set is): one by one to {@code each} where results are published in this
     * process, in batches to {@code batches} where they are read from a topic (which commits a batch only after
     * {@code batches} returned).
     */
    AutoCloseable feedResults(ResultSink each, Consumer<List<TaskResult>> batches);

    /** How often the coordinator looks for jobs whose planner died and jobs left unfinished. */
    Duration recoverEvery();

    @Override
    void close();
}
