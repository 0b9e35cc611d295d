package io.tileseeder.adapters.azure;

import com.azure.core.http.HttpClient;
import com.azure.core.http.netty.NettyAsyncHttpClientBuilder;
import com.azure.core.http.rest.Response;
import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobContainerAsyncClient;
import com.azure.storage.blob.BlobServiceAsyncClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.batch.BlobBatch;
import com.azure.storage.blob.batch.BlobBatchAsyncClient;
import com.azure.storage.blob.batch.BlobBatchClientBuilder;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobHttpHeaders;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.DeleteSnapshotsOptionType;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.models.ParallelTransferOptions;
import com.azure.storage.blob.options.BlobParallelUploadOptions;
import com.azure.storage.blob.options.BlobUploadFromFileOptions;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import io.tileseeder.adapters.bucket.Bucket;
import io.tileseeder.adapters.bucket.BucketFailure;
import io.tileseeder.adapters.bucket.BucketLocation;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A container of Azure Blob Storage through the Azure SDK's async client (over Netty, its default): Put Blob (the
 * service keeps the MD5 of the bytes it took), Get Blob Properties, Get Blob, List Blobs (flat or by the {@code /}
 * delimiter), Blob Batch deletes of up to 256 blobs, and a block blob from a file in 64 MiB blocks, visible once Put
 * Block List commits them. The SDK's own retry is off, so that the store's policy is the only one.
 */
final class AzureBucket implements Bucket {

    /** Sub-requests per Blob Batch request: the service's most. */
    static final int DELETE_BATCH = 256;

    private static final long UPLOAD_BLOCK = 64L << 20;

    /** Error codes the service answers while it is busy or recovering, whatever their HTTP status. */
    private static final Set<BlobErrorCode> RETRYABLE_CODES = Set.of(BlobErrorCode.SERVER_BUSY,
            BlobErrorCode.OPERATION_TIMED_OUT, BlobErrorCode.INTERNAL_ERROR);

    private final BucketLocation location;
    private final String cacheControl;
    private final BlobContainerAsyncClient container;
    private final BlobBatchAsyncClient batches;

    AzureBucket(AzureConnection connection, BucketLocation location, String cacheControl, Duration connectTimeout,
                Duration requestTimeout) {
        this.location = location;
        this.cacheControl = cacheControl;
        HttpClient http = new NettyAsyncHttpClientBuilder().connectTimeout(connectTimeout).readTimeout(requestTimeout)
                .writeTimeout(requestTimeout).responseTimeout(requestTimeout).build();
        BlobServiceClientBuilder builder = new BlobServiceClientBuilder().httpClient(http)
                .retryOptions(new RequestRetryOptions(RetryPolicyType.FIXED, 1, (Duration) null, null, null, null));
        if (connection.connectionString().isPresent()) {
            builder.connectionString(connection.connectionString().get());
        } else {
            builder.endpoint(connection.endpoint().orElseThrow());
            if (connection.accountKey().isPresent()) {
                builder.credential(new StorageSharedKeyCredential(connection.accountName().orElseThrow(),
                        connection.accountKey().get()));
            } else {
                builder.sasToken(connection.sasToken().orElseThrow());
            }
        }
        BlobServiceAsyncClient service = builder.buildAsyncClient();
        this.container = service.getBlobContainerAsyncClient(location.bucket());
        this.batches = new BlobBatchClientBuilder(service).buildAsyncClient();
    }

    @Override
    public CompletableFuture<?> put(String name, byte[] data, String contentType) {
        return container.getBlobAsyncClient(name).uploadWithResponse(new BlobParallelUploadOptions(
                BinaryData.fromBytes(data)).setHeaders(headers(contentType))).toFuture();
    }

    private BlobHttpHeaders headers(String contentType) {
        return new BlobHttpHeaders().setContentType(contentType).setCacheControl(cacheControl);
    }

    @Override
    public CompletableFuture<Optional<ObjectInfo>> stat(String name) {
        return container.getBlobAsyncClient(name).getProperties().toFuture().handle((properties, failure) -> {
            if (failure == null) {
                byte[] md5 = properties.getContentMd5();
                return Optional.of(new ObjectInfo(properties.getLastModified().toInstant(),
                        md5 == null ? null : HexFormat.of().formatHex(md5)));
            }
            if (isMissingBlob(failure)) {
                return Optional.empty();
            }
            throw BucketFailure.completion(failure);
        });
    }

    @Override
    public CompletableFuture<Optional<byte[]>> get(String name) {
        return container.getBlobAsyncClient(name).downloadContent().toFuture().handle((content, failure) -> {
            if (failure == null) {
                return Optional.of(content.toBytes());
            }
            if (isMissingBlob(failure)) {
                return Optional.empty();
            }
            throw BucketFailure.completion(failure);
        });
    }

