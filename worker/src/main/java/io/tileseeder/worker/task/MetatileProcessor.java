package io.tileseeder.worker.task;

import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileLists;
import io.tileseeder.layer.LayerConfig;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.message.TileCounts;
import io.tileseeder.port.ArchivePacker;
import io.tileseeder.port.ChangeLists;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.MetatileLock;
import io.tileseeder.port.StoreUnavailableException;
import io.tileseeder.port.StoredTile;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import io.tileseeder.render.LayerResources;
import io.tileseeder.render.MetatileRenderer;
import io.tileseeder.worker.task.WorkerMetrics.Stage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
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
 * <p>The tiles' bytes are the {@link MetatileRenderer}'s: this class decides which tiles to draw, and what becomes
 * of each.
 */
public final class MetatileProcessor {

    private final MetatileRenderer renderer;
    private final TileStore store;
    private final MetatileLock locks;
    private final Duration lockWait;
    private final WorkerMetrics metrics;
    private final RenderMode seed;
    private final RenderMode reseed;
    private final ArchivePacker packer;

    /** A processor of every mode but pack, whose tasks it fails. */
    public MetatileProcessor(LayerResources layers, TileStore store, MetatileLock locks, Duration lockWait,
                             WorkerMetrics metrics) {
        this(layers, store, locks, lockWait, metrics, (cache, format, archive, watch) -> {
            throw new IllegalArgumentException("this worker packs no archives");
        });
    }

    /** @param packer packs the caches of the store into archives, for the tasks of pack jobs */
    public MetatileProcessor(LayerResources layers, TileStore store, MetatileLock locks, Duration lockWait,
                             WorkerMetrics metrics, ArchivePacker packer) {
        this.packer = packer;
        this.renderer = new MetatileRenderer(layers);
        this.store = store;
        this.locks = locks;
        this.lockWait = lockWait;
        this.metrics = metrics;
        this.seed = new RenderMode.Seed(store);
        this.reseed = new RenderMode.Reseed(store);
    }

    /** The meters this pipeline records into. */
    public WorkerMetrics metrics() {
        return metrics;
    }

    /**
     * A metatile whose tiles are encoded and not yet stored; it holds the metatile's lock until
     * {@link #store} (or {@link Prepared#abandon}). Built by the factories below, one per outcome of prepare.
     */
    public static final class Prepared {
        private final MetatileLock.Lease lease;
        private final MetatileTask task;
        private final TileCounts counts;
        private final List<EncodedTile> tiles;
        private final List<TileKey> deletions;
        private final boolean truncate;
        private final List<TileKey> changes;
        private final List<String> unmark;
        private final String mark;
        private final boolean pack;

        private Prepared(MetatileLock.Lease lease, MetatileTask task, TileCounts counts, List<EncodedTile> tiles,
                         List<TileKey> deletions, boolean truncate, List<TileKey> changes, List<String> unmark,
                         String mark) {
            this(lease, task, counts, tiles, deletions, truncate, changes, unmark, mark, false);
        }

        private Prepared(MetatileLock.Lease lease, MetatileTask task, TileCounts counts, List<EncodedTile> tiles,
                         List<TileKey> deletions, boolean truncate, List<TileKey> changes, List<String> unmark,
                         String mark, boolean pack) {
            this.lease = lease;
            this.task = task;
            this.counts = counts;
            this.tiles = tiles;
            this.deletions = deletions;
            this.truncate = truncate;
            this.changes = changes;
            this.unmark = unmark;
            this.mark = mark;
            this.pack = pack;
        }

        /** A pack: the archive is written by {@link #store}, under the archive's lock. */
        static Prepared packing(MetatileLock.Lease lease, MetatileTask task) {
            return new Prepared(lease, task, TileCounts.ZERO, List.of(), List.of(), false, List.of(), List.of(), null,
                    true);
        }

        /** No tile to write: {@code counts} says why; the done marker {@code mark} is written if not null. */
        static Prepared nothingToWrite(MetatileLock.Lease lease, MetatileTask task, TileCounts counts, String mark) {
            return new Prepared(lease, task, counts, List.of(), List.of(), false, List.of(), List.of(), mark);
        }

