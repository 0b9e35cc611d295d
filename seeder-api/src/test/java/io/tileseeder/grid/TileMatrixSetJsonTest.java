package io.tileseeder.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** OGC 17-083r4 JSON read into tile matrix sets, and each malformed or inconsistent set refused where it is wrong. */
class TileMatrixSetJsonTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String LAEA = """
            {"id": "Laea", "crs": "http://www.opengis.net/def/crs/EPSG/0/3035", "orderedAxes": ["Y", "X"],
             "boundingBox": {"lowerLeft": [1000000, 2000000], "upperRight": [5500000, 6500000]},
             "tileMatrices": [
              {"id": "0", "scaleDenominator": 62779017.857142866, "pointOfOrigin": [5500000, 2000000],
               "tileWidth": 256, "tileHeight": 256, "matrixWidth": 1, "matrixHeight": 1},
              {"id": "1", "cellSize": 8789.0625, "cornerOfOrigin": "bottomLeft", "pointOfOrigin": [1000000, 2000000],
               "tileWidth": 256, "tileHeight": 256, "matrixWidth": 2, "matrixHeight": 2}]}
            """;

    @Test
    void theSwissGridWithTileCloudChainsResolutionsIsANonQuadSet() throws IOException {
        TileMatrixSet swiss = TileMatrixSetJson.read(resource("tms/SwissLV95.json"), "SwissLV95.json");

        assertThat(swiss.id()).isEqualTo("SwissLV95");
        assertThat(swiss.crs()).isEqualTo("EPSG:2056");
        assertThat(swiss.referenceSystem().northingFirst()).isFalse();
        assertThat(swiss.matrices()).extracting(TileMatrix::cellSize)
                .containsExactly(1000.0, 500.0, 250.0, 100.0, 50.0, 20.0, 10.0, 5.0, 2.0, 1.0, 0.5);
        assertThat(swiss.matrix(0)).isEqualTo(new TileMatrix("0", 1000, 2420000, 1350000, 256, 256, 2, 2));
        assertThat(swiss.matrix(10)).isEqualTo(new TileMatrix("10", 0.5, 2420000, 1350000, 256, 256, 3750, 2500));
        // Bern (7.44° E, 46.95° N) is near LV95's 2,600,000 / 1,200,000: column 703, row 1171 at 0.5 m.
        TileRange bern = swiss.tileRange(new Bounds(7.4395, 46.9524, 7.4395, 46.9524), 10);
        assertThat(bern.minX()).isEqualTo((int) ((2600072 - 2420000) / 128.0));
        assertThat(bern.minY()).isEqualTo((int) ((1350000 - 1200147) / 128.0));
    }

    @Test
    void northingFirstPointsAreReadInTheCrssAxisOrderAndABottomLeftOriginIsMovedToTheTop() {
        TileMatrixSet laea = TileMatrixSetJson.read(LAEA, "laea.json");

        assertThat(laea.referenceSystem().northingFirst()).isTrue();
        assertThat(laea.matrix(0).left()).isEqualTo(2000000);
        assertThat(laea.matrix(0).top()).isEqualTo(5500000);
        assertThat(laea.matrix(0).cellSize()).isCloseTo(17578.125, within(1e-6));
        assertThat(laea.matrix(1).top()).isEqualTo(5500000);
        assertThat(laea.matrix(1).left()).isEqualTo(2000000);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
            "{|x.json: not JSON",
            "[]|x.json: not an OGC tile matrix set",
            "{\"crs\": \"EPSG:2056\"}|'id' must be a non-empty string",
            "{\"id\": \"s\", \"crs\": \"EPSG:999999\", \"orderedAxes\": [\"E\",\"N\"]}|tile matrix set s: crs EPSG:999999 is not a CRS",
            "{\"id\": \"s\", \"crs\": {\"wkt\": {}}}|tile matrix set s: a CRS given as WKT is not supported",
            "{\"id\": \"s\", \"crs\": \"EPSG:2056\"}|tile matrix set s: 'orderedAxes' must name the two axes",
            "{\"id\": \"s\", \"crs\": \"EPSG:2056\", \"orderedAxes\": [\"E\",\"E\"]}|'orderedAxes' [\"E\",\"E\"] is not an easting",
            "{\"id\": \"s\", \"crs\": \"EPSG:2056\", \"orderedAxes\": [\"E\",\"N\"]}|tile matrix set s: 'tileMatrices' must be a non-empty array",
    })
    void aMalformedSetIsRefusedNamingTheFileAndTheSet(String json, String message) {
        assertThatThrownBy(() -> TileMatrixSetJson.read(json, "x.json")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("x.json: ").hasMessageContaining(message);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
            "\"cellSize\": 100, \"variableMatrixWidths\": [{}]|matrix m: variableMatrixWidths are not supported",
            "\"cellSize\": 100, \"cornerOfOrigin\": \"center\"|matrix m: cornerOfOrigin 'center' is not one",
            "\"tileWidth\": 256|matrix m: needs a cellSize or a scaleDenominator",
            "\"cellSize\": 100, \"scaleDenominator\": 1000|matrix m: cellSize 100.0 and scaleDenominator 1000 disagree",
            "\"cellSize\": -1|matrix m: 'cellSize' must be a positive number",
            "\"cellSize\": 100, \"pointOfOrigin\": [1]|matrix m, pointOfOrigin: must be two numbers",
            "\"cellSize\": 100, \"matrixWidth\": 0|matrix m: 'matrixWidth' must be a positive integer",
            "\"cellSize\": 100, \"tileHeight\": 512|matrix m: tiles must be square",
            "\"cellSize\": 1|matrix m: its tiles cover",
    })
    void anInconsistentMatrixIsRefusedNamingTheSetAndTheMatrix(String override, String message) throws IOException {
        ObjectNode matrix = (ObjectNode) JSON.readTree("""
                {"id": "m", "pointOfOrigin": [2420000, 1350000], "tileWidth": 256, "tileHeight": 256,
                 "matrixWidth": 19, "matrixHeight": 13}""");
        matrix.setAll((ObjectNode) JSON.readTree("{" + override + "}"));
        ObjectNode set = (ObjectNode) JSON.readTree("""
                {"id": "s", "crs": "EPSG:2056", "orderedAxes": ["E", "N"],
                 "boundingBox": {"lowerLeft": [2420000, 1030000], "upperRight": [2900000, 1350000]}}""");
        set.putArray("tileMatrices").add(matrix);

        assertThatThrownBy(() -> TileMatrixSetJson.read(set.toString(), "x.json"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("x.json: tile matrix set s").hasMessageContaining(message);
    }

    @Test
    void decreasingScalesAreRequired() {
        String json = LAEA.replace("\"cellSize\": 8789.0625", "\"cellSize\": 17578.125");

        assertThatThrownBy(() -> TileMatrixSetJson.read(json, "laea.json"))
                .hasMessageContaining("laea.json: tile matrix set Laea, matrix 1: the cell size 17578.125 is not smaller");
    }

    @Test
    void aWrittenSetReadsBackTheSame() throws IOException {
        for (TileMatrixSet set : java.util.List.of(TileMatrixSetJson.read(resource("tms/SwissLV95.json"), "swiss"),
                TileMatrixSet.byId("EuropeanETRS89_LAEAQuad").orElseThrow(), TileMatrixSet.WORLD_CRS84_QUAD,
                TileMatrixSet.byId("UTM32WGS84Quad").orElseThrow())) {
            TileMatrixSet back = TileMatrixSetJson.read(TileMatrixSetJson.write(set).toString(), "written");

            assertThat(back.id()).isEqualTo(set.id());
            assertThat(back.referenceSystem()).isEqualTo(set.referenceSystem());
            assertThat(back.matrices()).as(set.id()).isEqualTo(set.matrices());
        }
        assertThat(TileMatrixSetJson.write(TileMatrixSet.byId("EuropeanETRS89_LAEAQuad").orElseThrow())
                .get("tileMatrices").get(0).get("pointOfOrigin").toString()).isEqualTo("[5500000.0,2000000.0]");
    }

    @Test
    void theProj4DefinitionIsProjs() {
        assertThat(Crs.of("EPSG:2056", false).proj4()).startsWith("+proj=somerc").contains("+lat_0=46.9524")
                .contains("+towgs84=");
        assertThat(Crs.CRS84.proj4()).contains("+proj=longlat");
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = TileMatrixSetJsonTest.class.getClassLoader().getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