    /** A 404 for the blob itself: a missing container is not that. */
    private static boolean isMissingBlob(Throwable failure) {
        return storageError(failure) instanceof BlobStorageException e && e.getStatusCode() == 404
                && !BlobErrorCode.CONTAINER_NOT_FOUND.equals(e.getErrorCode());
    }

    @Override
    public CompletableFuture<Page> list(String prefix, boolean oneLevel, String token, int max) {
        ListBlobsOptions options = new ListBlobsOptions().setPrefix(prefix).setMaxResultsPerPage(max);
        var listing = oneLevel ? container.listBlobsByHierarchy("/", options) : container.listBlobs(options);
        // byPage with a null token is an empty listing, not its first page.
        var pages = token == null ? listing.byPage(max) : listing.byPage(token, max);
        return pages.next().toFuture().thenApply(page -> {
            List<String> names = new ArrayList<>();
            List<String> folders = new ArrayList<>();
            if (page != null) {
                for (BlobItem item : page.getValue()) {
                    (Boolean.TRUE.equals(item.isPrefix()) ? folders : names).add(item.getName());
                }
            }
            String next = page == null ? null : page.getContinuationToken();
            return new Page(names, folders, next == null || next.isEmpty() ? null : next);
        });
    }

    @Override
    public int deleteBatch() {
        return DELETE_BATCH;
    }

    /** One Blob Batch request; a blob already gone (404) counts as deleted. */
    @Override
    public CompletableFuture<?> delete(List<String> names) {
        BlobBatch batch = batches.getBlobBatch();
        List<Response<Void>> answers = new ArrayList<>();
        for (String name : names) {
            answers.add(batch.deleteBlob(container.getBlobAsyncClient(name).getBlobUrl(),
                    DeleteSnapshotsOptionType.INCLUDE, null));
        }
        return batches.submitBatchWithResponse(batch, false).toFuture().thenApply(response -> {
            for (Response<Void> answer : answers) {
                try {
                    answer.getStatusCode(); // throws the BlobStorageException of a delete that failed
                } catch (BlobStorageException e) {
                    if (e.getStatusCode() != 404) {
                        throw e;
                    }
                }
            }
            return response;
        });
    }

    @Override
    public CompletableFuture<?> upload(String name, Path file, String contentType) {
        return container.getBlobAsyncClient(name).uploadFromFileWithResponse(new BlobUploadFromFileOptions(
                file.toString()).setHeaders(headers(contentType)).setParallelTransferOptions(
                new ParallelTransferOptions().setBlockSizeLong(UPLOAD_BLOCK).setMaxSingleUploadSizeLong(UPLOAD_BLOCK)
                        .setMaxConcurrency(2))).toFuture();
    }

    @Override
    public CompletableFuture<Boolean> exists() {
        return container.exists().toFuture();
    }

    @Override
    public CompletableFuture<?> create() {
        return container.createIfNotExists().toFuture();
    }

    @Override
    public BucketFailure classify(Throwable failure) {
        Throwable e = storageError(failure);
        if (e instanceof BlobStorageException error) {
            int status = error.getStatusCode();
            String message = error.getServiceMessage();
            String reason = (error.getErrorCode() == null ? "" : error.getErrorCode() + " ") + "(HTTP " + status + ")"
                    + (message == null || message.isBlank() ? "" : ": " + BucketFailure.shorten(message));
            return new BucketFailure(BucketFailure.retryableStatus(status)
                    || RETRYABLE_CODES.contains(error.getErrorCode()), reason, error);
        }
        BucketFailure transport = BucketFailure.ofTransport(e);
        return transport != null ? transport : new BucketFailure(false, BucketFailure.describe(e), e);
    }

    /**
     * The service's answer or the I/O error under the SDK's and Reactor's wrappers, or the unwrapped failure when it
     * holds neither.
     */
    private static Throwable storageError(Throwable failure) {
        Throwable outer = BucketFailure.unwrap(failure);
        for (Throwable e = outer; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof BlobStorageException || e instanceof IOException) {
                return e;
            }
        }
        return outer;
    }

    @Override
    public String endpoint() {
        return container.getAccountUrl();
    }

    @Override
    public String describe() {
        return location.toString();
    }

    @Override
    public String prefix() {
        return location.prefix();
    }

    /** The container's URL, and the prefix. */
    @Override
    public String publicUrl() {
        String base = container.getBlobContainerUrl();
        return location.prefix().isEmpty() ? base : base + "/" + location.prefix();
    }

    /** Nothing to stop: the SDK's Netty client runs on Reactor Netty's shared, daemon event loops. */
    @Override
    public void close() {
    }
}
