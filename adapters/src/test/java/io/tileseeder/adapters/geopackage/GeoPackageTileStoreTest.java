package io.tileseeder.adapters.geopackage;

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
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GeoPackageTileStore} keeps the {@link TileStoreContract}; what the file holds is read with plain SQL, as
 * GeoPackage 1.3 lays it out (GDAL reads it in {@code GeoPackageGdalIT}).
 */
class GeoPackageTileStoreTest extends SqliteStoreContract<GeoPackageTileStore> {

    @Override
    protected GeoPackageTileStore open(Path file) throws IOException {
        return new GeoPackageTileStore(file);
    }

    @Override
    protected String fileName() {
        return "tiles.gpkg";
    }

    @Test
    void aPyramidTablePerLayerAndSetWithItsContentsMatrixSetAndMatrices() throws Exception {
        store.write(List.of(tile("world", TMS, 2, 1, 3, "a"), tile("world", TileMatrixSet.WORLD_CRS84_QUAD, 1, 3, 0, "b"),
                tile("roads", TMS, 0, 0, 0, "c")));

        assertThat(query("PRAGMA application_id")).containsExactly(Integer.toString(0x47504B47));
        assertThat(query("PRAGMA user_version")).containsExactly("10300");
        assertThat(query("SELECT table_name || ' ' || data_type || ' ' || srs_id FROM gpkg_contents ORDER BY 1"))
                .containsExactly("roads_WebMercatorQuad tiles 3857", "world_WebMercatorQuad tiles 3857",
                        "world_WorldCRS84Quad tiles 4326");
        assertThat(query("SELECT tile_data FROM world_WebMercatorQuad WHERE zoom_level = 2 AND tile_column = 1 "
                + "AND tile_row = 3")).as("rows from the top, as the product's").containsExactly("a");
        assertThat(query("SELECT min_x || ',' || max_y FROM gpkg_tile_matrix_set WHERE table_name = "
                + "'world_WorldCRS84Quad'")).containsExactly("-180.0,90.0");
        assertThat(query("SELECT matrix_width || 'x' || matrix_height || ' ' || printf('%.6f', pixel_x_size) FROM "
                + "gpkg_tile_matrix WHERE table_name = 'world_WebMercatorQuad' AND zoom_level = 2"))
                .containsExactly(String.format(java.util.Locale.ROOT, "4x4 %.6f", TMS.matrix(2).cellSize()));
        assertThat(query("SELECT zoom_level FROM gpkg_tile_matrix WHERE table_name = 'world_WebMercatorQuad'"))
                .as("a matrix per zoom with tiles").containsExactly("2");
        assertThat(query("SELECT srs_id || ' ' || organization || ' ' || srs_name || ' ' || substr(definition, 1, 6) "
                + "FROM gpkg_spatial_ref_sys WHERE srs_id > 0 ORDER BY srs_id"))
                .containsExactly("3857 EPSG WGS 84 / Pseudo-Mercator PROJCS", "4326 EPSG WGS 84 GEOGCS");
    }

    @Test
    void webpTilesDeclareTheGeoPackageWebpExtension() throws Exception {
        store.write(List.of(new EncodedTile(new TileKey("world", TMS, TileCoord.of(0, 0, 0), TileFormat.WEBP),
                bytes("webp"))));

        assertThat(query("SELECT table_name || ' ' || column_name || ' ' || extension_name FROM gpkg_extensions"))
                .containsExactly("world_WebMercatorQuad tile_data gpkg_webp");
    }

