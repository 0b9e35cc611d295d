package io.tileseeder.runtime.wiring;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.runtime.settings.Settings.StoreSettings;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A folder of tiles that cannot be created is named as such, with why, not as a file that is missing. */
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
}
