package io.tileseeder.adapters.file;

import io.tileseeder.adapters.ManyCachesTileStoreContract;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** {@link FileTileStore} keeps the {@link ManyCachesTileStoreContract}. Its file-specific behaviour: {@link FileTileStoreTest}. */
class FileTileStoreContractTest extends ManyCachesTileStoreContract {

    @TempDir
    Path root;

    private FileTileStore store;

    @BeforeEach
    void setUp() {
        store = new FileTileStore(root);
    }

    @Override
    protected TileStore store() {
        return store;
    }

    @Override
    protected Optional<byte[]> readMetadata(TileCache cache, String name) throws IOException {
        Path file = root.resolve(cache.path()).resolve(name);
        return Files.isRegularFile(file) ? Optional.of(Files.readAllBytes(file)) : Optional.empty();
    }
}
