package io.tileseeder.adapters.gcs;

import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.NoCredentials;
import com.google.cloud.ServiceOptions;
import com.google.cloud.http.HttpTransportOptions;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.BucketInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageBatch;
import com.google.cloud.storage.StorageBatchResult;
import com.google.cloud.storage.StorageException;
import com.google.cloud.storage.StorageOptions;
import io.tileseeder.adapters.bucket.Bucket;
import io.tileseeder.adapters.bucket.BucketFailure;
import io.tileseeder.adapters.bucket.BucketLocation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Google Cloud Storage bucket through Google's Java client (its JSON API over HTTP): objects uploaded in one request
 * (the service keeps their MD5), looked up, read, listed a page at a time (flat, or one level by the {@code /}
 * delimiter), deleted in batch requests of 100, and files uploaded by a resumable upload, visible once its last chunk
 * is in. The client answers synchronously: its calls run on a pool of as many threads as the store has requests in
 * flight, so it blocks no caller and grows no queue. The client's own retry is off, so that the store's policy is the
 * only one.
 */
final class GcsBucket implements Bucket {

    /** Calls per batch request: the JSON API's most. */
    static final int DELETE_BATCH = 100;

    private static final int UPLOAD_CHUNK = 16 << 20;
    private static final AtomicInteger POOLS = new AtomicInteger();

    private final BucketLocation location;
    private final String endpoint;
    private final String cacheControl;
    private final Storage storage;
    private final ExecutorService calls;

