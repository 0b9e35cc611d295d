package io.tileseeder.worker.task;

import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.port.StoredTile;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import io.tileseeder.worker.task.MetatileProcessor.Tally;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a seed and a reseed each do with the tiles of a metatile they render, at the points where they differ; the
 * {@link MetatileProcessor} runs the same steps for both (a truncate renders nothing: it has a path of its own).
 */
sealed interface RenderMode {

    /** Whether a metatile whose done marker is stored is left without a look at its tiles. */
    boolean trustsMarker();

    /** What the store holds of {@code keys}, looked up in one go. */
    Map<TileKey, StoredTile> lookUp(MetatileTask task, List<TileKey> keys) throws IOException;

    /** Whether the tile the store holds ({@code stored}, null if none) may be left as it is, not rendered. */
    boolean upToDate(MetatileTask task, StoredTile stored);

    /** Whether a tile rendered empty, which the layer's policy does not store, is deleted from the store. */
    boolean deletes(StoredTile stored);

    /** Whether the tile encoded to {@code data} is left alone, the store holding those very bytes. */
    boolean unchanged(StoredTile stored, byte[] data);

    /** The tiles listed for a CDN purge before any of them is stored. */
    List<TileKey> changes(Tally tally);

    /** Seed: renders and writes the tiles that are missing; a metatile marked done is left after one look-up. */
    final class Seed implements RenderMode {

        /** Jobs' zooms whose emptiness is remembered at most; the least recently used are forgotten. */
        private static final int MAX_ZOOMS = 1024;

        private final TileStore store;
        private final Map<JobZoom, Boolean> emptyZooms = Collections.synchronizedMap(
                new LinkedHashMap<>(16, 0.75f, true) {
                    @Override
                    protected boolean removeEldestEntry(Map.Entry<JobZoom, Boolean> eldest) {
                        return size() > MAX_ZOOMS;
                    }
                });

        Seed(TileStore store) {
            this.store = store;
        }

        @Override
        public boolean trustsMarker() {
            return true;
        }

        /** When each tile was written; nothing at all in a zoom that held no tile (see {@link #zoomWasEmpty}). */
        @Override
        public Map<TileKey, StoredTile> lookUp(MetatileTask task, List<TileKey> keys) throws IOException {
            if (zoomWasEmpty(task)) {
                return Map.of();
            }
            Map<TileKey, StoredTile> found = new HashMap<>();
            store.lastModified(keys).forEach((key, time) -> found.put(key, new StoredTile(time, null)));
            return found;
        }

        @Override
        public boolean upToDate(MetatileTask task, StoredTile stored) {
            return stored != null;
        }

        @Override
        public boolean deletes(StoredTile stored) {
            return false;
        }

        @Override
        public boolean unchanged(StoredTile stored, byte[] data) {
            return false;
        }

        @Override
        public List<TileKey> changes(Tally tally) {
            return List.of();
        }

        /**
         * Whether the store held no tile of the task's zoom when this worker first asked, for the task's job: then a
         * seed looks up none of the job's tiles there (on S3, a HEAD per tile). Asked once per job and zoom; once any
         * answer says the zoom holds a tile, that stays the answer. A tile written there since came from a task of the
         * same job (each metatile once; one tried again is marked done, or draws the same tile again) or from a job
         * beside it: a seed draws and writes it again rather than skip it, and loses nothing. A reseed always looks up
         * its tiles: it must know what is stored to delete tiles that became empty, list every change and leave
         * unchanged tiles alone.
         */
        private boolean zoomWasEmpty(MetatileTask task) throws IOException {
            JobZoom zoom = new JobZoom(task.jobId(), task.cache(), task.z());
            Boolean empty = emptyZooms.get(zoom);
            if (empty == null) {
                boolean answer = !store.hasTiles(task.cache(), task.z());
                empty = emptyZooms.merge(zoom, answer, (known, asked) -> known && asked);
            }
            return empty;
        }

        private record JobZoom(String jobId, TileCache cache, int z) {
        }
    }

    /**
     * Reseed: renders every tile again (or those written before {@code refreshBefore}) and writes only those whose
     * bytes change; deletes the stored tiles that have become empty, so none is left stale; lists every change.
     */
    final class Reseed implements RenderMode {

        private final TileStore store;

        Reseed(TileStore store) {
            this.store = store;
        }

        @Override
        public boolean trustsMarker() {
            return false;
        }

        /** When each tile was written, and its MD5. */
        @Override
        public Map<TileKey, StoredTile> lookUp(MetatileTask task, List<TileKey> keys) throws IOException {
            return store.stored(keys);
        }

        @Override
        public boolean upToDate(MetatileTask task, StoredTile stored) {
            Instant refreshBefore = task.refreshBefore();
            return refreshBefore != null && stored != null && !stored.lastModified().isBefore(refreshBefore);
        }

        @Override
        public boolean deletes(StoredTile stored) {
            return stored != null;
        }

        @Override
        public boolean unchanged(StoredTile stored, byte[] data) {
            return stored != null && stored.holds(data);
        }

        @Override
        public List<TileKey> changes(Tally tally) {
            List<TileKey> changes = new ArrayList<>(tally.written().size() + tally.nowEmpty().size());
            tally.written().forEach(tile -> changes.add(tile.key()));
            changes.addAll(tally.nowEmpty());
            return changes;
        }
    }
}
