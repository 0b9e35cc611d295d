package io.tileseeder.runtime.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.runtime.settings.Settings.StoreSettings;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A folder of tiles that cannot be created is named as such, with why, not as a file that is missing; a cloud store
 * without the settings it needs is refused naming them.
 */
class StoresTest {

    @TempDir
    Path dir;

    @Test
    void aFolderInAFileSystemThatTakesNoneIsNamedWithThatFileSystem() {
        // /proc takes no folder of ours, whoever runs the test; Linux says "no such file or directory" for it.
        assertThatThrownBy(() -> Stores.open(new StoreSettings("/proc/tile-seeder-test/tiles", Optional.empty())))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage("cannot create the folder /proc/tile-seeder-test/tiles: /proc takes no new folders "
                        + "(a proc file system)");
    }

    @Test
    void aFileInThePathIsNamed() throws Exception {
        Path file = Files.writeString(dir.resolve("not-a-folder"), "a file");

        assertThatThrownBy(() -> Stores.open(new StoreSettings(file.resolve("a/tiles").toString(), Optional.empty())))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage("cannot create the folder " + file.resolve("a/tiles") + ": " + file
                        + " is a file, not a folder");
    }

    @Test
    void aCloudStoreWithoutItsSettingsOrWithABadNameIsRefusedWithWhatIsMissing() {
        assertThatThrownBy(() -> Stores.open(new StoreSettings("az://tiles/cache", Optional.empty())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the store az://tiles/cache needs an Azure Storage account")
                .hasMessageContaining("SEEDER_AZURE_CONNECTION_STRING");
        assertThatThrownBy(() -> Stores.open(new StoreSettings("gs://Tiles/cache", Optional.empty())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invalid bucket name 'Tiles'");
        assertThatThrownBy(() -> Stores.open(new StoreSettings("s3://tiles/cache", Optional.empty())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs an S3 endpoint");
    }

    @Test
    void onlyFilesNotBucketsAreSingleFileStores() {
        assertThat(Stores.isFile("az://tiles/world.mbtiles")).isFalse();
        assertThat(Stores.isFile("tiles/world.gpkg")).isTrue();
        assertThat(Stores.isBucket("GS://tiles")).isTrue();
    }
}
