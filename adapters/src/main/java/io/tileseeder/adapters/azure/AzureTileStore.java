package io.tileseeder.adapters.azure;

import io.tileseeder.adapters.bucket.BucketLocation;
import io.tileseeder.adapters.bucket.BucketTileStore;
import io.tileseeder.outage.RetryPolicy;
import io.tileseeder.port.Layout;
import java.io.IOException;
import java.time.Duration;

/**
 * Tiles as block blobs in an Azure Blob Storage container ({@code az://container/prefix}, {@link AzureBucket}), with
 * everything a {@link BucketTileStore} does: the layout, the in-flight limit, retries of 5xx, 408, 429, "server busy"
 * and I/O errors, errors that name the account, the blobs and Azure's error code. Truncates delete in Blob Batch
 * requests of 256 blobs; a reseed tells unchanged tiles from the MD5 the service keeps of each blob.
 */
public final class AzureTileStore extends BucketTileStore {

    /**
     * Opens the container, creating it if it does not exist.
     *
     * @throws IOException when the account cannot be reached, refuses the credentials or the container cannot be
     *                     created; the message names the container and the cause
     */
    public AzureTileStore(AzureConnection connection, BucketLocation location, Layout layout, String publicUrl,
                          String cacheControl, int maxInFlight, RetryPolicy retry) throws IOException {
        super(new AzureBucket(connection, location, cacheControl, Duration.ofSeconds(5), Duration.ofSeconds(60)),
                layout, publicUrl, maxInFlight, retry);
        ensureBucket();
    }
}
