package io.tileseeder.adapters.s3;

import io.minio.BucketExistsArgs;
import io.minio.DeleteObjectsArgs;
import io.minio.GetObjectArgs;
import io.minio.GetObjectResponse;
import io.minio.ListObjectsV2Args;
import io.minio.ListObjectsV2Response;
import io.minio.MakeBucketArgs;
import io.minio.MinioAsyncClient;
import io.minio.PutObjectArgs;
import io.minio.StatObjectArgs;
import io.minio.StatObjectResponse;
import io.minio.UploadObjectArgs;
import io.minio.errors.MinioException;
import io.minio.messages.DeleteRequest;
import io.minio.messages.DeleteResult;
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
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import okhttp3.OkHttpClient;

/**
 * Tiles as objects in an S3 bucket (AWS S3, MinIO, any S3-compatible store), through the MinIO async client, at
 * {@code {prefix}/{layer}/{tileMatrixSet}/{z}/{x}/{y}.{ext}} with the tile format's Content-Type and a configurable
 * Cache-Control.
 *
 * <p>Durability: {@link #write} PUTs the tiles of a call concurrently and returns only when every PUT has been
 * answered 200, which is S3's promise that the object is stored. An S3 object is replaced atomically, so a reader
 * sees the old tile or the new one, never a part. When a tile cannot be stored, the others that were stored stay.
 *
 * <p>Concurrency: every request of this store takes a permit of one {@link java.util.concurrent.Semaphore} (default
 * 32), shared by all callers, so the store never has more requests in flight than that, however many threads call
 * it ({@link S3Requests}). The OkHttp client under the SDK is sized to the same limit and opens its sockets with
 * {@code TCP_NODELAY} ({@link S3Clients}).
 *
 * <p>Failures: a request that fails with a 5xx, 408, 429, an S3 "slow down"/"internal error" code, or a connection
 * or I/O error is retried with exponential backoff and jitter, up to {@link RetryPolicy#maxAttempts()} attempts in
 * all. Any other 4xx (access denied, bad credentials, missing bucket...) fails at once ({@link S3Failures}). Errors
 * name the endpoint, the objects and the S3 error code. The SDK's own status retry is left out, so that the policy
 * here is the only one.
 */
public final class S3TileStore implements TileStore, AutoCloseable {

    /** Objects per DeleteObjects request: S3's maximum. */
    static final int DELETE_BATCH = 1000;

    /** The part size of {@link #upload}: 64 MiB parts take an object up to 640 GB in S3's 10,000 parts. */
    private static final long UPLOAD_PART = 64L << 20;

    /** How long {@link #probe} waits for an answer. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

    private final String endpoint;
    private final S3Location location;
    private final S3Options options;
    private final OkHttpClient httpClient;
    private final MinioAsyncClient client;
    private final S3Requests requests;

    /**
     * A store with the default Cache-Control and timeouts; checks that the bucket exists and creates it if not.
     *
     * @param endpoint    e.g. {@code http://127.0.0.1:9000} or {@code https://s3.eu-west-1.amazonaws.com}
     * @param region      the bucket's region, e.g. {@code us-east-1}; null or blank to ask the server
     * @param maxInFlight the most requests this store has in flight at once
     * @throws IOException when the endpoint cannot be reached, the credentials are refused or the bucket cannot be
     *                     created; the message names the endpoint and the cause
     */
    public S3TileStore(String endpoint, String accessKey, String secretKey, String region, S3Location location,
                       int maxInFlight, RetryPolicy retry) throws IOException {
        this(endpoint, accessKey, secretKey, region, location,
                S3Options.defaults().withMaxInFlight(maxInFlight).withRetry(retry));
    }

