package io.tileseeder.e2e;

import io.minio.ListObjectsArgs;
import io.minio.MinioClient;
import io.minio.RemoveObjectsArgs;
import io.minio.Result;
import io.minio.messages.DeleteRequest;
import io.minio.messages.DeleteResult;
import io.minio.messages.Item;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The tiles in MinIO (in the dependencies' namespace), read and cleared with the MinIO client; tried again while
 * MinIO restarts.
 */
final class Store {

    private static final Duration OUTAGE = Duration.ofMinutes(3);

    private final MinioClient minio;
    private final String bucket;
    private final String prefix;

    /** {@code prefix}: the store path's key prefix with its slash, e.g. "cache/". */
    Store(String endpoint, String accessKey, String secretKey, String bucket, String prefix) {
        this.minio = MinioClient.builder().endpoint(endpoint).credentials(accessKey, secretKey).build();
        this.bucket = bucket;
        this.prefix = prefix;
    }

    /** Every object under the prefix: its key after the prefix, and when it was last written. */
    Map<String, Instant> objects() throws InterruptedException {
        return Retry.within(OUTAGE, "listing " + bucket + "/" + prefix, this::list);
    }

    private Map<String, Instant> list() throws Exception {
        Map<String, Instant> objects = new TreeMap<>();
        for (Result<Item> result : minio.listObjects(ListObjectsArgs.builder().bucket(bucket).prefix(prefix)
                .recursive(true).build())) {
            Item item = result.get();
            objects.put(item.objectName().substring(prefix.length()), item.lastModified().toInstant());
        }
        return objects;
    }

    /** Removes every object under the prefix, so that a job's tiles are all its own. */
    void clear() throws InterruptedException {
        Retry.within(OUTAGE, "clearing " + bucket + "/" + prefix, () -> {
            removeAll();
            return null;
        });
    }

    private void removeAll() throws Exception {
        List<DeleteRequest.Object> keys = new ArrayList<>();
        for (String key : list().keySet()) {
            keys.add(new DeleteRequest.Object(prefix + key));
        }
        // The client sends them in DeleteObjects requests of 1000 as the results are read.
        for (Result<DeleteResult.Error> error : minio.removeObjects(RemoveObjectsArgs.builder().bucket(bucket)
                .objects(keys).build())) {
            throw new IllegalStateException("could not remove " + error.get().objectName() + ": "
                    + error.get().message());
        }
    }
}