    GcsBucket(GcsConnection connection, BucketLocation location, String cacheControl, int maxInFlight,
              Duration connectTimeout, Duration requestTimeout) throws IOException {
        this.location = location;
        this.cacheControl = cacheControl;
        StorageOptions.Builder options = StorageOptions.http()
                .setRetrySettings(ServiceOptions.getNoRetrySettings())
                .setTransportOptions(HttpTransportOptions.newBuilder()
                        .setConnectTimeout((int) connectTimeout.toMillis())
                        .setReadTimeout((int) requestTimeout.toMillis()).build());
        connection.project().ifPresent(options::setProjectId);
        if (connection.endpoint().isPresent()) {
            options.setHost(connection.endpoint().get()).setCredentials(NoCredentials.getInstance());
        }
        if (connection.credentialsFile().isPresent()) {
            Path file = connection.credentialsFile().get();
            try (InputStream json = Files.newInputStream(file)) {
                options.setCredentials(GoogleCredentials.fromStream(json));
            } catch (IOException e) {
                throw new IOException("cannot read the Google credentials " + file + ": " + e.getMessage(), e);
            }
        }
        this.storage = options.build().getService();
        this.endpoint = storage.getOptions().getHost();
        int pool = POOLS.incrementAndGet();
        AtomicInteger threads = new AtomicInteger();
        this.calls = new ThreadPoolExecutor(maxInFlight, maxInFlight, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(maxInFlight), runnable -> {
                    Thread thread = new Thread(runnable, "seeder-gcs-" + pool + "-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        ((ThreadPoolExecutor) calls).allowCoreThreadTimeOut(true);
    }

    /** A call of the client on the pool. */
    private <T> CompletableFuture<T> call(Call<T> step) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return step.run();
            } catch (Exception e) {
                throw BucketFailure.completion(e);
            }
        }, calls);
    }

    @FunctionalInterface
    private interface Call<T> {
        T run() throws Exception;
    }

    private BlobId id(String name) {
        return BlobId.of(location.bucket(), name);
    }

    @Override
    public CompletableFuture<?> put(String name, byte[] data, String contentType) {
        BlobInfo blob = BlobInfo.newBuilder(id(name)).setContentType(contentType).setCacheControl(cacheControl).build();
        return call(() -> storage.create(blob, data));
    }

    @Override
    public CompletableFuture<Optional<ObjectInfo>> stat(String name) {
        return call(() -> Optional.ofNullable(storage.get(id(name), Storage.BlobGetOption.fields(
                Storage.BlobField.UPDATED, Storage.BlobField.MD5HASH))).map(blob -> new ObjectInfo(
                blob.getUpdateTimeOffsetDateTime().toInstant(), blob.getMd5ToHexString())));
    }

    @Override
    public CompletableFuture<Optional<byte[]>> get(String name) {
        return call(() -> {
            try {
                return Optional.of(storage.readAllBytes(id(name)));
            } catch (StorageException e) {
                if (e.getCode() == 404) {
                    return Optional.empty();
                }
                throw e;
            }
        });
    }

    @Override
    public CompletableFuture<Page> list(String prefix, boolean oneLevel, String token, int max) {
        List<Storage.BlobListOption> options = new ArrayList<>(List.of(Storage.BlobListOption.prefix(prefix),
                Storage.BlobListOption.pageSize(max)));
        if (oneLevel) {
            options.add(Storage.BlobListOption.currentDirectory());
        }
        if (token != null) {
            options.add(Storage.BlobListOption.pageToken(token));
        }
        return call(() -> {
            com.google.api.gax.paging.Page<Blob> page = storage.list(location.bucket(), options.toArray(Storage.BlobListOption[]::new));
            List<String> names = new ArrayList<>();
            List<String> folders = new ArrayList<>();
            for (Blob blob : page.getValues()) {
                (blob.isDirectory() ? folders : names).add(blob.getName());
            }
            String next = page.getNextPageToken();
            return new Page(names, folders, next == null || next.isEmpty() ? null : next);
        });
    }

    @Override
    public int deleteBatch() {
        return DELETE_BATCH;
    }

    /** One batch request of deletes; an object already gone counts as deleted. */
    @Override
    public CompletableFuture<?> delete(List<String> names) {
        return call(() -> {
            StorageBatch batch = storage.batch();
            List<StorageBatchResult<Boolean>> results = new ArrayList<>();
            for (String name : names) {
                results.add(batch.delete(id(name)));
            }
            batch.submit();
            for (StorageBatchResult<Boolean> result : results) {
                result.get(); // throws the StorageException of a delete that failed; false: there was no such object
            }
            return null;
        });
    }

    @Override
    public CompletableFuture<?> upload(String name, Path file, String contentType) {
        BlobInfo blob = BlobInfo.newBuilder(id(name)).setContentType(contentType).setCacheControl(cacheControl).build();
        return call(() -> storage.createFrom(blob, file, UPLOAD_CHUNK));
    }

    @Override
    public CompletableFuture<Boolean> exists() {
        return call(() -> storage.get(location.bucket(), Storage.BucketGetOption.fields(Storage.BucketField.NAME))
                != null);
    }

    /** Creates the bucket; a 409 (it exists, made meanwhile by another process) is no error. */
    @Override
    public CompletableFuture<?> create() {
        return call(() -> {
            try {
                return storage.create(BucketInfo.of(location.bucket()));
            } catch (StorageException e) {
                if (e.getCode() == 409) {
                    return null;
                }
                throw e;
            }
        });
    }

    @Override
    public BucketFailure classify(Throwable failure) {
        Throwable e = BucketFailure.unwrap(failure);
        if (e instanceof StorageException error && error.getCode() > 0) {
            String reason = (error.getReason() == null ? "" : error.getReason() + " ") + "(HTTP " + error.getCode()
                    + "): " + BucketFailure.shorten(String.valueOf(error.getMessage()));
            return new BucketFailure(BucketFailure.retryableStatus(error.getCode()), reason, error);
        }
        Throwable cause = e instanceof StorageException && e.getCause() != null ? e.getCause() : e;
        BucketFailure transport = BucketFailure.ofTransport(cause);
        return transport != null ? transport : new BucketFailure(false, BucketFailure.describe(cause), cause);
    }

    @Override
    public String endpoint() {
        return endpoint;
    }

    @Override
    public String describe() {
        return location.toString();
    }

    @Override
    public String prefix() {
        return location.prefix();
    }

    /**
     * The host's path-style URL of the bucket and prefix: {@code https://storage.googleapis.com/BUCKET/PREFIX}, where
     * a web client reads the objects of a public bucket (an emulator's own address for an emulator).
     */
    @Override
    public String publicUrl() {
        String base = endpoint.replaceAll("/+$", "") + "/" + location.bucket();
        return location.prefix().isEmpty() ? base : base + "/" + location.prefix();
    }

    @Override
    public void close() {
        calls.shutdown();
        try {
            storage.close();
        } catch (Exception e) {
            // Closing the client frees its connections; there is nothing left to do about a failure to.
        }
    }
}