    /** A store with all settings given; see {@link S3Options}. */
    public S3TileStore(String endpoint, String accessKey, String secretKey, String region, S3Location location,
                       S3Options options) throws IOException {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.location = Objects.requireNonNull(location, "location");
        this.options = Objects.requireNonNull(options, "options");
        this.requests = new S3Requests(endpoint, location, options.maxInFlight(), options.retry());
        this.httpClient = S3Clients.httpClient(options);
        try {
            this.client = S3Clients.minio(endpoint, accessKey, secretKey, region, httpClient);
            if (options.ensureBucket()) {
                ensureBucket();
            }
        } catch (IOException | RuntimeException e) {
            S3Clients.shutDown(httpClient);
            throw e;
        }
    }

    /** The configured public URL, else the endpoint's path-style URL of the bucket and prefix. */
    @Override
    public String publicUrl() {
        if (options.publicUrl() != null) {
            return options.publicUrl();
        }
        String base = endpoint.replaceAll("/+$", "") + "/" + location.bucket();
        return location.prefix().isEmpty() ? base : base + "/" + location.prefix();
    }

    /** Where this store writes, e.g. {@code s3://tiles/cache}. */
    public S3Location location() {
        return location;
    }

    public String endpoint() {
        return endpoint;
    }

    @Override
    public Layout layout() {
        return options.layout();
    }

    /** The object name of a tile: {@code {prefix}/{its path in the layout}}. */
    public String objectName(TileKey key) {
        return location.objectName(options.layout().path(key));
    }

    /** The object name of a document beside a cache's tiles: {@code {prefix}/{cache's folder}/{name}}. */
    public String metadataObjectName(TileCache cache, String name) {
        return location.objectName(folder(cache) + name);
    }

    /** The cache's folder in the layout, ending with /, below the prefix. */
    private String folder(TileCache cache) {
        return options.layout().folder(cache) + "/";
    }

    @Override
    public Optional<Instant> lastModified(TileKey key) throws IOException {
        String object = objectName(key);
        return requests.run("look up", List.of(object), this::stat).get(object).map(s -> s.lastModified().toInstant());
    }

    /** One HEAD per tile, sent together (see {@link #stored}). */
    @Override
    public Map<TileKey, Instant> lastModified(Collection<TileKey> keys) throws IOException {
        Map<TileKey, Instant> found = new LinkedHashMap<>();
        stored(keys).forEach((key, tile) -> found.put(key, tile.lastModified()));
        return found;
    }

    /** From each object's HEAD: its last modification and its ETag, the MD5 of an object PUT in one part. */
    @Override
    public Map<TileKey, StoredTile> stored(Collection<TileKey> keys) throws IOException {
        Map<String, TileKey> byObject = new LinkedHashMap<>();
        for (TileKey key : keys) {
            byObject.put(objectName(key), key);
        }
        Map<TileKey, StoredTile> found = new LinkedHashMap<>();
        requests.run("look up", byObject.keySet(), this::stat).forEach((object, stat) -> stat.ifPresent(s ->
                found.put(byObject.get(object), new StoredTile(s.lastModified().toInstant(), md5(s.etag())))));
        return found;
    }

    /** The MD5 an ETag holds: 32 hex digits, quoted or not; null for the ETag of a multipart object. */
    static String md5(String etag) {
        String value = etag == null ? "" : etag.replace("\"", "").toLowerCase(Locale.ROOT);
        return value.matches("[0-9a-f]{32}") ? value : null;
    }

    /**
     * One ListObjectsV2 of at most one key below the zoom's prefix; in the quadkey layout, whose tiles of all zooms
     * share the cache's folder, the folder's listing (without its subfolders) page by page until a tile of the zoom
     * turns up.
     */
    @Override
    public boolean hasTiles(TileCache cache, int z) throws IOException {
        Layout layout = options.layout();
        String prefix = location.objectName(folder(cache) + layout.zoomFolder(z));
        if (layout != Layout.QUADKEY) {
            return requests.run("list", List.of(prefix), this::anyBelow).get(prefix);
        }
        boolean[] found = {false};
        eachPage(prefix, "/", page -> {
            for (var item : page.result().contents()) {
                found[0] |= layout.isTileOfZoom(item.objectName().substring(prefix.length()), z);
            }
            return !found[0];
        });
        return found[0];
    }

