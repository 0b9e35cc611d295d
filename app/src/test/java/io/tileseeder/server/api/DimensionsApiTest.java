package io.tileseeder.server.api;

import static io.restassured.RestAssured.given;
import static io.tileseeder.server.api.Api.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Dimension values over HTTP: a job's are checked with the field named; a tile's name its cache, never a path. */
@QuarkusTest
@TestProfile(DimensionsProfile.class)
class DimensionsApiTest {

    private static Response submit(String dimensions) {
        return given().contentType(ContentType.JSON).body("{\"layer\":\"radar\",\"zoom\":{\"min\":0,\"max\":1},"
                + "\"dimensions\":" + dimensions + "}").when().post("/api/v1/jobs").andReturn();
    }

    @Test
    void aJobsBadValuesAreRefusedNamingTheDimension() {
        assertThat(assertProblem(submit("{\"TIME\":\"2026-13-01\"}"), 400, "dimensions.TIME"))
                .contains("TIME 2026-13-01 is not an ISO 8601 instant");
        assertThat(assertProblem(submit("{\"TIME\":\"2026-11-27T00:00Z\"}"), 400, "dimensions.TIME"))
                .contains("is not within 2026-11-26T00:00:00Z/2026-11-26T23:55:00Z/PT5M");
        assertThat(assertProblem(submit("{\"ELEVATION\":\"10\"}"), 400, "dimensions.ELEVATION"))
                .contains("layer 'radar' has no dimension ELEVATION; its dimensions: TIME, FILTER");
        assertThat(assertProblem(submit("{\"TIME\":\"2026-11-26T00:00Z/2026-11-26T23:55Z/PT1M\"}"), 400,
                "dimensions.TIME")).as("minutes the layer does not allow").contains("is not within");
        assertThat(assertProblem(submit("{\"TIME\":true}"), 400, "dimensions.TIME")).contains("not boolean");
        assertThat(assertProblem(submit("[1]"), 400, null)).isNotBlank();
    }

    @Test
    void theLayersListNamesEachDimensionWithItsValuesAndDefault() {
        Response layers = given().when().get("/api/v1/layers").andReturn();
        assertThat(layers.statusCode()).isEqualTo(200);
        assertThat(layers.jsonPath().getList("find { it.name == 'radar' }.dimensions.name"))
                .containsExactly("TIME", "FILTER");
        assertThat(layers.jsonPath().getString("find { it.name == 'radar' }.dimensions[0].type")).isEqualTo("time");
        assertThat(layers.jsonPath().getList("find { it.name == 'radar' }.dimensions[0].values"))
                .containsExactly("2026-11-26T00:00:00Z/2026-11-26T23:55:00Z/PT5M");
        assertThat(layers.jsonPath().getString("find { it.name == 'radar' }.dimensions[0].default"))
                .isEqualTo("2026-11-26T12:00:00Z");
        assertThat(layers.jsonPath().getString("find { it.name == 'radar' }.dimensions[1].pattern")).isEqualTo(".*");
    }

    @Test
    void aTilesValuesAreCheckedAndNeverLeaveTheirFolder() throws Exception {
        Path store = Path.of(DimensionsProfile.STORE).toAbsolutePath();
        Path tile = store.resolve("radar/WebMercatorQuad/2026-11-26T12:05:00Z/all/0/0/0.png");
        Files.createDirectories(tile.getParent());
        Files.write(tile, new byte[] {(byte) 0x89, 'P', 'N', 'G'});
        Path planted = store.resolve("planted/0/0/0.png");
        Files.createDirectories(planted.getParent());
        Files.writeString(planted, TilesResourceTest.SECRET);

        Response found = given().urlEncodingEnabled(false).when().get("/tiles/radar/WebMercatorQuad/0/0/0.png?time=2026-11-26T13:05%2B01:00")
                .andReturn();
        assertThat(found.statusCode()).as(found.asString()).isEqualTo(200);
        assertThat(found.asByteArray()).hasSize(4);

        assertProblem(given().when().get("/tiles/radar/WebMercatorQuad/0/0/0.png").andReturn(), 404, null);
        assertThat(assertProblem(given().when().get("/tiles/radar/WebMercatorQuad/0/0/0.png?TIME=noon")
                .andReturn(), 400, "TIME")).contains("TIME noon is not an ISO 8601 instant");
        Response hostile = given().urlEncodingEnabled(false).when().get("/tiles/radar/WebMercatorQuad/0/0/0.png"
                + "?TIME=2026-11-26T12:05Z&FILTER=..%2F..%2F..%2Fplanted").andReturn();
        assertThat(hostile.asString()).doesNotContain(TilesResourceTest.SECRET);
        assertProblem(hostile, 404, null);
    }
}
