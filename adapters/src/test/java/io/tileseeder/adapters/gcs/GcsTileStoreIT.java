package io.tileseeder.adapters.gcs;

import com.google.cloud.NoCredentials;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import io.tileseeder.adapters.bucket.BucketLocation;
import io.tileseeder.adapters.bucket.BucketStoreContract;
import io.tileseeder.adapters.bucket.BucketTileStore;
import io.tileseeder.outage.RetryPolicy;
import io.tileseeder.port.Layout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link GcsTileStore} against the fake-gcs-server of {@code dev/services} ({@code SEEDER_GCS_ENDPOINT}), read back with
 * Google's own Java client: the {@link BucketStoreContract} in every layout. The emulator checks no credentials, so
 * the refused ones here are a key file that is no key.
 */
@ParameterizedClass
@EnumSource(Layout.class)
class GcsTileStoreIT extends BucketStoreContract {

    private static final String BUCKET = "tileseeder-it";
    private static final String ENDPOINT = Objects.requireNonNull(System.getenv("SEEDER_GCS_ENDPOINT"),
            "SEEDER_GCS_ENDPOINT (from .dev/services.env: dev/services up --clouds)");
    private static final String PROJECT = System.getenv().getOrDefault("SEEDER_GCS_PROJECT", "tile-seeder-dev");
    private static final Storage SDK = StorageOptions.http().setHost(ENDPOINT).setProjectId(PROJECT)
            .setCredentials(NoCredentials.getInstance()).build().getService();

    @Override
    protected BucketTileStore open(String prefix, Layout layout, RetryPolicy retry) throws IOException {
        return store(GcsConnection.emulator(ENDPOINT, PROJECT), prefix, layout, retry);
    }

    private static GcsTileStore store(GcsConnection connection, String prefix, Layout layout, RetryPolicy retry)
            throws IOException {
        return new GcsTileStore(connection, new BucketLocation(BucketLocation.Scheme.GS, BUCKET, prefix), layout,
                null, BucketTileStore.DEFAULT_CACHE_CONTROL, 8, retry);
    }

    @Override
    protected BucketTileStore openRefused(String prefix) throws IOException {
        Path key = Files.writeString(temp.resolve("key.json"), "{\"type\": \"service_account\"}");
        return store(new GcsConnection(Optional.empty(), Optional.of(key), Optional.of(PROJECT)), prefix, Layout.XYZ,
                RetryPolicy.DEFAULT);
    }

    @Override
    protected String refusal() {
        return "cannot read the Google credentials";
    }

    @Override
    protected BucketTileStore openUnreachable(String prefix, RetryPolicy retry) throws IOException {
        return store(GcsConnection.emulator(UNREACHABLE, PROJECT), prefix, Layout.XYZ, retry);
    }

    @Override
    protected Map<String, Seen> objects(String prefix) {
        Map<String, Seen> found = new LinkedHashMap<>();
        for (Blob blob : SDK.list(BUCKET, Storage.BlobListOption.prefix(prefix + "/")).iterateAll()) {
            found.put(blob.getName(), new Seen(blob.getContentType(), blob.getCacheControl(), blob.getContent()));
        }
        return found;
    }

    @Override
    protected void deleteAll(String prefix) {
        for (Blob blob : SDK.list(BUCKET, Storage.BlobListOption.prefix(prefix + "/")).iterateAll()) {
            blob.delete();
        }
    }

    @Override
    protected int deleteBatch() {
        return GcsBucket.DELETE_BATCH;
    }
}