        /** A truncate: the metatile's done {@code markers} are deleted, then its tiles. */
        static Prepared truncation(MetatileLock.Lease lease, MetatileTask task, List<TileKey> tiles,
                                   List<String> markers) {
            return new Prepared(lease, task, TileCounts.ZERO, List.of(), tiles, true, List.of(), markers, null);
        }

        /**
         * A rendered metatile: the {@code changes} are listed, the tiles that became empty deleted and the others
         * written, then the done marker {@code mark} written if not null.
         */
        static Prepared rendered(MetatileLock.Lease lease, MetatileTask task, Tally tally, List<TileKey> changes,
                                 String mark) {
            return new Prepared(lease, task, tally.counts(), tally.written, tally.nowEmpty, false, changes,
                    List.of(), mark);
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

    /** The tiles of one rendered metatile, by what becomes of each, as the encode loop finds them. */
    static final class Tally {
        private final List<EncodedTile> written = new ArrayList<>();
        private final List<TileKey> nowEmpty = new ArrayList<>();
        private long bytes;
        private long empty;
        private long skipped;
        private long unchanged;

        TileCounts counts() {
            return new TileCounts(written.size(), empty, skipped, nowEmpty.size(), 0, bytes, unchanged);
        }

        /** The tiles to write. */
        List<EncodedTile> written() {
            return written;
        }

        /** The stored tiles that have become empty, to delete. */
        List<TileKey> nowEmpty() {
            return nowEmpty;
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
        LayerConfig layer = renderer.layers().layer(task.layer());
        long start = System.nanoTime();
        Optional<MetatileLock.Lease> lease = locks.tryLock(task.metatileKey(), lockWait);
        metrics.stage(Stage.LOCK, System.nanoTime() - start);
        if (lease.isEmpty()) {
            metrics.lockContended();
            return Optional.empty();
        }
        Prepared prepared = null;
        try {
            prepared = switch (task.mode()) {
                case SEED -> render(task, layer, lease.get(), seed);
                case RESEED -> render(task, layer, lease.get(), reseed);
                case TRUNCATE -> Prepared.truncation(lease.get(), task, keys(task), DoneMetatiles.markers(task));
                case PACK -> Prepared.packing(lease.get(), task);
            };
            return Optional.of(prepared);
        } finally {
            if (prepared == null) {
                // Failed, interrupted or broken: nobody else will release the lock before its lease ends.
                lease.get().close();
            }
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
    public TileCounts store(Prepared prepared) throws IOException, InterruptedException {
        return store(prepared, ArchivePacker.Watch.NONE);
    }

    /**
     * As {@link #store(Prepared)}; a pack writes its archive under {@code watch} (told it is alive every few seconds,
     * asked whether to stop), and counts it as one tile written, of the archive's bytes.
     *
     * @throws IllegalArgumentException if the pack's cache cannot be packed as it is (the lock is released)
     * @throws ArchivePacker.Stopped    if the watch stopped the pack (the lock is released)
     */
    public TileCounts store(Prepared prepared, ArchivePacker.Watch watch) throws IOException, InterruptedException {
        boolean release = true;
        try {
            long start = System.nanoTime();
            TileCounts counts = prepared.counts;
            MetatileTask task = prepared.task;
            if (prepared.pack) {
                ArchivePacker.Packed packed = packer.pack(task.cache(), task.format(), task.archive(), watch);
                metrics.stage(Stage.STORE, System.nanoTime() - start);
                return new TileCounts(1, 0, 0, 0, 0, packed.archiveBytes(), 0);
            }
            if (!prepared.unmark.isEmpty()) {
                store.deleteMetadata(task.cache(), prepared.unmark);
            }
            if (!prepared.changes.isEmpty()) {
                writeChanges(prepared.task, prepared.changes);
            }
            if (!prepared.deletions.isEmpty()) {
                long deleted = store.delete(prepared.deletions);
                long gone = prepared.deletions.size() - deleted;
                // Tiles that were not there (any more) when deleted: for a truncate not there to delete; for a
                // reseed empty tiles not stored, like the others it found empty.
                counts = prepared.truncate ? TileCounts.truncated(deleted, gone) : counts.withGone(gone);
            }
            if (!prepared.tiles.isEmpty()) {
                store.write(prepared.tiles);
            }
            if (prepared.mark != null) {
                store.writeMetadata(task.cache(), prepared.mark,
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

    private Prepared render(MetatileTask task, LayerConfig layer, MetatileLock.Lease lease, RenderMode mode)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        // A seed trusts the marker; a reseed looks at every tile, and writes the marker only where it is missing
        // (an unchanged reseed writes nothing).
        String marker = DoneMetatiles.marker(task, layer.emptyTiles());
        boolean covers = DoneMetatiles.coversMetatile(task);
        boolean marked = (mode.trustsMarker() || covers) && markedDone(task, marker);
        List<TileKey> keys = keys(task);
        if (marked && mode.trustsMarker()) {
            metrics.stage(Stage.CHECK, System.nanoTime() - start);
            return Prepared.nothingToWrite(lease, task, TileCounts.skipped(keys.size()), null);
        }
        String mark = covers && !marked ? marker : null;
        List<TileKey> todo = new ArrayList<>();
        Tally tally = new Tally();
        Map<TileKey, StoredTile> existing = lookUp(mode, task, keys);
        for (TileKey key : keys) {
            if (mode.upToDate(task, existing.get(key))) {
                tally.skipped++;
            } else {
                todo.add(key);
            }
        }
        long checked = System.nanoTime();
        metrics.stage(Stage.CHECK, checked - start);
        if (todo.isEmpty()) {
            return Prepared.nothingToWrite(lease, task, tally.counts(), mark);
        }

        MetatileRenderer.Drawn drawn = renderer.draw(layer, task.metatile(), task.format(), task.dimensions());
        long rendered = System.nanoTime();
        metrics.stage(Stage.RENDER, rendered - checked);

        for (TileKey key : todo) {
            Optional<byte[]> encoded = drawn.encode(key.tile());
            StoredTile stored = existing.get(key);
            if (encoded.isEmpty()) {
                if (mode.deletes(stored)) {
                    tally.nowEmpty.add(key);
                } else {
                    tally.empty++;
                }
                continue;
            }
            byte[] data = encoded.get();
            if (mode.unchanged(stored, data)) {
                tally.unchanged++;
                continue;
            }
            tally.written.add(new EncodedTile(key, data));
            tally.bytes += data.length;
        }
        metrics.stage(Stage.ENCODE, System.nanoTime() - rendered);
        return Prepared.rendered(lease, task, tally, mode.changes(tally), mark);
    }

    /** Whether the store holds the metatile's done marker: every tile of it was stored, or found empty. */
    private boolean markedDone(MetatileTask task, String marker) throws IOException {
        try {
            return store.hasMetadata(task.cache(), marker);
        } catch (IOException e) {
            storeFailed();
            throw e;
        }
    }

    /** What the store holds of the task's tiles, as {@code mode} looks them up; a failure counts as the store's. */
    private Map<TileKey, StoredTile> lookUp(RenderMode mode, MetatileTask task, List<TileKey> keys) throws IOException {
        try {
            return mode.lookUp(task, keys);
        } catch (IOException e) {
            storeFailed();
            throw e;
        }
    }

    /**
     * Lists the tiles a reseed is about to change (rewrite or delete) in a file beside the layer's tiles
     * ({@link ChangeLists}), one {@code z/x/y} per line (the tile list format jobs and osm2pgsql use), for a CDN purge
     * to follow. Written before the tiles, so no change goes unlisted if the worker dies between the
     * two; a task tried again writes a file of its own rather than replace one that may list more.
     */
    private void writeChanges(MetatileTask task, List<TileKey> changes) throws IOException {
        String lines = TileLists.write(changes.stream().map(TileKey::tile).toList());
        String name = ChangeLists.fileName(task.jobId(), task.dimensions(), task.seq(),
                Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1));
        store.writeMetadata(task.cache().set(), name, lines.getBytes(StandardCharsets.UTF_8),
                "text/plain; charset=utf-8");
    }

    /** Counts a failed store operation, unless it failed because this thread was interrupted (shutting down). */
    private void storeFailed() {
        if (!Thread.currentThread().isInterrupted()) {
            metrics.storeError();
        }
    }

    /** The keys of the tiles the task stores, row by row. */
    private static List<TileKey> keys(MetatileTask task) {
        List<TileCoord> tiles = task.tilesToStore();
        List<TileKey> keys = new ArrayList<>(tiles.size());
        TileCache cache = task.cache();
        for (TileCoord tile : tiles) {
            keys.add(new TileKey(cache, tile, task.format()));
        }
        return keys;
    }
}
