package io.tileseeder.worker.task;

import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileLists;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.Mode;
import io.tileseeder.layer.EmptyTilePolicy;
import io.tileseeder.layer.LayerConfig;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.message.TileCounts;
import io.tileseeder.port.ChangeLists;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.MetatileLock;
import io.tileseeder.port.StoreUnavailableException;
import io.tileseeder.port.StoredTile;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import io.tileseeder.worker.encode.TileEncoder;
import io.tileseeder.worker.encode.UniformTiles;
import io.tileseeder.worker.render.MetatileImage;
import io.tileseeder.worker.render.TileContent;
import io.tileseeder.worker.render.TileView;
import io.tileseeder.worker.task.WorkerMetrics.Stage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Does one metatile task in two stages: {@link #prepare} (lock → check what exists → render → cut → classify
 * → encode; CPU-bound) and {@link #store} (write every tile durably, mark the metatile done, then release the
 * lock; I/O-bound), so that the worker runs each stage on a pool sized for it. A seed of a metatile marked done
 * ({@link DoneMetatiles}) stops after one look-up.
 *
 * <p>Tiles of one colour (inside a country, or fully transparent under the {@code store} policy) are encoded
 * once per colour and format, and the bytes reused ({@link UniformTiles}).
 */
public final class MetatileProcessor {

    /** Jobs' zooms whose emptiness is remembered at most; the least recently used are forgotten. */
    private static final int MAX_ZOOMS = 1024;

