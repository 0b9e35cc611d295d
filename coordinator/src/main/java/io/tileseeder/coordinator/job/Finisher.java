package io.tileseeder.coordinator.job;

import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.Mode;
import io.tileseeder.outage.Outages;
import io.tileseeder.port.DependencyUnavailableException;
import io.tileseeder.port.JobGate;
import io.tileseeder.port.JobStore;
import io.tileseeder.port.StoreUnavailableException;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.logging.Logger;

/**
 * Makes jobs final: owns the rule that a job becomes SUCCEEDED or FAILED once planning is done and every planned
 * task has a result, with its documents (TileJSON, WMTS capabilities, manifest) written first, and what follows any
 * job becoming final (its meters, its log line, its waiters, the queued jobs it makes room for). The store's
 * {@link JobStore#finish} is an atomic compare-and-set, so only the one call that made the job final goes on to
 * announce it.
 *
 * <p>Two finishers may find the same job done at once (two results threads, a replica's recovery sweep, a cancel),
 * and only one makes it final: the documents are written under a {@link JobGate} pass, as the workers write tiles,
 * so the job's event (sent once no pass is open) waits for a finisher that lost the race and is still writing.
 *
 * <p>Holds no thread of its own, on purpose: it runs on the thread whose step may have completed the job, so a job
 * is final by the time that step returns — a results thread once the last result is recorded (in the embedded mode a
 * worker's store thread), a planner that finishes its plan, the recovery sweep for a job whose finishing replica
 * died, a request thread for a cancel or a refused submission.
 */
final class Finisher {

    private static final Logger LOG = Logger.getLogger(Finisher.class.getName());

    /** Reasons of failed tasks named at most in the warning of a failed job. */
    private static final int REASONS_LOGGED = 3;
    /** Tasks named at most per reason in that warning. */
    private static final int TASKS_LOGGED = 3;

    private final JobStore store;
    private final LayerCatalog layers;
    private final TileStore tiles;
    private final JobGate gate;
    private final Outages outages;
    private final JobMetrics metrics;
    private final Waiters waiters;
    private final Runnable placeFreed;

    /** @param placeFreed told after a job became final: a queued job may start (it must not block) */
    Finisher(JobStore store, LayerCatalog layers, TileStore tiles, JobGate gate, Outages outages, JobMetrics metrics,
             Waiters waiters, Runnable placeFreed) {
        this.store = store;
        this.layers = layers;
        this.tiles = tiles;
        this.gate = gate;
        this.outages = outages;
        this.metrics = metrics;
        this.waiters = waiters;
        this.placeFreed = placeFreed;
    }

    /**
     * Finishes the job if it is not final and every planned task has a result: FAILED naming the first failed task,
     * else SUCCEEDED once its documents are written, under a pass of the job. A tile store that cannot be reached
     * for them, or a write the shutdown interrupted, is not the job's fault: the job stays RUNNING and the next
     * recovery sweep finishes it.
     */
    void finishIfDone(String jobId) {
        store.get(jobId).filter(job -> !job.state().isFinal() && job.allTasksDone()).ifPresent(job -> {
            if (job.tasksFailed() > 0) {
                String first = job.failedTasks().entrySet().stream().sorted(Map.Entry.comparingByKey())
                        .map(e -> "task " + e.getKey() + ": " + e.getValue()).findFirst().orElse("");
                finish(jobId, JobState.FAILED, job.tasksFailed() + " of " + job.tasksPlanned()
                        + " tasks failed; first: " + first);
                return;
            }
            Optional<JobGate.Pass> pass = gate.enter(jobId);
            if (pass.isEmpty()) {
                return; // made final meanwhile
            }
            Optional<JobStatus> finished;
            try (JobGate.Pass writing = pass.get()) {
                Optional<String> metadataError;
                try {
                    metadataError = writeDocuments(job);
                } catch (StoreUnavailableException e) {
                    outages.down(Outages.dependencyOf(e), e.getMessage());
                    return;
                }
                if (metadataError.isPresent() && Thread.currentThread().isInterrupted()) {
                    LOG.fine(() -> "job " + jobId + " left to the sweep: shutting down while writing its documents");
                    return;
                }
                finished = store.finish(jobId, metadataError.isPresent() ? JobState.FAILED : JobState.SUCCEEDED,
                        metadataError.orElse(null));
            }
            // Announced once the pass is closed, so that its waiters are released now if no other pass is open.
            finished.ifPresent(this::finished);
        });
    }

    /**
     * Records, and announces, a job whose record the store lost while it was unfinished ({@code lastSeen}: what this
     * coordinator last read of it), unless another coordinator did or the job is there after all.
     */
    void lost(JobStatus lastSeen) {
        store.recordLost(lastSeen, "the job store lost the job's record while it was " + lastSeen.state()
                + " (a Redis that came back without its data); the tiles already stored stay: submit the job again")
                .ifPresent(this::finished);
    }

    /** Moves the job to {@code state} unless it is final already; only the call that made it final announces it. */
    void finish(String jobId, JobState state, String reason) {
        store.finish(jobId, state, reason).ifPresent(this::finished);
    }

