package io.tileseeder.app.cli;

import static io.tileseeder.app.cli.Cli.describe;
import static io.tileseeder.app.cli.Cli.files;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.google.cloud.NoCredentials;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code seeder seed --store az://… --pack az://….pmtiles} and the same with {@code gs://}, against the Azurite and
 * fake-gcs-server of {@code dev/services up --clouds}: every tile the cloud's own SDK reads back is the tile a seed
 * into a folder writes, byte for byte, and the archive packed from the cloud into the cloud passes the reference
 * reader's {@code verify} (go-pmtiles, {@code SEEDER_PMTILES}) with every tile addressed.
 */
@QuarkusMainTest
class CloudStoresIT {

    private static final String BUCKET = "tileseeder-it";
    private static final String ZOOMS = "0-3";

    @TempDir
    Path temp;

    /** The objects below a prefix of a cloud's bucket, by the cloud's own SDK. */
    private interface Cloud {
        Map<String, byte[]> objects(String prefix);

        void delete(String prefix);
    }

    @Test
    void aSeedIntoAnAzureContainerAndItsArchiveHoldEveryTile(QuarkusMainLauncher launcher) throws Exception {
        BlobContainerClient container = new BlobServiceClientBuilder().connectionString(env(
                "SEEDER_AZURE_CONNECTION_STRING")).buildClient()
                .getBlobContainerClient(BUCKET);
        seedAndPack(launcher, "az", new Cloud() {
            @Override
            public Map<String, byte[]> objects(String prefix) {
                Map<String, byte[]> found = new TreeMap<>();
                for (BlobItem item : container.listBlobs(new ListBlobsOptions().setPrefix(prefix + "/"), null)) {
                    found.put(item.getName().substring(prefix.length() + 1),
                            container.getBlobClient(item.getName()).downloadContent().toBytes());
                }
                return found;
            }

            @Override
            public void delete(String prefix) {
                container.listBlobs(new ListBlobsOptions().setPrefix(prefix + "/"), null)
                        .forEach(item -> container.getBlobClient(item.getName()).delete());
            }
        });
    }

    @Test
    void aSeedIntoACloudStorageBucketAndItsArchiveHoldEveryTile(QuarkusMainLauncher launcher) throws Exception {
        Storage storage = StorageOptions.http().setHost(env("SEEDER_GCS_ENDPOINT"))
                .setProjectId(env("SEEDER_GCS_PROJECT")).setCredentials(NoCredentials.getInstance()).build()
                .getService();
        seedAndPack(launcher, "gs", new Cloud() {
            @Override
            public Map<String, byte[]> objects(String prefix) {
                Map<String, byte[]> found = new TreeMap<>();
                for (Blob blob : storage.list(BUCKET, Storage.BlobListOption.prefix(prefix + "/")).iterateAll()) {
                    found.put(blob.getName().substring(prefix.length() + 1), blob.getContent());
                }
                return found;
            }

            @Override
            public void delete(String prefix) {
                storage.list(BUCKET, Storage.BlobListOption.prefix(prefix + "/")).iterateAll().forEach(Blob::delete);
            }
        });
    }

    private void seedAndPack(QuarkusMainLauncher launcher, String scheme, Cloud cloud) throws Exception {
        String prefix = "cli-it/" + UUID.randomUUID();
        String store = scheme + "://" + BUCKET + "/" + prefix;
        Path folder = temp.resolve("tiles");
        try {
            LaunchResult reference = launcher.launch("seed", "--layer", "world", "--zoom", ZOOMS, "--out",
                    folder.toString());
            assertThat(reference.exitCode()).as(describe(reference)).isZero();

            LaunchResult seed = launcher.launch("seed", "--layer", "world", "--zoom", ZOOMS, "--store", store,
                    "--pack", store + "/world.pmtiles");

            assertThat(seed.exitCode()).as(describe(seed)).isZero();
            Map<String, byte[]> objects = cloud.objects(prefix);
            Map<String, byte[]> tiles = new TreeMap<>();
            objects.forEach((name, data) -> {
                if (name.endsWith(".png")) {
                    tiles.put(name, data);
                }
            });
            assertThat(tiles.keySet()).as("the tiles").containsExactlyElementsOf(files(folder).stream()
                    .filter(name -> name.endsWith(".png")).toList());
            for (Map.Entry<String, byte[]> tile : tiles.entrySet()) {
                assertThat(tile.getValue()).as(tile.getKey()).isEqualTo(Files.readAllBytes(folder.resolve(
                        tile.getKey())));
            }
            assertThat(objects).containsKeys("world/WebMercatorQuad/tilejson-png.json",
                    "world/WebMercatorQuad/WMTSCapabilities-png.xml");
            Path archive = Files.write(temp.resolve("world.pmtiles"), objects.get("world.pmtiles"));
            assertThat(goPmtiles("verify", archive)).as("verify exits 0 on a sound archive").contains("Completed verify");
            assertThat(goPmtiles("show", archive)).containsPattern("addressed tiles count: " + tiles.size() + "\\b");
        } finally {
            cloud.delete(prefix);
        }
    }

    /** What the reference reader prints, once it exited 0. */
    private static String goPmtiles(String command, Path archive) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(env("SEEDER_PMTILES"), command, archive.toString())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("go-pmtiles %s ends", command).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }

    private static String env(String name) {
        return Objects.requireNonNull(System.getenv(name), name + " (from .dev/services.env: dev/services up --clouds)");
    }
}