    private final LayerResources layers;
    private final TileStore store;
    private final MetatileLock locks;
    private final Duration lockWait;
    private final WorkerMetrics metrics;
    private final UniformTiles uniformTiles = new UniformTiles();
    private final Map<JobZoom, Boolean> emptyZooms = Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<JobZoom, Boolean> eldest) {
                    return size() > MAX_ZOOMS;
                }
            });

    public MetatileProcessor(LayerResources layers, TileStore store, MetatileLock locks, Duration lockWait,
                             WorkerMetrics metrics) {
        this.layers = layers;
        this.store = store;
        this.locks = locks;
        this.lockWait = lockWait;
        this.metrics = metrics;
    }

    /** The meters this pipeline records into. */
    public WorkerMetrics metrics() {
        return metrics;
    }

    /**
     * A metatile whose tiles are encoded and not yet stored; it holds the metatile's lock until
     * {@link #store} (or {@link Prepared#abandon}).
     */
    public static final class Prepared {
        private final MetatileLock.Lease lease;
        private final List<EncodedTile> tiles;
        private final List<TileKey> deletions;
        private final TileCounts counts;
        private final boolean truncate;
        private final MetatileTask task;
        private final List<TileKey> changes;
        private final List<String> unmark;
        private final String mark;

        private Prepared(MetatileLock.Lease lease, List<EncodedTile> tiles, List<TileKey> deletions,
                         TileCounts counts, boolean truncate, MetatileTask task, List<TileKey> changes,
                         List<String> unmark, String mark) {
            this.lease = lease;
            this.tiles = tiles;
            this.deletions = deletions;
            this.counts = counts;
            this.truncate = truncate;
            this.task = task;
            this.changes = changes;
            this.unmark = unmark;
            this.mark = mark;
        }

        /**
         * What storing the tiles would count: the deletions of a truncate not yet, those of a reseed (stored tiles that
         * have become empty) as if each tile were still there to delete.
         */
        public TileCounts counts() {
            return counts;
        }

        /** Gives up the metatile without storing it, releasing its lock. */
        public void abandon() {
            lease.close();
        }
    }

    /** Both stages on the calling thread: {@link #prepare}, then {@link #store}. */
    public Optional<TileCounts> process(MetatileTask task) throws IOException, InterruptedException {
        Optional<Prepared> prepared = prepare(task);
        return prepared.isEmpty() ? Optional.empty() : Optional.of(store(prepared.get()));
    }

    /**
     * Locks the metatile and encodes the tiles to write; empty if someone else holds its lock past the lock
     * wait (try later). On success the lock stays held: pass the result to {@link #store}, or
     * {@link Prepared#abandon} it.
     *
     * @throws IOException if the layer's data cannot be read or its upstream WMS fails
     */
    public Optional<Prepared> prepare(MetatileTask task) throws IOException, InterruptedException {
        LayerConfig layer = layers.layer(task.layer());
        long start = System.nanoTime();
        Optional<MetatileLock.Lease> lease = locks.tryLock(task.metatileKey(), lockWait);
        metrics.stage(Stage.LOCK, System.nanoTime() - start);
        if (lease.isEmpty()) {
            metrics.lockContended();
            return Optional.empty();
        }
        try {
            return Optional.of(task.mode() == Mode.TRUNCATE ? truncate(task, lease.get()) : render(task, layer, lease.get()));
        } catch (IOException | RuntimeException e) {
            lease.get().close();
            throw e;
        }
    }

    /**
     * Writes (or deletes) the prepared tiles; returns once all are durable, then releases the lock. A truncate
     * deletes the metatile's done markers before its tiles; a seed or reseed of a whole metatile writes its marker
     * after them, so a marker never vouches for a tile that is not stored.
     *
     * @throws StoreUnavailableException if the store is unreachable: the lock stays held, so the caller may call
     *                                   this again once it is back, or {@link Prepared#abandon} the metatile
     * @throws IOException               if the store fails otherwise; nothing half-written is left, and the lock is
     *                                   released
     */
    public TileCounts store(Prepared prepared) throws IOException {
        boolean release = true;
        try {
            long start = System.nanoTime();
            TileCounts counts = prepared.counts;
            MetatileTask task = prepared.task;
            if (!prepared.unmark.isEmpty()) {
                store.deleteMetadata(task.layer(), task.tileMatrixSet(), prepared.unmark);
            }
            if (!prepared.changes.isEmpty()) {
                writeChanges(prepared.task, prepared.changes);
            }
            if (!prepared.deletions.isEmpty()) {
                long deleted = store.delete(prepared.deletions);
                long gone = prepared.deletions.size() - deleted;
                // Tiles that were not there (any more) when deleted: for a truncate skipped, not there to delete;
                // for a reseed empty tiles not stored, like the others it found empty.
                counts = prepared.truncate ? new TileCounts(0, 0, gone, deleted, 0, 0, 0)
                        : new TileCounts(counts.written(), counts.empty() + gone, counts.skipped(), deleted,
                                counts.failed(), counts.bytes(), counts.unchanged());
            }
            if (!prepared.tiles.isEmpty()) {
                store.write(prepared.tiles);
            }
            if (prepared.mark != null) {
                store.writeMetadata(task.layer(), task.tileMatrixSet(), prepared.mark,
                        (task.jobId() + "\n").getBytes(StandardCharsets.UTF_8), "text/plain; charset=utf-8");
            }
            metrics.stage(Stage.STORE, System.nanoTime() - start);
            return counts;
        } catch (StoreUnavailableException e) {
            release = false;
            storeFailed();
            throw e;
        } catch (IOException e) {
            storeFailed();
            throw e;
        } finally {
            if (release) {
                prepared.lease.close();
            }
        }
    }

    private Prepared truncate(MetatileTask task, MetatileLock.Lease lease) {
        return new Prepared(lease, List.of(), keys(task), TileCounts.ZERO, true, task, List.of(),
                DoneMetatiles.markers(task), null);
    }

    private Prepared render(MetatileTask task, LayerConfig layer, MetatileLock.Lease lease)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        // A seed trusts the marker; a reseed looks at every tile, and writes the marker only where it is missing
        // (an unchanged reseed writes nothing).
        String marker = DoneMetatiles.marker(task, layer.emptyTiles());
        boolean covers = DoneMetatiles.coversMetatile(task);
        boolean marked = (task.mode() == Mode.SEED || covers) && markedDone(task, marker);
        List<TileKey> keys = keys(task);
        if (marked && task.mode() == Mode.SEED) {
            metrics.stage(Stage.CHECK, System.nanoTime() - start);
            return new Prepared(lease, List.of(), List.of(), new TileCounts(0, 0, keys.size(), 0, 0, 0, 0), false,
                    task, List.of(), List.of(), null);
        }
        String mark = covers && !marked ? marker : null;
        List<TileKey> todo = new ArrayList<>();
        long skipped = 0;
        Map<TileKey, StoredTile> existing = existing(task, keys);
        for (TileKey key : keys) {
            StoredTile stored = existing.get(key);
            if (upToDate(task, stored == null ? null : stored.lastModified())) {
                skipped++;
            } else {
                todo.add(key);
            }
        }
        long checked = System.nanoTime();
        metrics.stage(Stage.CHECK, checked - start);
        if (todo.isEmpty()) {
            return new Prepared(lease, List.of(), List.of(), new TileCounts(0, 0, skipped, 0, 0, 0, 0), false, task,
                    List.of(), List.of(), mark);
        }

        Optional<MetatileImage> image = layers.source(layer).render(task.metatile(), layer.gutter());
        long rendered = System.nanoTime();
        metrics.stage(Stage.RENDER, rendered - checked);

        TileEncoder encoder = layers.encoder(layer, task.format());
        List<EncodedTile> out = new ArrayList<>(todo.size());
        List<TileKey> nowEmpty = new ArrayList<>();
        long empty = 0;
        long unchanged = 0;
        long bytes = 0;
        for (TileKey key : todo) {
            TileView view = image.map(metatile -> metatile.tile(key.tile())).orElse(null);
            TileContent content = view == null ? TileContent.EMPTY : TileContent.of(view);
            if (content.isEmpty() && layer.emptyTiles() == EmptyTilePolicy.SKIP) {
                // A reseed removes tiles that have become empty since they were written, so none is left stale; they
                // count as deleted, the others as empty.
                if (task.mode() == Mode.RESEED && existing.containsKey(key)) {
                    nowEmpty.add(key);
                } else {
                    empty++;
                }
                continue;
            }
            byte[] data = uniformTiles.encode(encoder, view, content);
            StoredTile stored = existing.get(key);
            if (task.mode() == Mode.RESEED && stored != null && stored.holds(data)) {
                unchanged++;
                continue;
            }
            out.add(new EncodedTile(key, data));
            bytes += data.length;
        }
        metrics.stage(Stage.ENCODE, System.nanoTime() - rendered);
        List<TileKey> changes = new ArrayList<>();
        if (task.mode() == Mode.RESEED) {
            out.forEach(tile -> changes.add(tile.key()));
            changes.addAll(nowEmpty);
        }
        return new Prepared(lease, out, nowEmpty, new TileCounts(out.size(), empty, skipped, nowEmpty.size(), 0, bytes,
                unchanged), false, task, changes, List.of(), mark);
    }

    /** Whether the store holds the metatile's done marker: every tile of it was stored, or found empty. */
    private boolean markedDone(MetatileTask task, String marker) throws IOException {
        try {
            return store.hasMetadata(task.layer(), task.tileMatrixSet(), marker);
        } catch (IOException e) {
            storeFailed();
            throw e;
        }
    }

    /**
     * What the store holds of the task's tiles, looked up in one go: when each was written (seed), and for a reseed
     * also its MD5, to leave the tiles it would write unchanged alone.
     */
    private Map<TileKey, StoredTile> existing(MetatileTask task, List<TileKey> keys) throws IOException {
        try {
            if (task.mode() == Mode.SEED && zoomWasEmpty(task)) {
                return Map.of();
            }
            if (task.mode() == Mode.RESEED) {
                return store.stored(keys);
            }
            Map<TileKey, StoredTile> found = new HashMap<>();
            store.lastModified(keys).forEach((key, time) -> found.put(key, new StoredTile(time, null)));
            return found;
        } catch (IOException e) {
            storeFailed();
            throw e;
        }
    }

    /**
     * Whether the store held no tile of the task's zoom when this worker first asked, for the task's job: then a seed
     * looks up none of the job's tiles there (on S3, a HEAD per tile). Asked once per job and zoom; once any answer
     * says the zoom holds a tile, that stays the answer. A tile written there since came from a task of the same job
     * (each metatile once; one tried again is marked done, or draws the same tile again) or from a job beside it: a
     * seed draws and writes it again rather than skip it, and loses nothing. A reseed always looks up its tiles: it
     * must know what is stored to delete tiles that became empty, list every change and leave unchanged tiles alone.
     */
    private boolean zoomWasEmpty(MetatileTask task) throws IOException {
        JobZoom zoom = new JobZoom(task.jobId(), task.layer(), task.tileMatrixSet(), task.z());
        Boolean empty = emptyZooms.get(zoom);
        if (empty == null) {
            boolean answer = !store.hasTiles(task.layer(), task.tileMatrixSet(), task.z());
            empty = emptyZooms.merge(zoom, answer, (known, asked) -> known && asked);
        }
        return empty;
    }

    private record JobZoom(String jobId, String layer, TileMatrixSet tileMatrixSet, int z) {
    }

    /**
     * Lists the tiles a reseed is about to change (rewrite or delete) in a file beside the layer's tiles
     * ({@link ChangeLists}), one {@code z/x/y} per line (the tile list format jobs and osm2pgsql use), for a CDN purge
     * to follow. Written before the tiles, so no change goes unlisted if the worker dies between the
     * two; a task tried again writes a file of its own rather than replace one that may list more.
     */
    private void writeChanges(MetatileTask task, List<TileKey> changes) throws IOException {
        String lines = TileLists.write(changes.stream().map(TileKey::tile).toList());
        String name = ChangeLists.fileName(task.jobId(), task.seq(),
                Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1));
        store.writeMetadata(task.layer(), task.tileMatrixSet(), name, lines.getBytes(StandardCharsets.UTF_8),
                "text/plain; charset=utf-8");
    }

    /** Counts a failed store operation, unless it failed because this thread was interrupted (shutting down). */
    private void storeFailed() {
        if (!Thread.currentThread().isInterrupted()) {
            metrics.storeError();
        }
    }

    /**
     * Whether the tile, last written at {@code written} (null if missing), may be left as it is: it exists (seed),
     * or was written after refreshBefore (reseed).
     */
    private static boolean upToDate(MetatileTask task, Instant written) {
        if (task.mode() == Mode.SEED) {
            return written != null;
        }
        Instant refreshBefore = task.refreshBefore();
        return refreshBefore != null && written != null && !written.isBefore(refreshBefore);
    }

    /** The keys of the tiles the task stores, row by row. */
    private static List<TileKey> keys(MetatileTask task) {
        List<TileCoord> tiles = task.tilesToStore();
        List<TileKey> keys = new ArrayList<>(tiles.size());
        for (TileCoord tile : tiles) {
            keys.add(new TileKey(task.layer(), task.tileMatrixSet(), tile, task.format()));
        }
        return keys;
    }
}
