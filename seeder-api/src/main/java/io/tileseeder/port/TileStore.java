package io.tileseeder.port;

import io.tileseeder.grid.TileCoord;
import io.tileseeder.job.Digests;
import io.tileseeder.job.FieldError;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.TileFormat;
import java.io.IOException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where tiles go. Every implementation keeps the same promise: when {@link #write} returns, every tile given
 * to it is durably stored, and no reader ever sees a half-written tile.
 */
public interface TileStore {

    /**
     * Why this store cannot hold a job's tiles, or empty when it can: a single-file store holds one cache (one layer,
     * one tile matrix set, one format), a layout may not name the tiles of every set. Asked when a job is submitted,
     * so that such a job is refused at once.
     */
    default Optional<FieldError> refuses(JobSpec job) {
        return layout().refuses(job.tileMatrixSet()).map(reason -> new FieldError("tileMatrixSet", reason));
    }

    /** When the tile was last written, or empty if there is no such tile. */
    Optional<Instant> lastModified(TileKey key) throws IOException;

    /**
     * When each of the tiles that exist was last written (tiles missing from the answer do not exist). A store
     * may look them all up at once: an S3 store sends the look-ups together instead of one after another.
     */
    default Map<TileKey, Instant> lastModified(Collection<TileKey> keys) throws IOException {
        Map<TileKey, Instant> found = new HashMap<>();
        for (TileKey key : keys) {
            lastModified(key).ifPresent(time -> found.put(key, time));
        }
        return found;
    }

    /**
     * What the store holds of each of the tiles that exist (tiles missing from the answer do not exist), for a reseed
     * to tell which tiles it would write unchanged. By default each tile is read and hashed; an S3 store answers from
     * each object's metadata (its ETag), without reading it.
     */
    default Map<TileKey, StoredTile> stored(Collection<TileKey> keys) throws IOException {
        Map<TileKey, StoredTile> found = new HashMap<>();
        for (TileKey key : keys) {
            Optional<Instant> written = lastModified(key);
            Optional<byte[]> data = written.isPresent() ? read(key) : Optional.empty();
            data.ifPresent(bytes -> found.put(key, new StoredTile(written.get(), Digests.md5(bytes))));
        }
        return found;
    }

    /**
     * Whether the store holds anything below {@code {cache}/{z}/}: a tile of that zoom in any format (or a leftover of
     * one), not the documents beside the tiles, and not once every tile of the zoom is deleted. A listing or two of
     * at most one entry while the zoom holds tiles; a seed asks once per zoom and job, and into a zoom that holds
     * nothing it does not look up each tile; the TileJSON's zoom range is made of its answers.
     */
    boolean hasTiles(TileCache cache, int z) throws IOException;

    /**
     * The names of the folders directly below {@code {cache}/} that hold a document called {@code document}, at any
     * depth down to {@code depth} folders: the dimension values ({@link io.tileseeder.job.DimensionValues#path}) of
     * the caches of a layer's set that have it, e.g. {@code [2026-11-26T12:05:00Z/night, …]}, sorted.
     */
    List<String> cachesWith(TileCache cache, int depth, String document) throws IOException;

    /**
     * Calls {@code each} with every tile of zoom {@code z} of the cache stored in the format, in no particular order:
     * a folder store walks the zoom's folders, an S3 store lists the zoom's prefix a page at a time. What is not a
     * tile of the format (another format's tile, a leftover of a write) is passed over.
     */
    void list(TileCache cache, int z, TileFormat format, Consumer<TileCoord> each) throws IOException;

    /** The tile's bytes, or empty if there is no such tile. */
    Optional<byte[]> read(TileKey key) throws IOException;

    /** Stores the tiles, replacing any already there; returns once all of them are durable. */
    void write(Collection<EncodedTile> tiles) throws IOException;

    /** Deletes the tiles; returns how many of them existed. */
    long delete(Collection<TileKey> keys) throws IOException;

    /**
     * Deletes everything below {@code {cache}/} (a cache of a layer with dimensions: its tiles, done markers and
     * documents), the documents directly in its folder last, so that one whose deletion was interrupted still has its
     * manifest, and is found and deleted again; returns how many objects were deleted.
     */
    long deleteCache(TileCache cache) throws IOException;

    /** Stores a document beside a cache's tiles, at {@code {cache}/{name}} (e.g. TileJSON). */
    void writeMetadata(TileCache cache, String name, byte[] content, String contentType) throws IOException;

    /** The document {@code {cache}/{name}} (see {@link #writeMetadata}), or empty if there is none. */
    Optional<byte[]> readMetadata(TileCache cache, String name) throws IOException;

    /** Whether the document {@code {cache}/{name}} exists (see {@link #writeMetadata}). */
    boolean hasMetadata(TileCache cache, String name) throws IOException;

    /**
     * Deletes the documents {@code {cache}/{name}} of the given names, those that exist; returns once the deletions
     * are durable.
     */
    void deleteMetadata(TileCache cache, Collection<String> names) throws IOException;

    /**
     * The URL at which clients read the store's root, without a trailing slash: a tile is at
     * {@code {publicUrl}/{its path in the layout}} ({@link #layout}). The TileJSON and the WMTS capabilities beside
     * the tiles name them with it.
     */
    String publicUrl();

    /** How the store names its tiles below its root; a file store (MBTiles, GeoPackage) has its own, given as xyz. */
    default Layout layout() {
        return Layout.XYZ;
    }

    /** Where tiles go, for people: a folder or a URL. */
    String describe();

    /**
     * Checks quickly that the store answers now and can hold tiles (a folder store writes and deletes a file of its
     * own to know): what readiness reports.
     *
     * @throws StoreUnavailableException if it cannot be reached
     * @throws IOException               if it answers but cannot hold tiles (a bucket or folder gone)
     */
    void probe() throws IOException;
}