    /**
     * Lists the folders below the cache's level by level (ListObjectsV2 with a delimiter, every page), then looks up
     * the document in each folder {@code depth} deep, together.
     */
    @Override
    public List<String> cachesWith(TileCache cache, int depth, String document) throws IOException {
        String root = location.objectName(folder(cache));
        List<String> level = List.of(root);
        for (int d = 0; d < depth; d++) {
            List<String> next = new ArrayList<>();
            for (List<String> folders : requests.run("list", level, this::folders).values()) {
                next.addAll(folders);
            }
            level = next;
        }
        Map<String, String> byDocument = new LinkedHashMap<>();
        level.forEach(folder -> byDocument.put(folder + document, folder));
        List<String> found = new ArrayList<>();
        requests.run("look up", byDocument.keySet(), this::stat).forEach((object, stat) -> {
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
        Layout layout = options.layout();
        String prefix = location.objectName(folder(cache) + layout.zoomFolder(z));
        eachPage(prefix, layout == Layout.QUADKEY ? "/" : null, page -> {
            for (var item : page.result().contents()) {
                layout.tileOf(cache.tileMatrixSet(), z, item.objectName().substring(prefix.length()), format)
                        .ifPresent(each);
            }
            return true;
        });
    }

    @Override
    public Optional<byte[]> read(TileKey key) throws IOException {
        String object = objectName(key);
        return requests.run("read", List.of(object), this::get).get(object);
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
            return put(object, tile.data(), tile.key().format().contentTypeOf(tile.data()));
        });
    }

    /**
     * Deletes the tiles in DeleteObjects requests of up to 1000 objects. S3's answer to DeleteObjects does not say
     * whether an object existed (a missing key is reported "deleted" too), so each key is looked up first (HEAD,
     * concurrently, within the in-flight limit) and only those that exist are deleted and counted. A tile written
     * by someone else between the look-up and the delete is left alone (it was not there when asked about).
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
        requests.run("look up", objects, this::stat).forEach((object, stat) -> {
            if (stat.isPresent()) {
                existing.add(object);
            }
        });
        requests.run("delete", batches(existing), this::deleteBatch);
        return existing.size();
    }

    private static List<List<String>> batches(List<String> objects) {
        List<List<String>> batches = new ArrayList<>();
        for (int from = 0; from < objects.size(); from += DELETE_BATCH) {
            batches.add(objects.subList(from, Math.min(objects.size(), from + DELETE_BATCH)));
        }
        return batches;
    }

    /**
     * Lists the objects below the cache's prefix a page (1000) at a time, deleting each page's tiles in one
     * DeleteObjects as it goes; the documents directly in the folder are deleted last.
     */
    @Override
    public long deleteCache(TileCache cache) throws IOException {
        String prefix = location.objectName(folder(cache));
        List<String> documents = new ArrayList<>();
        long[] deleted = {0};
        eachPage(prefix, null, page -> {
            List<String> objects = new ArrayList<>();
            for (var item : page.result().contents()) {
                String name = item.objectName();
                (options.layout().isTile(name.substring(prefix.length())) ? objects : documents).add(name);
            }
            requests.run("delete", batches(objects), this::deleteBatch);
            deleted[0] += objects.size();
            return true;
        });
        requests.run("delete", batches(documents), this::deleteBatch);
        return deleted[0] + documents.size();
    }

    /** What is done with each page of a listing; false to stop listing. */
    private interface PageAction {
        boolean accept(ListObjectsV2Response page) throws IOException;
    }