    /**
     * Describes the seeded tiles with documents beside them, before the job is reported done, so a client that sees
     * the job succeed finds them too: the TileJSON and the WMTS capabilities, then the manifest, last, as it says
     * what the job left. A truncate writes the TileJSON (the zoom levels left) and the manifest only.
     */
    private Optional<String> writeDocuments(JobStatus job) throws StoreUnavailableException {
        JobSpec spec = job.spec();
        Optional<LayerInfo> layer = layers.find(spec.layer());
        if (layer.isEmpty()) {
            return Optional.empty();
        }
        String name = "";
        try {
            name = TileJson.fileName(spec.format());
            writeTileJson(spec, layer.get(), name);
            if (spec.mode() != Mode.TRUNCATE) {
                name = WmtsCapabilities.fileName(spec.format());
                tiles.writeMetadata(spec.layer(), spec.tileMatrixSet(), name, WmtsCapabilities.document(layer.get(),
                        spec.tileMatrixSet(), spec.format(), tiles.publicUrl()), "application/xml");
            }
            name = Manifest.fileName(spec.format());
            tiles.writeMetadata(spec.layer(), spec.tileMatrixSet(), name,
                    Manifest.document(job, layer.get(), Instant.now()), "application/json");
            return Optional.empty();
        } catch (StoreUnavailableException e) {
            throw e;
        } catch (IOException e) {
            return Optional.of("cannot write " + name + " to " + tiles.describe() + ": " + e.getMessage());
        }
    }

    /**
     * Writes the TileJSON of the layer's tiles in the job's matrix set and format, with the zoom levels the store holds
     * now ({@link TileJson}); removes it when there is nothing it may describe: no tile left, or a matrix set TileJSON
     * cannot name (a document of WorldCRS84Quad tiles written by an earlier version would show them as Web Mercator).
     */
    private void writeTileJson(JobSpec spec, LayerInfo layer, String name) throws IOException {
        Optional<TileJson.Zooms> zooms = TileJson.describes(spec.tileMatrixSet()) ? TileJson.zoomsHeld(tiles, layer)
                : Optional.empty();
        if (zooms.isPresent()) {
            tiles.writeMetadata(spec.layer(), spec.tileMatrixSet(), name,
                    TileJson.document(layer, spec.format(), tiles.publicUrl(), zooms.get()), "application/json");
        } else {
            tiles.deleteMetadata(spec.layer(), spec.tileMatrixSet(), List.of(name));
        }
    }

    /**
     * The one warning a job whose tasks failed is logged with (the workers log each failed task as information): how
     * many failed, and the first few reasons of those the job recorded, each with the first of its tasks, e.g.
     * {@code job 7f3e FAILED: 12 of 87 tasks failed: tasks 0, 1, 3 and 8 more: cannot read data file …; task 2:
     * upstream WMS answered 500}.
     */
    private static String failedTasks(JobStatus job) {
        Map<String, List<Long>> byReason = new LinkedHashMap<>();
        job.failedTasks().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> byReason.computeIfAbsent(e.getValue(), reason -> new ArrayList<>()).add(e.getKey()));
        StringBuilder line = new StringBuilder("job ").append(job.id()).append(" FAILED: ").append(job.tasksFailed())
                .append(" of ").append(job.tasksPlanned()).append(" tasks failed: ");
        line.append(byReason.entrySet().stream().limit(REASONS_LOGGED)
                .map(e -> tasks(e.getValue()) + ": " + e.getKey()).collect(Collectors.joining("; ")));
        if (byReason.size() > REASONS_LOGGED) {
            line.append("; and ").append(byReason.size() - REASONS_LOGGED).append(" other reasons");
        }
        if (job.failedTasks().size() < job.tasksFailed()) {
            line.append(" (reasons kept for ").append(job.failedTasks().size()).append(" of the failed tasks)");
        }
        return line.toString();
    }

    private static String tasks(List<Long> seqs) {
        String named = seqs.stream().limit(TASKS_LOGGED).map(String::valueOf).collect(Collectors.joining(", "));
        return (seqs.size() == 1 ? "task " : "tasks ") + named
                + (seqs.size() > TASKS_LOGGED ? " and " + (seqs.size() - TASKS_LOGGED) + " more" : "");
    }

    private void finished(JobStatus job) {
        metrics.ended(job);
        if (job.state() == JobState.FAILED && job.tasksFailed() > 0) {
            LOG.warning(() -> failedTasks(job));
        } else if (job.state() == JobState.LOST) {
            LOG.warning(() -> "job " + job.id() + " LOST: " + job.reason());
        } else {
            LOG.info(() -> "job " + job.id() + " " + job.state() + (job.reason() == null ? "" : ": " + job.reason()));
        }
        placeFreed.run();
        try {
            if (waiters.settled(job)) {
                waiters.release(job);
            }
        } catch (DependencyUnavailableException e) {
            outages.down(e.dependency(), e.getMessage()); // the sweep releases the waiters once it can tell
        }
    }
}
