package io.tileseeder.adapters.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.adapters.ManyCachesTileStoreContract;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.Layout;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link S3TileStore} in the layouts other than xyz ({@link S3TileStoreIT} keeps the contract in xyz) against the real
 * MinIO of {@code dev/services}: the {@link ManyCachesTileStoreContract}, and each tile's object where its layout
 * says. The quadkey layout lists its cache's folder without the folders below it (a delimited ListObjectsV2).
 */
@ParameterizedClass
@EnumSource(value = Layout.class, names = {"TMS", "WMTS", "QUADKEY"})
class S3LayoutsIT extends ManyCachesTileStoreContract {

    private static final S3TestServer SERVER = new S3TestServer();

    @Parameter
    Layout layout;

    private String prefix;
    private S3TileStore store;

    @BeforeEach
    void setUp() throws IOException {
        prefix = S3TestServer.randomPrefix();
        store = new S3TileStore(SERVER.endpoint, SERVER.accessKey, SERVER.secretKey, SERVER.region,
                new S3Location(S3TestServer.BUCKET, prefix), S3Options.defaults().withLayout(layout));
    }

    @AfterEach
    void tearDown() throws Exception {
        store.close();
        SERVER.deleteAll(prefix);
    }

    @Override
    protected TileStore store() {
        return store;
    }

    @Override
    protected Optional<byte[]> readMetadata(TileCache cache, String name) throws IOException {
        return SERVER.document(prefix, layout, cache, name);
    }

    @Test
    void aTilesObjectIsWhereItsLayoutSays() throws Exception {
        TileKey key = key(TileCoord.of(3, 5, 2));

        store.write(List.of(new EncodedTile(key, new byte[] {7})));

        assertThat(SERVER.list(prefix)).containsExactly(prefix + "/" + layout.path(key));
    }
}
