package io.tileseeder.adapters.mbtiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.adapters.TileStoreContract;
import io.tileseeder.adapters.sqlite.SqliteStoreContract;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MbtilesTileStore} keeps the {@link TileStoreContract} of one cache; what the file holds is read with plain
 * SQL, as another MBTiles reader would: the {@code tiles} view in TMS rows, shared images, the {@code metadata}
 * table; and what a file of one cache refuses.
 */
class MbtilesTileStoreTest extends SqliteStoreContract<MbtilesTileStore> {

    private static final TileCache WORLD = new TileCache("world", TMS);

    @Override
    protected MbtilesTileStore open(Path file) throws IOException {
        return new MbtilesTileStore(file);
    }

    @Override
    protected String fileName() {
        return "tiles.mbtiles";
    }

    @Test
    void tilesAreInTheTilesViewInTmsRowsAndIdenticalOnesAreStoredOnce() throws Exception {
        byte[] sea = bytes("sea");
        store.write(List.of(tile(3, 1, 1, sea), tile(3, 2, 1, sea), tile(3, 5, 6, bytes("land"))));

        assertThat(query("SELECT tile_data FROM tiles WHERE zoom_level = 3 AND tile_column = 5 AND tile_row = 1"))
                .as("XYZ row 6 of 8 is TMS row 1").containsExactly("land");
        assertThat(query("SELECT count(*) FROM tiles")).containsExactly("3");
        assertThat(query("SELECT count(*) FROM images")).as("sea once").containsExactly("2");
        assertThat(query("SELECT value FROM metadata WHERE name = 'format'")).containsExactly("png");
        assertThat(query("SELECT value FROM metadata WHERE name = 'name'")).containsExactly("world");
    }

    @Test
    void aReplacedOrDeletedTilesBytesGoOnceNoTileSharesThem() throws Exception {
        store.write(List.of(tile(2, 0, 0, bytes("sea")), tile(2, 1, 0, bytes("sea")), tile(2, 2, 0, bytes("old"))));

        store.write(List.of(tile(2, 2, 0, bytes("new")), tile(2, 0, 0, bytes("land"))));
        assertThat(query("SELECT count(*) FROM images")).as("sea (still 2/1/0), land, new").containsExactly("3");

        assertThat(store.delete(List.of(key(2, 1, 0), key(2, 3, 3)))).isEqualTo(1);
        assertThat(query("SELECT tile_data FROM images ORDER BY tile_data")).containsExactly("land", "new");
    }

    @Test
    void aCachesTileJsonFillsTheMetadataTable() throws Exception {
        store.write(List.of(tile(0, 0, 0, bytes("world"))));
        store.writeMetadata(WORLD, "tilejson-png.json", bytes("{\"tilejson\":\"3.0.0\",\"name\":\"World countries\","
                + "\"attribution\":\"Natural Earth\",\"minzoom\":0,\"maxzoom\":5,"
                + "\"bounds\":[-180,-85.0511,180,85.0511]}"), "application/json");

        Map<String, String> metadata = new HashMap<>();
        for (String row : query("SELECT name || '=' || value FROM metadata")) {
            metadata.put(row.substring(0, row.indexOf('=')), row.substring(row.indexOf('=') + 1));
        }
        assertThat(metadata).containsEntry("name", "World countries").containsEntry("format", "png")
                .containsEntry("attribution", "Natural Earth").containsEntry("minzoom", "0")
                .containsEntry("maxzoom", "5").containsEntry("bounds", "-180.0,-85.0511,180.0,85.0511")
                .containsEntry("center", "0.0,0.0,0");
    }

    @Test
    void aZoomHasTilesAndListsThemOnceOneIsStoredAndDocumentsDoNotCount() throws Exception {
        store.writeMetadata(WORLD, "done/png-4x4-skip/3/0/1", new byte[] {1}, "text/plain");
        assertThat(store.hasTiles(WORLD, 3)).isFalse();

        store.write(List.of(tile(3, 5, 2, bytes("a")), tile(3, 0, 7, bytes("b")), tile(4, 1, 1, bytes("c"))));

        assertThat(store.hasTiles(WORLD, 3)).isTrue();
        assertThat(store.hasTiles(WORLD, 2)).isFalse();
        List<TileCoord> listed = new ArrayList<>();
        store.list(WORLD, 3, TileFormat.PNG, listed::add);
        assertThat(listed).containsExactlyInAnyOrder(TileCoord.of(3, 5, 2), TileCoord.of(3, 0, 7));
        List<TileCoord> none = new ArrayList<>();
        store.list(WORLD, 3, TileFormat.JPEG, none::add);
        assertThat(none).as("another format").isEmpty();
    }

