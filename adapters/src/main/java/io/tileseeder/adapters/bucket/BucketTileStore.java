package io.tileseeder.adapters.bucket;

import io.tileseeder.grid.TileCoord;
import io.tileseeder.job.TileFormat;
import io.tileseeder.outage.RetryPolicy;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.Layout;
import io.tileseeder.port.StoreUnavailableException;
import io.tileseeder.port.StoredTile;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Tiles as objects in a bucket of an object store (S3, Azure Blob Storage, Google Cloud Storage: a {@link Bucket}), at
 * {@code {prefix}/{its path in the layout}}, e.g. {@code {prefix}/{layer}/{tileMatrixSet}/{z}/{x}/{y}.{ext}}, with the
 * tile format's Content-Type and the bucket's Cache-Control.
 *
 * <p>Durability: {@link #write} sends the tiles of a call concurrently and returns only when the service has answered
 * that every one is stored. An object is replaced atomically, so a reader sees the old tile or the new one, never a
 * part. When a tile cannot be stored, the others that were stored stay.
 *
 * <p>Concurrency: every request takes a permit of one semaphore shared by all callers (default 32), so the store never
 * has more requests in flight than that, however many threads call it.
 *
 * <p>Failures: a request that fails in a way worth retrying (a 5xx, 408, 429, a throttling code, a connection or I/O
 * error: {@link Bucket#classify}) is retried with exponential backoff and jitter, up to
 * {@link RetryPolicy#maxAttempts()} attempts in all; any other (access denied, bad credentials, a missing bucket...)
 * fails at once. Errors name the endpoint, the objects and the service's error code.
 */
public class BucketTileStore implements TileStore, AutoCloseable {

    public static final int DEFAULT_MAX_IN_FLIGHT = 32;
    public static final String DEFAULT_CACHE_CONTROL = "public, max-age=86400";

    /** How long {@link #probe} waits for an answer. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

    /** The objects of a page of a listing: 1000, S3's and Azure's most. */
    private static final int PAGE = 1000;

    private final Bucket bucket;
    private final Layout layout;
    private final String publicUrl;
    private final BucketRequests requests;

    /**
     * @param publicUrl   where clients read the store's root ({@link #publicUrl}); null: the bucket's own URL
     * @param maxInFlight the most requests this store has in flight at once
     */
    public BucketTileStore(Bucket bucket, Layout layout, String publicUrl, int maxInFlight, RetryPolicy retry) {
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        this.layout = Objects.requireNonNull(layout, "layout");
        this.publicUrl = publicUrl;
        this.requests = new BucketRequests(bucket, maxInFlight, retry);
    }

    /**
     * Checks that the bucket exists and creates it if not.
     *
     * @throws IOException naming the bucket and the service's answer when it cannot be looked up or created
     */
    protected final void ensureBucket() throws IOException {
        String name = bucket.describe();
        boolean exists = requests.run("look up bucket", List.of(name), b -> bucket.exists()).get(name);
        if (!exists) {
            requests.run("create bucket", List.of(name), b -> bucket.create());
        }
    }

    /** The configured public URL, else the bucket's own URL of the prefix. */
    @Override
    public String publicUrl() {
        return publicUrl != null ? publicUrl : bucket.publicUrl();
    }

    public String endpoint() {
        return bucket.endpoint();
    }

    @Override
    public Layout layout() {
        return layout;
    }

    /** The object name of {@code path} below the prefix. */
    private String objectName(String path) {
        return bucket.prefix().isEmpty() ? path : bucket.prefix() + "/" + path;
    }

    /** The object name of a tile: {@code {prefix}/{its path in the layout}}. */
    public String objectName(TileKey key) {
        return objectName(layout.path(key));
    }

    /** The object name of a document beside a cache's tiles: {@code {prefix}/{cache's folder}/{name}}. */
    public String metadataObjectName(TileCache cache, String name) {
        return objectName(folder(cache) + name);
    }

    /** The cache's folder in the layout, ending with /, below the prefix. */
    private String folder(TileCache cache) {
        return layout.folder(cache) + "/";
    }

    @Override
    public Optional<Instant> lastModified(TileKey key) throws IOException {
        String object = objectName(key);
        return requests.run("look up", List.of(object), bucket::stat).get(object).map(Bucket.ObjectInfo::lastModified);
    }

    /** One look-up per tile, sent together (see {@link #stored}). */
    @Override
    public Map<TileKey, Instant> lastModified(Collection<TileKey> keys) throws IOException {
        Map<TileKey, Instant> found = new LinkedHashMap<>();
        stored(keys).forEach((key, tile) -> found.put(key, tile.lastModified()));
        return found;
    }

    /** From each object's metadata: its last modification and the MD5 the service keeps of it. */
    @Override
    public Map<TileKey, StoredTile> stored(Collection<TileKey> keys) throws IOException {
        Map<String, TileKey> byObject = new LinkedHashMap<>();
        for (TileKey key : keys) {
            byObject.put(objectName(key), key);
        }
        Map<TileKey, StoredTile> found = new LinkedHashMap<>();
        requests.run("look up", byObject.keySet(), bucket::stat).forEach((object, stat) -> stat.ifPresent(s ->
                found.put(byObject.get(object), new StoredTile(s.lastModified(), s.md5()))));
        return found;
    }

    /**
     * A listing of at most one object below the zoom's prefix; in the quadkey layout, whose tiles of all zooms share
     * the cache's folder, the folder's listing (without its subfolders) page by page until a tile of the zoom turns up.
     */
    @Override
    public boolean hasTiles(TileCache cache, int z) throws IOException {
        String prefix = objectName(folder(cache) + layout.zoomFolder(z));
        if (layout != Layout.QUADKEY) {
            return !requests.run("list", List.of(prefix), p -> bucket.list(p, false, null, 1)).get(prefix)
                    .names().isEmpty();
        }
        boolean[] found = {false};
        eachPage(prefix, true, page -> {
            for (String name : page.names()) {
                found[0] |= layout.isTileOfZoom(name.substring(prefix.length()), z);
            }
            return !found[0];
        });
        return found[0];
    }

    /**
     * Lists the folders below the cache's level by level (one level at a time, every page), then looks up the
     * document in each folder {@code depth} deep, together.
     */
    @Override
    public List<String> cachesWith(TileCache cache, int depth, String document) throws IOException {
        String root = objectName(folder(cache));
        List<String> level = List.of(root);
        for (int d = 0; d < depth; d++) {
            List<String> next = new ArrayList<>();
            for (String folder : level) {
                eachPage(folder, true, page -> next.addAll(page.folders()));
            }
            level = next;
        }
        Map<String, String> byDocument = new LinkedHashMap<>();
        level.forEach(folder -> byDocument.put(folder + document, folder));
        List<String> found = new ArrayList<>();
        requests.run("look up", byDocument.keySet(), bucket::stat).forEach((object, stat) -> {
            if (stat.isPresent()) {
                String folder = byDocument.get(object);
                found.add(folder.substring(root.length(), folder.length() - 1));
            }
        });
        Collections.sort(found);
        return found;
    }

    /**
     * Lists the zoom's prefix a page (1000 objects) at a time, keeping the names of its tiles ({@code {x}/{y}.{ext}}
     * in the xyz layout); in the quadkey layout, the cache's folder without its subfolders.
     */
    @Override
    public void list(TileCache cache, int z, TileFormat format, Consumer<TileCoord> each) throws IOException {
        String prefix = objectName(folder(cache) + layout.zoomFolder(z));
        eachPage(prefix, layout == Layout.QUADKEY, page -> {
            for (String name : page.names()) {
                layout.tileOf(cache.tileMatrixSet(), z, name.substring(prefix.length()), format).ifPresent(each);
            }
            return true;
        });
    }

    @Override
    public Optional<byte[]> read(TileKey key) throws IOException {
        String object = objectName(key);
        return requests.run("read", List.of(object), bucket::get).get(object);
    }

    @Override
    public void write(Collection<EncodedTile> tiles) throws IOException {
        if (tiles.isEmpty()) {
            return;
        }
        // One PUT per object name: a tile given twice is stored once, with the last bytes given.
        Map<String, EncodedTile> byObject = new LinkedHashMap<>();
        for (EncodedTile tile : tiles) {
            byObject.put(objectName(tile.key()), tile);
        }
        requests.run("store", byObject.keySet(), object -> {
            EncodedTile tile = byObject.get(object);
            return bucket.put(object, tile.data(), tile.key().format().contentTypeOf(tile.data()));
        });
    }

    /**
     * Deletes the tiles in batch requests. A batch delete does not say whether an object existed (S3 reports a missing
     * key "deleted" too), so each key is looked up first (concurrently, within the in-flight limit) and only those
     * that exist are deleted and counted. A tile written by someone else between the look-up and the delete is left
     * alone (it was not there when asked about).
     */
    @Override
    public long delete(Collection<TileKey> keys) throws IOException {
        if (keys.isEmpty()) {
            return 0;
        }
        Set<String> objects = new LinkedHashSet<>();
        for (TileKey key : keys) {
            objects.add(objectName(key));
        }
        List<String> existing = new ArrayList<>();
        requests.run("look up", objects, bucket::stat).forEach((object, stat) -> {
            if (stat.isPresent()) {
                existing.add(object);
            }
        });
        deleteAll(existing);
        return existing.size();
    }

    private void deleteAll(List<String> objects) throws IOException {
        List<List<String>> batches = new ArrayList<>();
        int size = bucket.deleteBatch();
        for (int from = 0; from < objects.size(); from += size) {
            batches.add(objects.subList(from, Math.min(objects.size(), from + size)));
        }
        requests.run("delete", batches, bucket::delete);
    }

    /**
     * Lists the objects below the cache's prefix a page (1000) at a time, deleting each page's tiles as it goes; the
     * documents directly in the folder are deleted last.
     */
    @Override
    public long deleteCache(TileCache cache) throws IOException {
        String prefix = objectName(folder(cache));
        List<String> documents = new ArrayList<>();
        long[] deleted = {0};
        eachPage(prefix, false, page -> {
            List<String> objects = new ArrayList<>();
            for (String name : page.names()) {
                (layout.isTile(name.substring(prefix.length())) ? objects : documents).add(name);
            }
            deleteAll(objects);
            deleted[0] += objects.size();
            return true;
        });
        deleteAll(documents);
        return deleted[0] + documents.size();
    }

    /** What is done with each page of a listing; false to stop listing. */
    private interface PageAction {
        boolean accept(Bucket.Page page) throws IOException;
    }

    /**
     * Lists the objects below the prefix, a page (1000) at a time, each page handled before the next is asked, until
     * the last page or the action says stop.
     */
    private void eachPage(String prefix, boolean oneLevel, PageAction action) throws IOException {
        String token = null;
        do {
            String after = token;
            Bucket.Page page = requests.run("list", List.of(prefix), p -> bucket.list(p, oneLevel, after, PAGE))
                    .get(prefix);
            if (!action.accept(page)) {
                return;
            }
            token = page.next();
        } while (token != null);
    }

    @Override
    public void writeMetadata(TileCache cache, String name, byte[] content, String contentType) throws IOException {
        String object = metadataObjectName(cache, name);
        requests.run("store", List.of(object), o -> bucket.put(o, content, contentType));
    }

    /**
     * Stores a file as the object {@code {prefix}/{name}}, in parts for a large file; the service shows it under its
     * name only once the last part is in: never half of it.
     */
    public void upload(String name, Path file, String contentType) throws IOException {
        String object = objectName(name);
        requests.run("upload", List.of(object), o -> bucket.upload(o, file, contentType));
    }

    @Override
    public Optional<byte[]> readMetadata(TileCache cache, String name) throws IOException {
        String object = metadataObjectName(cache, name);
        return requests.run("read", List.of(object), bucket::get).get(object);
    }

    @Override
    public boolean hasMetadata(TileCache cache, String name) throws IOException {
        String object = metadataObjectName(cache, name);
        return requests.run("look up", List.of(object), bucket::stat).get(object).isPresent();
    }

    /** Batch deletes of the documents; a missing one is no error. */
    @Override
    public void deleteMetadata(TileCache cache, Collection<String> names) throws IOException {
        deleteAll(new ArrayList<>(new LinkedHashSet<>(names.stream()
                .map(name -> metadataObjectName(cache, name)).toList())));
    }

    /** Requests sent again after a failure worth retrying, since start. */
    public long retries() {
        return requests.retries();
    }

    /** e.g. {@code s3://tiles/cache}. */
    @Override
    public String describe() {
        return bucket.describe();
    }

    /** Stops the client's threads and closes its idle connections. */
    @Override
    public void close() {
        bucket.close();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + describe() + " at " + endpoint() + "]";
    }

    @Override
    public void probe() throws IOException {
        boolean exists;
        try {
            exists = bucket.exists().get(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted probing " + describe());
        } catch (TimeoutException e) {
            throw new StoreUnavailableException(describe() + " did not answer within " + PROBE_TIMEOUT.toSeconds()
                    + " s", e);
        } catch (Exception e) {
            throw new StoreUnavailableException(describe() + " cannot be reached: "
                    + bucket.classify(e).reason(), e);
        }
        if (!exists) {
            throw new IOException("the bucket of " + describe() + " does not exist");
        }
    }
}
