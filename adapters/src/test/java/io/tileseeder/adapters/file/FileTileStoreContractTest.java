package io.tileseeder.adapters.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.adapters.ManyCachesTileStoreContract;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.Layout;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link FileTileStore} keeps the {@link ManyCachesTileStoreContract} in every layout, and puts each tile's file where
 * its layout says. Its file-specific behaviour: {@link FileTileStoreTest}.
 */
@ParameterizedClass
@EnumSource(Layout.class)
class FileTileStoreContractTest extends ManyCachesTileStoreContract {

    @Parameter
    Layout layout;

    @TempDir
    Path root;

    private FileTileStore store;

    @BeforeEach
    void setUp() {
        store = new FileTileStore(root, layout);
    }

    @Override
    protected TileStore store() {
        return store;
    }

    @Override
    protected Optional<byte[]> readMetadata(TileCache cache, String name) throws IOException {
        Path file = root.resolve(layout.folder(cache)).resolve(name);
        return Files.isRegularFile(file) ? Optional.of(Files.readAllBytes(file)) : Optional.empty();
    }

    @Test
    void aTilesFileIsWhereItsLayoutSays() throws Exception {
        TileKey key = key(TileCoord.of(3, 5, 2));

        store.write(List.of(new EncodedTile(key, new byte[] {7})));

        assertThat(Folders.regularFiles(root)).containsExactly(layout.path(key));
        assertThat(store.layout()).isEqualTo(layout);
    }
}