    /**
     * Lists the objects below the prefix, a page (1000) at a time, each page handled before the next is asked, until
     * the last page or the action says stop.
     *
     * @param delimiter null for every object below the prefix, {@code /} for those directly in its folder
     */
    private void eachPage(String prefix, String delimiter, PageAction action) throws IOException {
        String token = null;
        do {
            String after = token;
            ListObjectsV2Response page = requests.run("list", List.of(prefix), p -> listPage(p, delimiter, after))
                    .get(prefix);
            if (!action.accept(page)) {
                return;
            }
            token = page.result().isTruncated() ? page.result().nextContinuationToken() : null;
        } while (token != null);
    }

    private CompletableFuture<ListObjectsV2Response> listPage(String prefix, String delimiter, String token) {
        ListObjectsV2Args.Builder list = ListObjectsV2Args.builder().bucket(location.bucket()).prefix(prefix);
        if (delimiter != null) {
            list.delimiter(delimiter);
        }
        if (token != null) {
            list.continuationToken(token);
        }
        return client.listObjectsV2(list.build());
    }

    @Override
    public void writeMetadata(TileCache cache, String name, byte[] content, String contentType) throws IOException {
        String object = metadataObjectName(cache, name);
        requests.run("store", List.of(object), o -> put(o, content, contentType));
    }

    /**
     * Stores a file as the object {@code {prefix}/{name}}: one PUT, or a multipart upload of 64 MiB parts for a larger
     * file, which S3 shows under its name only once the last part is in (CompleteMultipartUpload): never half of it.
     */
    public void upload(String name, Path file, String contentType) throws IOException {
        String object = location.objectName(name);
        requests.run("upload", List.of(object), o -> {
            try {
                return client.uploadObject(UploadObjectArgs.builder().bucket(location.bucket()).object(o)
                        .filename(file.toString(), UPLOAD_PART).contentType(contentType).build());
            } catch (MinioException e) {
                return CompletableFuture.failedFuture(e);
            }
        });
    }

    @Override
    public Optional<byte[]> readMetadata(TileCache cache, String name) throws IOException {
        String object = metadataObjectName(cache, name);
        return requests.run("read", List.of(object), this::get).get(object);
    }

    @Override
    public boolean hasMetadata(TileCache cache, String name) throws IOException {
        String object = metadataObjectName(cache, name);
        return requests.run("look up", List.of(object), this::stat).get(object).isPresent();
    }

    /** One DeleteObjects request per 1000 names; S3 deletes a missing object without complaint. */
    @Override
    public void deleteMetadata(TileCache cache, Collection<String> names) throws IOException {
        List<String> objects = new ArrayList<>(new LinkedHashSet<>(names.stream()
                .map(name -> metadataObjectName(cache, name)).toList()));
        requests.run("delete", batches(objects), this::deleteBatch);
    }


    /** Requests sent again after a failure worth retrying, since start. */
    public long retries() {
        return requests.retries();
    }

    /** {@code s3://bucket/prefix}. */
    @Override
    public String describe() {
        return location.toString();
    }

    /** Stops the HTTP client's threads and closes its idle connections. */
    @Override
    public void close() {
        S3Clients.shutDown(httpClient);
    }

    @Override
    public String toString() {
        return "S3TileStore[" + describe() + " at " + endpoint + "]";
    }

    // ---- requests ------------------------------------------------------------------------------------------------

    private CompletableFuture<?> put(String object, byte[] data, String contentType) {
        return client.putObject(PutObjectArgs.builder().bucket(location.bucket()).object(object)
                .data(data, data.length).contentType(contentType)
                .headers(Map.of("Cache-Control", options.cacheControl())).build());
    }

    /** The object's metadata, or empty if there is no such object. */
    private CompletableFuture<Optional<StatObjectResponse>> stat(String object) {
        return client.statObject(StatObjectArgs.builder().bucket(location.bucket()).object(object).build())
                .handle((stat, failure) -> {
                    if (failure == null) {
                        return Optional.of(stat);
                    }
                    if (S3Failures.isMissingObject(failure)) {
                        return Optional.empty();
                    }
                    throw S3Failures.completion(failure);
                });
    }