    @Test
    void aTableHoldsOneFormatAndNoDimensionValues() throws Exception {
        store.write(List.of(tile("world", TMS, 1, 0, 0, "png")));

        assertThatThrownBy(() -> store.write(List.of(new EncodedTile(new TileKey("world", TMS, TileCoord.of(1, 0, 0),
                TileFormat.JPEG), bytes("jpeg"))))).hasMessageContaining("the table world_WebMercatorQuad holds png "
                + "tiles, not world/WebMercatorQuad/1/0/0.jpg");
        assertThatThrownBy(() -> store.write(List.of(new EncodedTile(new TileKey(new TileCache("radar", TMS,
                new DimensionValues(Map.of("TIME", "2026"))), TileCoord.of(1, 0, 0), TileFormat.PNG), bytes("x")))))
                .hasMessageContaining("holds caches of layers without dimensions");
        assertThat(store.read(new TileKey("world", TMS, TileCoord.of(1, 0, 0), TileFormat.PNG)))
                .hasValueSatisfying(b -> assertThat(b).isEqualTo(bytes("png")));
    }

    @Test
    void aSetWhoseZoomsCoverOtherExtentsOrWithoutWktIsNoPyramid() {
        assertThat(GeoPackageTileStore.notAPyramid(TMS)).isEmpty();
        assertThat(GeoPackageTileStore.notAPyramid(TileMatrixSet.byId("UTM32WGS84Quad").orElseThrow())).isEmpty();
        assertThat(GeoPackageTileStore.notAPyramid(TileMatrixSet.byId("CanadianNAD83_LCC").orElseThrow()))
                .hasValueSatisfying(why -> assertThat(why).contains("covers another extent than zoom 0"));
    }

    @Test
    void aGeoPackageAnotherToolWroteIsRefused() throws Exception {
        Path other = dir.resolve("other.gpkg");
        try (Connection sql = DriverManager.getConnection("jdbc:sqlite:" + other);
             Statement statement = sql.createStatement()) {
            statement.execute("CREATE TABLE gpkg_contents (table_name TEXT)");
        }
        assertThatThrownBy(() -> new GeoPackageTileStore(other)).hasMessageContaining("other.gpkg is a GeoPackage "
                + "another tool wrote");
    }

    /** A write refused half way is rolled back whole: the table it created, and its format, are gone. */
    @Test
    void aRefusedWriteCreatesNoTable() throws Exception {
        assertThatThrownBy(() -> store.write(List.of(tile("world", TMS, 1, 0, 0, "png"), new EncodedTile(new TileKey(
                new TileCache("radar", TMS, new DimensionValues(Map.of("TIME", "2026"))), TileCoord.of(1, 0, 0),
                TileFormat.PNG), bytes("x"))))).hasMessageContaining("holds caches of layers without dimensions");
        assertThat(query("SELECT count(*) FROM gpkg_contents")).containsExactly("0");

        store.write(List.of(new EncodedTile(new TileKey("world", TMS, TileCoord.of(1, 0, 0), TileFormat.JPEG),
                bytes("jpeg"))));

        assertThat(query("SELECT format FROM tileseeder_tables")).containsExactly("jpeg");
        assertThat(query("SELECT zoom_level FROM gpkg_tile_matrix")).as("the zoom's matrix row written again")
                .containsExactly("1");
    }

    @Test
    void whatIsWrittenIsThereWhenTheFileIsOpenedAgain() throws Exception {
        store.write(List.of(tile("world", TMS, 2, 1, 1, "kept")));
        store.close();

        store = new GeoPackageTileStore(file);

        assertThat(store.read(new TileKey("world", TMS, TileCoord.of(2, 1, 1), TileFormat.PNG)))
                .hasValueSatisfying(b -> assertThat(b).isEqualTo(bytes("kept")));
        assertThatThrownBy(() -> store.write(List.of(new EncodedTile(new TileKey("world", TMS, TileCoord.of(1, 0, 0),
                TileFormat.JPEG), bytes("x"))))).as("the table's format is remembered").hasMessageContaining("holds png");
    }

    private static EncodedTile tile(String layer, TileMatrixSet set, int z, int x, int y, String data) {
        return new EncodedTile(new TileKey(layer, set, TileCoord.of(z, x, y), TileFormat.PNG), bytes(data));
    }

}
