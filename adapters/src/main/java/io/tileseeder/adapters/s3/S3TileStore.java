package io.tileseeder.adapters.s3;

import io.minio.BucketExistsArgs;
import io.minio.DeleteObjectsArgs;
import io.minio.GetObjectArgs;
import io.minio.GetObjectResponse;
import io.minio.Http;
import io.minio.MakeBucketArgs;
import io.minio.MinioAsyncClient;
import io.minio.PutObjectArgs;
import io.minio.StatObjectArgs;
import io.minio.StatObjectResponse;
import io.minio.errors.ErrorResponseException;
import io.minio.errors.InvalidResponseException;
import io.minio.errors.MinioException;
import io.minio.errors.ServerException;
import io.minio.messages.DeleteRequest;
import io.minio.messages.DeleteResult;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.outage.RetryPolicy;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.StoreUnavailableException;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
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
 * <p>Concurrency: every request of this store takes a permit of one {@link Semaphore} (default 32), shared by all
 * callers, so the store never has more requests in flight than that, however many threads call it. The OkHttp
 * client under the SDK is sized to the same limit (its dispatcher allows only 5 requests per host by default) and
 * opens its sockets with {@code TCP_NODELAY} (with Nagle's algorithm on, one PUT in flight costs ~50 ms: Nagle
 * meets delayed ACK).
 *
 * <p>Failures: a request that fails with a 5xx, 408, 429, an S3 "slow down"/"internal error" code, or a connection
 * or I/O error is retried with exponential backoff and jitter, up to {@link RetryPolicy#maxAttempts()} attempts in
 * all. Any other 4xx (access denied, bad credentials, missing bucket...) fails at once. Errors name the endpoint, the
 * objects and the S3 error code. The SDK's own status retry is left out, so that the policy here is the only one.
 */
public final class S3TileStore implements TileStore, AutoCloseable {

    /** Objects per DeleteObjects request: S3's maximum. */
    static final int DELETE_BATCH = 1000;

    /** Retried S3 error codes, whatever the HTTP status they come with. */
    private static final Set<String> RETRYABLE_CODES = Set.of("InternalError", "ServiceUnavailable", "SlowDown",
            "SlowDownWrite", "SlowDownRead", "RequestTimeout", "RequestError", "Throttling", "ThrottlingException",
            "RequestLimitExceeded", "RequestThrottled", "XMinioServerNotInitialized");

    /** S3 error codes that mean the credentials were refused. */
    private static final Set<String> CREDENTIAL_CODES = Set.of("AccessDenied", "InvalidAccessKeyId",
            "SignatureDoesNotMatch", "InvalidToken", "ExpiredToken");

    private static final Pattern RESPONSE_CODE = Pattern.compile("Response code: (\\d{3})");
    private static final AtomicInteger STORES = new AtomicInteger();
    private static final int MAX_NAMED_FAILURES = 5;

    private final String endpoint;
    private final Location location;
    private final Options options;
    private final Semaphore inFlight;
    private final OkHttpClient httpClient;
    /** How long {@link #probe} waits for an answer. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

    private final MinioAsyncClient client;
    private final LongAdder retries = new LongAdder();

    /**
     * A store with the default Cache-Control and timeouts; checks that the bucket exists and creates it if not.
     *
     * @param endpoint    e.g. {@code http://127.0.0.1:9000} or {@code https://s3.eu-west-1.amazonaws.com}
     * @param region      the bucket's region, e.g. {@code us-east-1}; null or blank to ask the server
     * @param maxInFlight the most requests this store has in flight at once
     * @throws IOException when the endpoint cannot be reached, the credentials are refused or the bucket cannot be
     *                     created; the message names the endpoint and the cause
     */
    public S3TileStore(String endpoint, String accessKey, String secretKey, String region, Location location,
                       int maxInFlight, RetryPolicy retry) throws IOException {
        this(endpoint, accessKey, secretKey, region, location,
                Options.defaults().withMaxInFlight(maxInFlight).withRetry(retry));
    }

    /** A store with all settings given; see {@link Options}. */
    public S3TileStore(String endpoint, String accessKey, String secretKey, String region, Location location,
                       Options options) throws IOException {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.location = Objects.requireNonNull(location, "location");
        this.options = Objects.requireNonNull(options, "options");
        this.inFlight = new Semaphore(options.maxInFlight(), true);
        this.httpClient = newHttpClient(options);
        MinioAsyncClient.Builder builder;
        try {
            builder = MinioAsyncClient.builder().endpoint(endpoint).credentials(accessKey, secretKey)
                    .httpClient(httpClient, false);
            if (region != null && !region.isBlank()) {
                builder.region(region);
            }
            this.client = builder.build();
        } catch (IllegalArgumentException e) {
            shutDown(httpClient);
            throw new IllegalArgumentException("invalid S3 endpoint or region '" + endpoint + "', '" + region + "': "
                    + e.getMessage(), e);
        }
        if (options.ensureBucket()) {
            try {
                ensureBucket();
            } catch (IOException | RuntimeException e) {
                shutDown(httpClient);
                throw e;
            }
        }
    }

    /** Where this store writes, e.g. {@code s3://tiles/cache}. */
    public Location location() {
        return location;
    }

    public String endpoint() {
        return endpoint;
    }

    /** The object name of a tile: {@code {prefix}/{layer}/{tileMatrixSet}/{z}/{x}/{y}.{ext}}. */
    public String objectName(TileKey key) {
        return location.objectName(key.path());
    }

    /** The object name of a document beside a layer's tiles: {@code {prefix}/{layer}/{tileMatrixSet}/{name}}. */
    public String metadataObjectName(String layer, TileMatrixSet tileMatrixSet, String name) {
        return location.objectName(layer + "/" + tileMatrixSet.id() + "/" + name);
    }

    @Override
    public Optional<Instant> lastModified(TileKey key) throws IOException {
        String object = objectName(key);
        return run("look up", List.of(object), this::stat).get(object).map(s -> s.lastModified().toInstant());
    }

    @Override
    public Map<TileKey, Instant> lastModified(Collection<TileKey> keys) throws IOException {
        Map<String, TileKey> byObject = new LinkedHashMap<>();
        for (TileKey key : keys) {
            byObject.put(objectName(key), key);
        }
        Map<TileKey, Instant> found = new LinkedHashMap<>();
        run("look up", byObject.keySet(), this::stat).forEach((object, stat) ->
                stat.ifPresent(s -> found.put(byObject.get(object), s.lastModified().toInstant())));
        return found;
    }

    @Override
    public Optional<byte[]> read(TileKey key) throws IOException {
        String object = objectName(key);
        return run("read", List.of(object), this::get).get(object);
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
        run("store", byObject.keySet(), object -> {
            EncodedTile tile = byObject.get(object);
            return put(object, tile.data(), tile.key().format().contentType());
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
        run("look up", objects, this::stat).forEach((object, stat) -> {
            if (stat.isPresent()) {
                existing.add(object);
            }
        });
        List<List<String>> batches = new ArrayList<>();
        for (int from = 0; from < existing.size(); from += DELETE_BATCH) {
            batches.add(existing.subList(from, Math.min(existing.size(), from + DELETE_BATCH)));
        }
        run("delete", batches, this::deleteBatch);
        return existing.size();
    }

    @Override
    public void writeMetadata(String layer, TileMatrixSet tileMatrixSet, String name, byte[] content,
                              String contentType) throws IOException {
        String object = metadataObjectName(layer, tileMatrixSet, name);
        run("store", List.of(object), o -> put(o, content, contentType));
    }

    /** Requests sent again after a failure worth retrying, since start. */
    public long retries() {
        return retries.sum();
    }

    /** {@code s3://bucket/prefix}. */
    @Override
    public String describe() {
        return location.toString();
    }

    /** Stops the HTTP client's threads and closes its idle connections. */
    @Override
    public void close() {
        shutDown(httpClient);
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
                    if (isMissingObject(failure)) {
                        return Optional.empty();
                    }
                    throw failure instanceof CompletionException c ? c : new CompletionException(failure);
                });
    }

    /** The object's bytes, or empty if there is no such object. */
    private CompletableFuture<Optional<byte[]>> get(String object) {
        return client.getObject(GetObjectArgs.builder().bucket(location.bucket()).object(object).build())
                .handle((GetObjectResponse response, Throwable failure) -> {
                    if (failure != null) {
                        if (isMissingObject(failure)) {
                            return Optional.empty();
                        }
                        throw failure instanceof CompletionException c ? c : new CompletionException(failure);
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
                        throw new CompletionException(new DeleteErrors(errors));
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
            throw new StoreUnavailableException(describe() + " cannot be reached: " + describe(e), e);
        }
        if (!exists) {
            throw new IOException("the bucket of " + describe() + " does not exist");
        }
    }

    private void ensureBucket() throws IOException {
        String bucket = location.bucket();
        try {
            boolean exists = run("look up bucket", List.of(bucket),
                    b -> client.bucketExists(BucketExistsArgs.builder().bucket(b).build())).get(bucket);
            if (!exists) {
                run("create bucket", List.of(bucket), b -> client.makeBucket(MakeBucketArgs.builder().bucket(b)
                        .build()).handle((response, failure) -> {
                            if (failure == null || "BucketAlreadyOwnedByYou".equals(s3Code(failure))) {
                                return Boolean.TRUE; // created, here or by a concurrent worker
                            }
                            throw failure instanceof CompletionException c ? c : new CompletionException(failure);
                        }));
            }
        } catch (IOException e) {
            String code = e.getCause() == null ? null : s3Code(e.getCause());
            if (code != null && CREDENTIAL_CODES.contains(code)) {
                throw new IOException(e.getMessage() + " (check the access key and secret key)", e.getCause());
            }
            throw e;
        }
    }

    // ---- the request loop: in-flight limit and retries -----------------------------------------------------------

    /**
     * Sends one request per item, all at once within the in-flight limit, and waits for every answer. The items
     * whose request failed in a way worth retrying are sent again, after a backoff, until they succeed or the
     * attempts run out; a failure not worth retrying ends the loop once the round's answers are in.
     *
     * @return each item's result, in the items' order
     * @throws IOException naming the endpoint, the action, the items that failed and why
     */
    private <K, T> Map<K, T> run(String action, Collection<K> items, Function<K, CompletableFuture<T>> request)
            throws IOException {
        Map<K, T> results = new LinkedHashMap<>();
        List<K> pending = new ArrayList<>(items);
        RetryPolicy retry = options.retry();
        for (int attempt = 1; ; attempt++) {
            Map<K, CompletableFuture<T>> sent = new LinkedHashMap<>();
            for (K item : pending) {
                sent.put(item, send(item, request));
            }
            Map<K, Failure> failures = new LinkedHashMap<>();
            for (Map.Entry<K, CompletableFuture<T>> entry : sent.entrySet()) {
                try {
                    results.put(entry.getKey(), await(entry.getValue()));
                } catch (ExecutionException e) {
                    failures.put(entry.getKey(), classify(e.getCause()));
                }
            }
            if (failures.isEmpty()) {
                return results;
            }
            boolean permanent = failures.values().stream().anyMatch(f -> !f.retryable());
            if (permanent || attempt >= retry.maxAttempts()) {
                throw failed(action, items.size(), failures, attempt, !permanent);
            }
            sleep(retry.backoff(attempt));
            pending = new ArrayList<>(failures.keySet());
            retries.add(pending.size());
        }
    }

    /** Takes a permit (waiting for one if all are in use), sends, and gives the permit back when answered. */
    private <K, T> CompletableFuture<T> send(K item, Function<K, CompletableFuture<T>> request)
            throws InterruptedIOException {
        try {
            inFlight.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting to send a request to " + endpoint);
        }
        CompletableFuture<T> future;
        try {
            future = request.apply(item);
        } catch (RuntimeException e) {
            future = CompletableFuture.failedFuture(e);
        }
        return future.whenComplete((result, failure) -> inFlight.release());
    }

    private <T> T await(CompletableFuture<T> future) throws ExecutionException, InterruptedIOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for an answer from " + endpoint);
        }
    }

    private void sleep(Duration delay) throws InterruptedIOException {
        try {
            Thread.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting to retry a request to " + endpoint);
        }
    }

    private IOException failed(String action, int total, Map<?, Failure> failures, int attempts,
                               boolean exhausted) {
        StringBuilder message = new StringBuilder("cannot ").append(action).append(' ');
        if (total == 1) {
            message.append(failures.keySet().iterator().next()).append(" in ").append(location);
        } else {
            message.append(failures.size()).append(" of ").append(total).append(" objects in ").append(location);
        }
        message.append(" at ").append(endpoint);
        if (exhausted) {
            message.append(" (gave up after ").append(attempts).append(attempts == 1 ? " attempt)" : " attempts)");
        } else if (attempts > 1) {
            message.append(" (on attempt ").append(attempts).append(')');
        }
        message.append(": ");
        int named = 0;
        for (Map.Entry<?, Failure> entry : failures.entrySet()) {
            if (named == MAX_NAMED_FAILURES) {
                message.append("; and ").append(failures.size() - named).append(" more");
                break;
            }
            if (named > 0) {
                message.append("; ");
            }
            if (total > 1) {
                message.append(entry.getKey()).append(": ");
            }
            message.append(entry.getValue().reason());
            named++;
        }
        Throwable cause = failures.values().iterator().next().cause();
        return exhausted ? new StoreUnavailableException(message.toString(), cause)
                : new IOException(message.toString(), cause);
    }

    // ---- failures --------------------------------------------------------------------------------------------

    /** Why a request failed, for people, and whether trying again may help. */
    record Failure(boolean retryable, String reason, Throwable cause) {
    }

    /** The S3 errors a DeleteObjects request reported for some of its objects. */
    static final class DeleteErrors extends Exception {
        private final transient List<DeleteResult.Error> errors;

        DeleteErrors(List<DeleteResult.Error> errors) {
            super(errors.size() + " objects not deleted, e.g. " + errors.get(0).objectName() + ": "
                    + errors.get(0).code() + " " + errors.get(0).message(), null, false, false);
            this.errors = List.copyOf(errors);
        }

        boolean retryable() {
            return errors.stream().allMatch(e -> RETRYABLE_CODES.contains(e.code()));
        }
    }

    static Failure classify(Throwable failure) {
        Throwable e = unwrap(failure);
        if (e instanceof ErrorResponseException error) {
            String code = error.errorResponse().code();
            int status = error.response() == null ? 0 : error.response().code();
            String message = error.errorResponse().message();
            String reason = code + (status > 0 ? " (HTTP " + status + ")" : "")
                    + (message == null || message.isBlank() ? "" : ": " + message);
            return new Failure(retryableStatus(status) || RETRYABLE_CODES.contains(code), reason, e);
        }
        if (e instanceof ServerException server) {
            return new Failure(retryableStatus(server.statusCode()), "HTTP " + server.statusCode(), e);
        }
        if (e instanceof InvalidResponseException invalid) {
            Matcher m = RESPONSE_CODE.matcher(String.valueOf(invalid.getMessage()));
            int status = m.find() ? Integer.parseInt(m.group(1)) : 0;
            return new Failure(retryableStatus(status), "not an S3 answer: " + shorten(invalid.getMessage()), e);
        }
        if (e instanceof DeleteErrors errors) {
            return new Failure(errors.retryable(), errors.getMessage(), e);
        }
        if (e instanceof ConnectException || e instanceof UnknownHostException
                || e instanceof SocketTimeoutException) {
            return new Failure(true, "cannot connect: " + describe(e), e);
        }
        if (e instanceof InterruptedIOException && !(e instanceof SocketTimeoutException)
                && e.getMessage() != null && e.getMessage().contains("executor rejected")) {
            return new Failure(false, describe(e), e);
        }
        if (e instanceof IOException) {
            return new Failure(true, describe(e), e);
        }
        return new Failure(false, describe(e), e);
    }

    private static boolean retryableStatus(int status) {
        return status >= 500 || status == 429 || status == 408;
    }

    private static boolean isMissingObject(Throwable failure) {
        if (unwrap(failure) instanceof ErrorResponseException error) {
            String code = error.errorResponse().code();
            return "NoSuchKey".equals(code) || "NoSuchObject".equals(code)
                    || (error.response() != null && error.response().code() == 404 && !"NoSuchBucket".equals(code));
        }
        return false;
    }

    private static String s3Code(Throwable failure) {
        return unwrap(failure) instanceof ErrorResponseException error ? error.errorResponse().code() : null;
    }

    /** Past the wrappers (CompletionException, MinioException around an IOException...) to the real cause. */
    private static Throwable unwrap(Throwable failure) {
        Throwable e = failure;
        while (e.getCause() != null && e.getCause() != e
                && (e instanceof CompletionException || e instanceof ExecutionException
                || e instanceof UncheckedIOException || e.getClass() == MinioException.class)) {
            e = e.getCause();
        }
        return e;
    }

    /** The exception's class and message, and its root cause's if that says more (e.g. "Connection refused"). */
    private static String describe(Throwable e) {
        String message = e.getMessage();
        String text = e.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String rootMessage = root.getMessage();
        if (root != e && rootMessage != null && !rootMessage.isBlank()
                && (message == null || !message.contains(rootMessage))) {
            text += " (" + rootMessage + ")";
        }
        return shorten(text);
    }

    private static String shorten(String text) {
        String oneLine = text.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= 300 ? oneLine : oneLine.substring(0, 300) + "...";
    }

    // ---- HTTP client -----------------------------------------------------------------------------------------

    /**
     * OkHttp for the SDK: sockets with TCP_NODELAY, a dispatcher and connection pool sized to the in-flight limit,
     * a bounded thread pool (OkHttp's default is a cached one), the SDK's timeouts by default and no retry
     * interceptor (the SDK's default client retries some statuses 5 times on its own; this store's policy would
     * multiply that).
     */
    private static OkHttpClient newHttpClient(Options options) {
        int limit = options.maxInFlight();
        int store = STORES.incrementAndGet();
        AtomicInteger threads = new AtomicInteger();
        // At most `limit` calls run at once (the dispatcher's limit); a thread that has just finished a call may
        // still be busy when the dispatcher hands over the next one, hence a queue as long as the limit.
        ThreadPoolExecutor executor = new ThreadPoolExecutor(limit, limit, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(limit), runnable -> {
                    Thread thread = new Thread(runnable, "s3-store-" + store + "-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        executor.allowCoreThreadTimeOut(true);
        Dispatcher dispatcher = new Dispatcher(executor);
        dispatcher.setMaxRequests(limit);
        dispatcher.setMaxRequestsPerHost(limit);
        OkHttpClient.Builder builder = BaseHttpClient.INSTANCE.newBuilder();
        builder.interceptors().removeIf(i -> i instanceof Http.StatusRetryInterceptor);
        return builder.dispatcher(dispatcher)
                .connectionPool(new ConnectionPool(limit, 5, TimeUnit.MINUTES))
                .socketFactory(new NoDelaySocketFactory(options.tcpNoDelay()))
                .connectTimeout(options.connectTimeout())
                .readTimeout(options.requestTimeout())
                .writeTimeout(options.requestTimeout())
                .build();
    }

    /**
     * The SDK's default client, built once: it reads the CA certificates named by SSL_CERT_FILE and SSL_CERT_DIR
     * when those are set, which takes about a second with a distribution's full bundle; each store derives its
     * client from this one (sharing its TLS settings) instead of paying that again.
     */
    private static final class BaseHttpClient {
        static final OkHttpClient INSTANCE = Http.newDefaultClient();
    }

    private static void shutDown(OkHttpClient httpClient) {
        httpClient.dispatcher().executorService().shutdown();
        httpClient.connectionPool().evictAll();
    }

    // ---- settings ------------------------------------------------------------------------------------------------

    /**
     * Settings of a store.
     *
     * @param maxInFlight    the most requests in flight at once (PUTs, look-ups, deletes), for all callers together
     * @param retry          how failed requests are retried
     * @param cacheControl   the Cache-Control header of stored tiles and documents
     * @param connectTimeout how long to wait for a TCP connection
     * @param requestTimeout how long a read or write on a connection may stall
     * @param ensureBucket   whether the constructor checks that the bucket exists (creating it if not); off only to
     *                       build a store without contacting the server
     * @param tcpNoDelay     TCP_NODELAY on the sockets; off only to measure what it is worth
     */
    public record Options(int maxInFlight, RetryPolicy retry, String cacheControl, Duration connectTimeout,
                          Duration requestTimeout, boolean ensureBucket, boolean tcpNoDelay) {

        public static final int DEFAULT_MAX_IN_FLIGHT = 32;
        public static final String DEFAULT_CACHE_CONTROL = "public, max-age=86400";

        public Options {
            if (maxInFlight < 1) {
                throw new IllegalArgumentException("maxInFlight must be at least 1, not " + maxInFlight);
            }
            Objects.requireNonNull(retry, "retry");
            Objects.requireNonNull(cacheControl, "cacheControl");
            if (cacheControl.isBlank() || cacheControl.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                throw new IllegalArgumentException("invalid Cache-Control value '" + cacheControl + "'");
            }
            if (connectTimeout.isNegative() || connectTimeout.isZero() || requestTimeout.isNegative()
                    || requestTimeout.isZero()) {
                throw new IllegalArgumentException("timeouts must be positive: " + connectTimeout + ", "
                        + requestTimeout);
            }
        }

        /** 32 in flight, {@link RetryPolicy#DEFAULT}, {@code public, max-age=86400}, 5 s to connect, 60 s stalls. */
        public static Options defaults() {
            return new Options(DEFAULT_MAX_IN_FLIGHT, RetryPolicy.DEFAULT, DEFAULT_CACHE_CONTROL,
                    Duration.ofSeconds(5), Duration.ofSeconds(60), true, true);
        }

        public Options withMaxInFlight(int value) {
            return new Options(value, retry, cacheControl, connectTimeout, requestTimeout, ensureBucket, tcpNoDelay);
        }

        public Options withRetry(RetryPolicy value) {
            return new Options(maxInFlight, value, cacheControl, connectTimeout, requestTimeout, ensureBucket,
                    tcpNoDelay);
        }

        public Options withCacheControl(String value) {
            return new Options(maxInFlight, retry, value, connectTimeout, requestTimeout, ensureBucket, tcpNoDelay);
        }

        public Options withTimeouts(Duration connect, Duration request) {
            return new Options(maxInFlight, retry, cacheControl, connect, request, ensureBucket, tcpNoDelay);
        }

        public Options withEnsureBucket(boolean value) {
            return new Options(maxInFlight, retry, cacheControl, connectTimeout, requestTimeout, value, tcpNoDelay);
        }

        public Options withTcpNoDelay(boolean value) {
            return new Options(maxInFlight, retry, cacheControl, connectTimeout, requestTimeout, ensureBucket, value);
        }
    }

    /**
     * A bucket and a key prefix (no leading or trailing slash; empty for the bucket's root), written
     * {@code s3://bucket/prefix}.
     */
    public record Location(String bucket, String prefix) {

        private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
        private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

        public Location {
            Objects.requireNonNull(bucket, "bucket");
            Objects.requireNonNull(prefix, "prefix");
            String problem = bucketNameProblem(bucket);
            if (problem != null) {
                throw new IllegalArgumentException("invalid bucket name '" + bucket + "': " + problem);
            }
            problem = prefixProblem(prefix);
            if (problem != null) {
                throw new IllegalArgumentException("invalid key prefix '" + prefix + "': " + problem);
            }
        }

        /**
         * Reads {@code s3://bucket}, {@code s3://bucket/} or {@code s3://bucket/some/prefix} (a trailing slash is
         * ignored).
         *
         * @throws IllegalArgumentException naming the input and what is wrong with it
         */
        public static Location parse(String uri) {
            if (uri == null || uri.isBlank()) {
                throw new IllegalArgumentException("no S3 location given: expected s3://bucket/prefix");
            }
            String text = uri.strip();
            if (!text.regionMatches(true, 0, "s3://", 0, 5)) {
                throw new IllegalArgumentException("'" + uri + "' is not an S3 location: expected s3://bucket/prefix");
            }
            String rest = text.substring(5);
            int slash = rest.indexOf('/');
            String bucket = slash < 0 ? rest : rest.substring(0, slash);
            String prefix = slash < 0 ? "" : rest.substring(slash + 1);
            while (prefix.endsWith("/")) {
                prefix = prefix.substring(0, prefix.length() - 1);
            }
            if (bucket.isEmpty()) {
                throw new IllegalArgumentException("'" + uri + "' names no bucket: expected s3://bucket/prefix");
            }
            try {
                return new Location(bucket, prefix);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + uri + "': " + e.getMessage(), e);
            }
        }

        /** The object name of {@code path} below the prefix. */
        public String objectName(String path) {
            return prefix.isEmpty() ? path : prefix + "/" + path;
        }

        @Override
        public String toString() {
            return "s3://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix);
        }

        /** Amazon S3's rules for general purpose bucket names; null if {@code name} keeps them. */
        static String bucketNameProblem(String name) {
            if (name.length() < 3 || name.length() > 63) {
                return "must be 3 to 63 characters long";
            }
            if (!name.equals(name.toLowerCase(Locale.ROOT)) && name.toLowerCase(Locale.ROOT).chars()
                    .allMatch(c -> (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-')) {
                return "must be lower case";
            }
            if (!BUCKET.matcher(name).matches()) {
                return "only lower-case letters, digits, dots and hyphens, beginning and ending with a letter or "
                        + "digit";
            }
            if (name.contains("..") || name.contains(".-") || name.contains("-.")) {
                return "must not contain '..', '.-' or '-.'";
            }
            if (IPV4.matcher(name).matches()) {
                return "must not look like an IP address";
            }
            for (String reserved : List.of("xn--", "sthree-", "amzn-s3-demo-")) {
                if (name.startsWith(reserved)) {
                    return "must not begin with '" + reserved + "' (reserved)";
                }
            }
            for (String reserved : List.of("-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3")) {
                if (name.endsWith(reserved)) {
                    return "must not end with '" + reserved + "' (reserved)";
                }
            }
            return null;
        }

        private static String prefixProblem(String prefix) {
            if (prefix.isEmpty()) {
                return null;
            }
            if (prefix.startsWith("/") || prefix.endsWith("/")) {
                return "must not begin or end with '/'";
            }
            if (prefix.length() > 512) {
                return "longer than 512 characters";
            }
            if (prefix.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                return "contains a control character";
            }
            if (prefix.contains("\\")) {
                return "contains a backslash";
            }
            for (String segment : prefix.split("/", -1)) {
                if (segment.isEmpty()) {
                    return "contains an empty segment ('//')";
                }
                if (segment.equals(".") || segment.equals("..")) {
                    return "contains a '" + segment + "' segment";
                }
            }
            return null;
        }
    }
}