    /** Whether any object's name starts with the prefix. */
    private CompletableFuture<Boolean> anyBelow(String prefix) {
        return client.listObjectsV2(ListObjectsV2Args.builder().bucket(location.bucket()).prefix(prefix).maxKeys(1)
                .build()).thenApply(listing -> !listing.result().contents().isEmpty());
    }

    /** The folders directly below {@code prefix} (ending with /), each ending with /: every page of the listing. */
    private CompletableFuture<List<String>> folders(String prefix) {
        return folders(prefix, null, new ArrayList<>());
    }

    private CompletableFuture<List<String>> folders(String prefix, String token, List<String> found) {
        ListObjectsV2Args.Builder list = ListObjectsV2Args.builder().bucket(location.bucket()).prefix(prefix)
                .delimiter("/");
        if (token != null) {
            list.continuationToken(token);
        }
        return client.listObjectsV2(list.build()).thenCompose(listing -> {
            listing.result().commonPrefixes().forEach(folder -> found.add(folder.toItem().objectName()));
            return listing.result().isTruncated()
                    ? folders(prefix, listing.result().nextContinuationToken(), found)
                    : CompletableFuture.completedFuture(found);
        });
    }

    /** The object's bytes, or empty if there is no such object. */
    private CompletableFuture<Optional<byte[]>> get(String object) {
        return client.getObject(GetObjectArgs.builder().bucket(location.bucket()).object(object).build())
                .handle((GetObjectResponse response, Throwable failure) -> {
                    if (failure != null) {
                        if (S3Failures.isMissingObject(failure)) {
                            return Optional.empty();
                        }
                        throw S3Failures.completion(failure);
                    }
                    try (response) {
                        return Optional.of(response.readAllBytes());
                    } catch (IOException e) {
                        throw new CompletionException(e);
                    }
                });
    }

    private CompletableFuture<?> deleteBatch(List<String> objects) {
        List<DeleteRequest.Object> request = objects.stream().map(DeleteRequest.Object::new).toList();
        return client.deleteObjects(DeleteObjectsArgs.builder().bucket(location.bucket()).objects(request)
                .quiet(true).build()).thenApply(response -> {
                    List<DeleteResult.Error> errors = response.result().errors();
                    if (!errors.isEmpty()) {
                        throw new CompletionException(new S3Failures.DeleteErrors(errors));
                    }
                    return response;
                });
    }

    @Override
    public void probe() throws IOException {
        boolean exists;
        try {
            exists = client.bucketExists(BucketExistsArgs.builder().bucket(location.bucket()).build())
                    .get(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted probing " + describe());
        } catch (TimeoutException e) {
            throw new StoreUnavailableException(describe() + " did not answer within " + PROBE_TIMEOUT.toSeconds()
                    + " s", e);
        } catch (Exception e) {
            throw new StoreUnavailableException(describe() + " cannot be reached: " + S3Failures.describe(e), e);
        }
        if (!exists) {
            throw new IOException("the bucket of " + describe() + " does not exist");
        }
    }

    private void ensureBucket() throws IOException {
        String bucket = location.bucket();
        try {
            boolean exists = requests.run("look up bucket", List.of(bucket),
                    b -> client.bucketExists(BucketExistsArgs.builder().bucket(b).build())).get(bucket);
            if (!exists) {
                requests.run("create bucket", List.of(bucket), b -> client.makeBucket(MakeBucketArgs.builder().bucket(b)
                        .build()).handle((response, failure) -> {
                            if (failure == null || "BucketAlreadyOwnedByYou".equals(S3Failures.s3Code(failure))) {
                                return Boolean.TRUE; // created, here or by a concurrent worker
                            }
                            throw S3Failures.completion(failure);
                        }));
            }
        } catch (IOException e) {
            if (e.getCause() != null && S3Failures.credentialsRefused(e.getCause())) {
                throw new IOException(e.getMessage() + " (check the access key and secret key)", e.getCause());
            }
            throw e;
        }
    }
}
