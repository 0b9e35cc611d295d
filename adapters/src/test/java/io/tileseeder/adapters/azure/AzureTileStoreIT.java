package io.tileseeder.adapters.azure;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.ListBlobsOptions;
import io.tileseeder.adapters.bucket.BucketLocation;
import io.tileseeder.adapters.bucket.BucketStoreContract;
import io.tileseeder.adapters.bucket.BucketTileStore;
import io.tileseeder.outage.RetryPolicy;
import io.tileseeder.port.Layout;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link AzureTileStore} against the Azurite of {@code dev/services} ({@code SEEDER_AZURE_CONNECTION_STRING}), read
 * back with the Azure SDK's own client: the {@link BucketStoreContract} in every layout.
 */
@ParameterizedClass
@EnumSource(Layout.class)
class AzureTileStoreIT extends BucketStoreContract {

    private static final String CONTAINER = "tileseeder-it";
    private static final String CONNECTION = Objects.requireNonNull(System.getenv("SEEDER_AZURE_CONNECTION_STRING"),
            "SEEDER_AZURE_CONNECTION_STRING (from .dev/services.env: dev/services up --clouds)");
    private static final BlobContainerClient SDK = new BlobServiceClientBuilder().connectionString(CONNECTION)
            .buildClient().getBlobContainerClient(CONTAINER);

    @Override
    protected BucketTileStore open(String prefix, Layout layout, RetryPolicy retry) throws IOException {
        return store(CONNECTION, prefix, layout, retry);
    }

    private static AzureTileStore store(String connection, String prefix, Layout layout, RetryPolicy retry)
            throws IOException {
        return new AzureTileStore(AzureConnection.of(connection), new BucketLocation(BucketLocation.Scheme.AZ,
                CONTAINER, prefix), layout, null, BucketTileStore.DEFAULT_CACHE_CONTROL, 8, retry);
    }

    /** The account's key with its first characters changed: still a key, not the account's. */
    @Override
    protected BucketTileStore openRefused(String prefix) throws IOException {
        return store(CONNECTION.replaceFirst("AccountKey=....", "AccountKey=AAAA"), prefix, Layout.XYZ,
                RetryPolicy.DEFAULT);
    }

    @Override
    protected String refusal() {
        return "(HTTP 403)";
    }

    @Override
    protected BucketTileStore openUnreachable(String prefix, RetryPolicy retry) throws IOException {
        return store(CONNECTION.replaceFirst("BlobEndpoint=http://[^/]+", "BlobEndpoint=" + UNREACHABLE), prefix,
                Layout.XYZ, retry);
    }

    @Override
    protected Map<String, Seen> objects(String prefix) {
        Map<String, Seen> found = new LinkedHashMap<>();
        for (BlobItem item : SDK.listBlobs(new ListBlobsOptions().setPrefix(prefix + "/"), null)) {
            found.put(item.getName(), new Seen(item.getProperties().getContentType(),
                    item.getProperties().getCacheControl(),
                    SDK.getBlobClient(item.getName()).downloadContent().toBytes()));
        }
        return found;
    }

    @Override
    protected void deleteAll(String prefix) {
        for (BlobItem item : SDK.listBlobs(new ListBlobsOptions().setPrefix(prefix + "/"), null)) {
            SDK.getBlobClient(item.getName()).delete();
        }
    }

    @Override
    protected int deleteBatch() {
        return AzureBucket.DELETE_BATCH;
    }
}
