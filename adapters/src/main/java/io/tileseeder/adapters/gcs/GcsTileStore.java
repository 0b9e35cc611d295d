package io.tileseeder.adapters.gcs;

import io.tileseeder.adapters.bucket.BucketLocation;
import io.tileseeder.adapters.bucket.BucketTileStore;
import io.tileseeder.outage.RetryPolicy;
import io.tileseeder.port.Layout;
import java.io.IOException;
import java.time.Duration;

/**
 * Tiles as objects in a Google Cloud Storage bucket ({@code gs://bucket/prefix}, {@link GcsBucket}), with everything a
 * {@link BucketTileStore} does: the layout, the in-flight limit, retries of 5xx, 408, 429 and I/O errors, errors that
 * name the bucket, the objects and the service's reason. Truncates delete in batch requests of 100 objects; a reseed
 * tells unchanged tiles from the MD5 the service keeps of each object.
 */
public final class GcsTileStore extends BucketTileStore {

    /**
     * Opens the bucket, creating it (in the connection's project) if it does not exist.
     *
     * @throws IOException when the service cannot be reached, refuses the credentials or the bucket cannot be
     *                     created; the message names the bucket and the cause
     */
    public GcsTileStore(GcsConnection connection, BucketLocation location, Layout layout, String publicUrl,
                        String cacheControl, int maxInFlight, RetryPolicy retry) throws IOException {
        super(new GcsBucket(connection, location, cacheControl, maxInFlight, Duration.ofSeconds(5),
                Duration.ofSeconds(60)), layout, publicUrl, maxInFlight, retry);
        try {
            ensureBucket();
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }
}
