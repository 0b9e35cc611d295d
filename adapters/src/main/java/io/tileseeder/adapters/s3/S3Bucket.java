package io.tileseeder.adapters.s3;

import io.minio.BucketExistsArgs;
import io.minio.DeleteObjectsArgs;
import io.minio.GetObjectArgs;
import io.minio.GetObjectResponse;
import io.minio.ListObjectsV2Args;
import io.minio.MakeBucketArgs;
import io.minio.MinioAsyncClient;
import io.minio.PutObjectArgs;
import io.minio.StatObjectArgs;
import io.minio.UploadObjectArgs;
import io.minio.errors.MinioException;
import io.minio.messages.DeleteRequest;
import io.minio.messages.DeleteResult;
import io.tileseeder.adapters.bucket.Bucket;
import io.tileseeder.adapters.bucket.BucketFailure;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import okhttp3.OkHttpClient;

/**
 * An S3 bucket through the MinIO async client: PUT, HEAD (the ETag is the MD5 of an object PUT in one part), GET,
 * ListObjectsV2, DeleteObjects of up to 1000 keys, and multipart uploads of 64 MiB parts. The SDK's own status retry
 * is left out, so that the store's policy is the only one.
 */
final class S3Bucket implements Bucket {

    /** Objects per DeleteObjects request: S3's maximum. */
    static final int DELETE_BATCH = 1000;

    /** The part size of {@link #upload}: 64 MiB parts take an object up to 640 GB in S3's 10,000 parts. */
    private static final long UPLOAD_PART = 64L << 20;

    private final String endpoint;
    private final S3Location location;
    private final String cacheControl;
    private final OkHttpClient httpClient;
    private final MinioAsyncClient client;

    S3Bucket(String endpoint, String accessKey, String secretKey, String region, S3Location location,
             S3Options options) {
        this.endpoint = endpoint;
        this.location = location;
        this.cacheControl = options.cacheControl();
        this.httpClient = S3Clients.httpClient(options);
        try {
            this.client = S3Clients.minio(endpoint, accessKey, secretKey, region, httpClient);
        } catch (RuntimeException e) {
            S3Clients.shutDown(httpClient);
            throw e;
        }
    }

    @Override
    public CompletableFuture<?> put(String name, byte[] data, String contentType) {
        return client.putObject(PutObjectArgs.builder().bucket(location.bucket()).object(name)
                .data(data, data.length).contentType(contentType)
                .headers(Map.of("Cache-Control", cacheControl)).build());
    }

    @Override
    public CompletableFuture<Optional<ObjectInfo>> stat(String name) {
        return client.statObject(StatObjectArgs.builder().bucket(location.bucket()).object(name).build())
                .handle((stat, failure) -> {
                    if (failure == null) {
                        return Optional.of(new ObjectInfo(stat.lastModified().toInstant(), md5(stat.etag())));
                    }
                    if (S3Failures.isMissingObject(failure)) {
                        return Optional.empty();
                    }
                    throw BucketFailure.completion(failure);
                });
    }

    /** The MD5 an ETag holds: 32 hex digits, quoted or not; null for the ETag of a multipart object. */
    static String md5(String etag) {
        String value = etag == null ? "" : etag.replace("\"", "").toLowerCase(Locale.ROOT);
        return value.matches("[0-9a-f]{32}") ? value : null;
    }

    @Override
    public CompletableFuture<Optional<byte[]>> get(String name) {
        return client.getObject(GetObjectArgs.builder().bucket(location.bucket()).object(name).build())
                .handle((GetObjectResponse response, Throwable failure) -> {
                    if (failure != null) {
                        if (S3Failures.isMissingObject(failure)) {
                            return Optional.empty();
                        }
                        throw BucketFailure.completion(failure);
                    }
                    try (response) {
                        return Optional.of(response.readAllBytes());
                    } catch (IOException e) {
                        throw new CompletionException(e);
                    }
                });
    }

    @Override
    public CompletableFuture<Page> list(String prefix, boolean oneLevel, String token, int max) {
        ListObjectsV2Args.Builder list = ListObjectsV2Args.builder().bucket(location.bucket()).prefix(prefix)
                .maxKeys(max);
        if (oneLevel) {
            list.delimiter("/");
        }
        if (token != null) {
            list.continuationToken(token);
        }
        return client.listObjectsV2(list.build()).thenApply(listing -> new Page(
                listing.result().contents().stream().map(item -> item.objectName()).toList(),
                listing.result().commonPrefixes().stream().map(folder -> folder.toItem().objectName()).toList(),
                listing.result().isTruncated() ? listing.result().nextContinuationToken() : null));
    }

    @Override
    public int deleteBatch() {
        return DELETE_BATCH;
    }

    /** One DeleteObjects request; S3 deletes a missing object without complaint. */
    @Override
    public CompletableFuture<?> delete(List<String> names) {
        List<DeleteRequest.Object> request = names.stream().map(DeleteRequest.Object::new).toList();
        return client.deleteObjects(DeleteObjectsArgs.builder().bucket(location.bucket()).objects(request)
                .quiet(true).build()).thenApply(response -> {
                    List<DeleteResult.Error> errors = response.result().errors();
                    if (!errors.isEmpty()) {
                        throw new CompletionException(new S3Failures.DeleteErrors(errors));
                    }
                    return response;
                });
    }

    /** One PUT, or a multipart upload for a file larger than a part, shown only once CompleteMultipartUpload is in. */
    @Override
    public CompletableFuture<?> upload(String name, Path file, String contentType) {
        try {
            return client.uploadObject(UploadObjectArgs.builder().bucket(location.bucket()).object(name)
                    .filename(file.toString(), UPLOAD_PART).contentType(contentType).build());
        } catch (MinioException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletableFuture<Boolean> exists() {
        return client.bucketExists(BucketExistsArgs.builder().bucket(location.bucket()).build());
    }

    @Override
    public CompletableFuture<?> create() {
        return client.makeBucket(MakeBucketArgs.builder().bucket(location.bucket()).build())
                .handle((response, failure) -> {
                    if (failure == null || "BucketAlreadyOwnedByYou".equals(S3Failures.s3Code(failure))) {
                        return Boolean.TRUE; // created, here or by a concurrent worker
                    }
                    throw BucketFailure.completion(failure);
                });
    }

    @Override
    public BucketFailure classify(Throwable failure) {
        return S3Failures.classify(failure);
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

    /** The endpoint's path-style URL of the bucket and prefix. */
    @Override
    public String publicUrl() {
        String base = endpoint.replaceAll("/+$", "") + "/" + location.bucket();
        return location.prefix().isEmpty() ? base : base + "/" + location.prefix();
    }

    @Override
    public void close() {
        S3Clients.shutDown(httpClient);
    }
}