    @Test
    void aFileHoldsOneLayerInOneFormatOfWebMercatorQuad() throws Exception {
        store.write(List.of(tile(1, 0, 0, bytes("world"))));

        assertThatThrownBy(() -> store.write(List.of(new EncodedTile(new TileKey("other", TMS, TileCoord.of(1, 0, 0),
                TileFormat.PNG), bytes("x"))))).hasMessageContaining("holds the layer world in png; an MBTiles file "
                + "holds one layer in one format, not other/WebMercatorQuad/1/0/0.png");
        assertThatThrownBy(() -> store.write(List.of(new EncodedTile(new TileKey("world", TMS, TileCoord.of(1, 0, 0),
                TileFormat.JPEG), bytes("x"))))).hasMessageContaining("holds the layer world in png");
        assertThatThrownBy(() -> store.write(List.of(new EncodedTile(new TileKey("world",
                TileMatrixSet.WORLD_CRS84_QUAD, TileCoord.of(1, 0, 0), TileFormat.PNG), bytes("x")))))
                .hasMessageContaining("holds WebMercatorQuad tiles of a layer without dimensions");
        assertThatThrownBy(() -> store.write(List.of(new EncodedTile(new TileKey(new TileCache("world", TMS,
                new DimensionValues(Map.of("TIME", "2026"))), TileCoord.of(1, 0, 0), TileFormat.PNG), bytes("x")))))
                .hasMessageContaining("holds WebMercatorQuad tiles of a layer without dimensions");
        assertThat(store.read(key(1, 0, 0))).hasValueSatisfying(b -> assertThat(b).isEqualTo(bytes("world")));
    }

    /** A write refused half way is rolled back whole, the layer and format it would have named included. */
    @Test
    void aRefusedFirstWriteNamesNoLayer() throws Exception {
        assertThatThrownBy(() -> store.write(List.of(tile(1, 0, 0, bytes("world")), new EncodedTile(new TileKey(
                "other", TMS, TileCoord.of(1, 1, 0), TileFormat.PNG), bytes("other"))))).hasMessageContaining(
                "holds the layer world in png; an MBTiles file holds one layer in one format");
        assertThat(query("SELECT count(*) FROM map")).containsExactly("0");

        store.write(List.of(new EncodedTile(new TileKey("other", TMS, TileCoord.of(1, 1, 0), TileFormat.JPEG),
                bytes("other"))));

        assertThat(query("SELECT value FROM metadata WHERE name IN ('tileseeder_layer', 'format') ORDER BY name"))
                .containsExactly("jpg", "other");
    }

    @Test
    void whatIsWrittenIsThereWhenTheFileIsOpenedAgain() throws Exception {
        store.write(List.of(tile(2, 1, 1, bytes("kept"))));
        store.close();

        store = new MbtilesTileStore(file);

        assertThat(store.read(key(2, 1, 1))).hasValueSatisfying(b -> assertThat(b).isEqualTo(bytes("kept")));
        assertThatThrownBy(() -> store.write(List.of(new EncodedTile(new TileKey("other", TMS, TileCoord.of(1, 0, 0),
                TileFormat.PNG), bytes("x"))))).as("the layer the file holds is remembered")
                .hasMessageContaining("holds the layer world");
    }

    @Test
    void anotherToolsMbtilesOrAFileThatIsNoDatabaseIsRefused() throws Exception {
        Path other = dir.resolve("other.mbtiles");
        try (Connection sql = DriverManager.getConnection("jdbc:sqlite:" + other);
             Statement statement = sql.createStatement()) {
            statement.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, "
                    + "tile_data BLOB)");
        }
        assertThatThrownBy(() -> new MbtilesTileStore(other)).hasMessageContaining("other.mbtiles is an MBTiles "
                + "file with a tiles table (another tool's)");
        Path text = dir.resolve("notes.mbtiles");
        Files.writeString(text, "not a database, but long enough to be read as one's header".repeat(20));
        assertThatThrownBy(() -> new MbtilesTileStore(text)).hasMessageContaining("notes.mbtiles");
    }

    private static EncodedTile tile(int z, int x, int y, byte[] data) {
        return new EncodedTile(key(z, x, y), data);
    }

    private static TileKey key(int z, int x, int y) {
        return key(TileCoord.of(z, x, y));
    }

}
