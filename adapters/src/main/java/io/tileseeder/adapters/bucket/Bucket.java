package io.tileseeder.adapters.bucket;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What a {@link BucketTileStore} needs of an object store: one bucket (an S3 bucket, an Azure container, a Cloud
 * Storage bucket) holding objects by name, each request answered by a future. An implementation only translates these
 * calls into its client's; naming, layouts, the in-flight limit and retries are the store's, the same for every cloud.
 *
 * <p>Every object written is durable when its future completes (the service answered that it is stored), and replaces
 * any object of that name atomically: a reader sees the old object or the new one, never a part.
 */
public interface Bucket extends AutoCloseable {

    /** What a look-up tells of an object: when it was last written and the MD5 of its bytes, if the service has it. */
    record ObjectInfo(Instant lastModified, String md5) {
    }

    /**
     * One page of a listing: the names of the objects, the folders (names ending with {@code /}, when listed one level
     * at a time), and the token of the next page, null after the last.
     */
    record Page(List<String> names, List<String> folders, String next) {
    }

    /** Stores the object with its content type and the store's Cache-Control, replacing any of that name. */
    CompletableFuture<?> put(String name, byte[] data, String contentType);

    /** The object's last modification and MD5, or empty if there is no such object. */
    CompletableFuture<Optional<ObjectInfo>> stat(String name);

    /** The object's bytes, or empty if there is no such object. */
    CompletableFuture<Optional<byte[]>> get(String name);

    /**
     * A page of the objects whose names begin with {@code prefix}, in name order.
     *
     * @param oneLevel true for the objects directly in the prefix's folder and its folders, false for all below it
     * @param token    the previous page's {@link Page#next}, null for the first
     * @param max      the most names (and folders) on the page; the service may give fewer
     */
    CompletableFuture<Page> list(String prefix, boolean oneLevel, String token, int max);

    /** The most names one {@link #delete} takes: what the service's batch request takes. */
    int deleteBatch();

    /** Deletes the objects, at most {@link #deleteBatch} of them; a missing object is no error. */
    CompletableFuture<?> delete(List<String> names);

    /**
     * Stores a file as the object, in parts as the service needs for a large one; the object appears under its name
     * only once all of it is in.
     */
    CompletableFuture<?> upload(String name, Path file, String contentType);

    /** Whether the bucket exists. */
    CompletableFuture<Boolean> exists();

    /** Creates the bucket; one that exists already (made meanwhile by another process) is no error. */
    CompletableFuture<?> create();

    /** Why a request failed and whether sending it again may help. */
    BucketFailure classify(Throwable failure);

    /** Where the service is, named in errors: e.g. {@code http://127.0.0.1:9000}. */
    String endpoint();

    /** The bucket and prefix for people, e.g. {@code s3://tiles/cache} or {@code az://tiles/cache}. */
    String describe();

    /** The prefix of every name the store uses (no leading or trailing slash), empty for the bucket's root. */
    String prefix();

    /** The URL of the prefix as a web client reads it, without a trailing slash. */
    String publicUrl();

    /** Stops the client's threads and closes its connections. */
    @Override
    void close();
}
