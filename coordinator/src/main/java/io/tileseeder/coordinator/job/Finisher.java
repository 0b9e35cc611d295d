package io.tileseeder.coordinator.job;

import io.tileseeder.job.Dimension;
import io.tileseeder.job.DimensionValues;
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
import io.tileseeder.port.Layout;
import io.tileseeder.port.StoreUnavailableException;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
     * the job succeed finds them too: the TileJSON (and in the tms layout the TMS TileMap) and the manifest of each
     * cache, then the WMTS capabilities of the set, in the layouts a WMTS template can name. A truncate writes the
     * TileJSON (the zoom levels left) and the manifest only.
     *
     * <p>On a layer with dimensions, each cache of the job gets its TileJSON and its manifest, in its own folder, and
     * the capabilities beside all the caches of the set list the values of those that have a manifest
     * ({@link #writeCapabilities}); a truncate that leaves a cache no tile removes its documents, so its values leave
     * the capabilities. A pack changes no tile of the cache, and writes nothing beside it.
     */
    private Optional<String> writeDocuments(JobStatus job) throws StoreUnavailableException {
        JobSpec spec = job.spec();
        Optional<LayerInfo> layer = layers.find(spec.layer());
        if (layer.isEmpty() || spec.mode() == Mode.PACK) {
            return Optional.empty();
        }
        String name = "";
        try {
            List<DimensionValues> caches = spec.combinations();
            String manifest = Manifest.fileName(spec.format());
            for (DimensionValues values : caches) {
                TileCache cache = new TileCache(spec.layer(), spec.tileMatrixSet(), values);
                name = cache.path() + "/" + TileJson.fileName(spec.format());
                boolean holdsTiles = writeTileJson(spec, cache, layer.get());
                String tileMap = TmsTileMap.fileName(spec.format());
                if (values.isEmpty() || holdsTiles || spec.mode() != Mode.TRUNCATE) {
                    if (tiles.layout() == Layout.TMS) {
                        name = cache.path() + "/" + tileMap;
                        tiles.writeMetadata(cache, tileMap, TmsTileMap.document(layer.get(), cache, spec.format(),
                                tiles.publicUrl()), "application/xml");
                    }
                    name = cache.path() + "/" + manifest;
                    tiles.writeMetadata(cache, manifest, Manifest.document(job, layer.get(), values, caches.size(),
                            tiles.layout(), Instant.now()), "application/json");
                } else {
                    name = cache.path() + "/" + manifest;
                    tiles.deleteMetadata(cache, List.of(tileMap, manifest));
                }
            }
            if (!spec.dimensions().isEmpty()) {
                name = "the caches past their retention";
                applyRetention(spec, layer.get(), caches);
            }
            if (tiles.layout().wmtsTemplate() && (spec.mode() != Mode.TRUNCATE || !spec.dimensions().isEmpty())) {
                name = WmtsCapabilities.fileName(spec.format());
                writeCapabilities(spec, layer.get());
            }
            return Optional.empty();
        } catch (StoreUnavailableException e) {
            throw e;
        } catch (IOException e) {
            return Optional.of("cannot write " + name + " to " + tiles.describe() + ": " + e.getMessage());
        }
    }

    /**
     * Writes the WMTS capabilities of the layer's caches in the job's set and format. On a layer with dimensions, they
     * list the values of the caches that have a manifest now, and are removed when none has; two jobs finishing at
     * once could each write a list without the other's cache, so each lists the caches again after writing and
     * writes again until the list it wrote is the list it finds: the last writer's list holds every cache whose
     * manifest was written before it looked.
     */
    private void writeCapabilities(JobSpec spec, LayerInfo layer) throws IOException {
        TileCache set = new TileCache(spec.layer(), spec.tileMatrixSet());
        String name = WmtsCapabilities.fileName(spec.format());
        if (layer.dimensions().isEmpty()) {
            tiles.writeMetadata(set, name, WmtsCapabilities.document(layer, spec.tileMatrixSet(), spec.format(),
                    tiles.publicUrl(), tiles.layout()), "application/xml");
            return;
        }
        String manifest = Manifest.fileName(spec.format());
        List<String> written = null;
        List<String> held = tiles.cachesWith(set, layer.dimensions().size(), manifest);
        while (!held.equals(written)) {
            if (held.isEmpty()) {
                tiles.deleteMetadata(set, List.of(name));
            } else {
                tiles.writeMetadata(set, name, WmtsCapabilities.document(layer, spec.tileMatrixSet(), spec.format(),
                        tiles.publicUrl(), tiles.layout(), valuesOf(layer, held)), "application/xml");
            }
            written = held;
            held = tiles.cachesWith(set, layer.dimensions().size(), manifest);
        }
    }

    /**
     * Deletes the caches of the layer's set whose value of a dimension its retention rule no longer keeps
     * ({@link Dimension#expired}), among those with a manifest of the job's format, but none of the job's own; each
     * whole, its manifest last ({@link TileStore#deleteCache}), before the capabilities are written again without it.
     */
    private void applyRetention(JobSpec spec, LayerInfo layer, List<DimensionValues> own) throws IOException {
        List<Dimension> dimensions = layer.dimensions();
        if (dimensions.stream().allMatch(d -> d.retention() == null)) {
            return;
        }
        TileCache set = new TileCache(spec.layer(), spec.tileMatrixSet());
        List<String> held = tiles.cachesWith(set, dimensions.size(), Manifest.fileName(spec.format()));
        Set<String> ownFolders = own.stream().map(DimensionValues::path).collect(Collectors.toSet());
        Map<String, Set<String>> values = valuesOf(layer, held);
        for (int i = 0; i < dimensions.size(); i++) {
            Dimension dimension = dimensions.get(i);
            Set<String> expired = new HashSet<>(dimension.expired(values.get(dimension.name()), Instant.now()));
            if (expired.isEmpty()) {
                continue;
            }
            for (String folder : held) {
                String[] parts = folder.split("/");
                if (ownFolders.contains(folder) || !expired.contains(DimensionValues.value(parts[i]))) {
                    continue;
                }
                Map<String, String> cacheValues = new LinkedHashMap<>();
                for (int d = 0; d < dimensions.size(); d++) {
                    cacheValues.put(dimensions.get(d).name(), DimensionValues.value(parts[d]));
                }
                TileCache cache = new TileCache(spec.layer(), spec.tileMatrixSet(), new DimensionValues(cacheValues));
                long deleted = tiles.deleteCache(cache);
                LOG.info(() -> "retention of " + dimension.name() + " on layer " + spec.layer() + ": deleted the cache "
                        + cache.path() + " (" + deleted + " objects)");
            }
        }
    }

    /** The values of each dimension among the caches' folders ({@code v1/v2/…}), in the order listed. */
    private static Map<String, Set<String>> valuesOf(LayerInfo layer, List<String> caches) {
        Map<String, Set<String>> values = new LinkedHashMap<>();
        layer.dimensions().forEach(dimension -> values.put(dimension.name(), new LinkedHashSet<>()));
        for (String cache : caches) {
            String[] folders = cache.split("/");
            for (int i = 0; i < folders.length && i < layer.dimensions().size(); i++) {
                values.get(layer.dimensions().get(i).name()).add(DimensionValues.value(folders[i]));
            }
        }
        return values;
    }

    /**
     * Writes the TileJSON of the cache in the job's format, with the zoom levels the store holds now
     * ({@link TileJson}); removes it when there is nothing it may describe: no tile left, or a matrix set TileJSON
     * cannot name (a document of WorldCRS84Quad tiles written by an earlier version would show them as Web Mercator).
     * Returns whether the cache holds a tile (looked up on a layer with dimensions, or when TileJSON describes it).
     */
    private boolean writeTileJson(JobSpec spec, TileCache cache, LayerInfo layer) throws IOException {
        String name = TileJson.fileName(spec.format());
        boolean describes = TileJson.describes(spec.tileMatrixSet());
        Optional<TileJson.Zooms> zooms = describes || !cache.dimensions().isEmpty()
                ? TileJson.zoomsHeld(tiles, cache, layer) : Optional.empty();
        if (describes && zooms.isPresent()) {
            tiles.writeMetadata(cache, name, TileJson.document(layer, cache, spec.format(), tiles.publicUrl(),
                    tiles.layout(), zooms.get()), "application/json");
        } else {
            tiles.deleteMetadata(cache, List.of(name));
        }
        return zooms.isPresent();
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
