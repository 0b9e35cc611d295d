package io.tileseeder.server.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The layers list, and the API's own description (OpenAPI and Swagger UI). */
@QuarkusTest
@TestProfile(FreshStoreProfile.class)
class LayersResourceTest {

    @Test
    @SuppressWarnings("unchecked")
    void listsTheBundledWorldLayer() {
        Response response = given().when().get("/api/v1/layers").andReturn();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.contentType()).startsWith("application/json");
        List<Map<String, Object>> layers = response.jsonPath().getList("$");
        assertThat(layers).extracting(l -> l.get("name")).contains("world");
        Map<String, Object> world = layers.stream().filter(l -> "world".equals(l.get("name"))).findFirst().orElseThrow();
        assertThat(world.get("title")).isEqualTo("World countries");
        assertThat((String) world.get("attribution")).contains("Natural Earth");
        assertThat(world.get("zoom")).isEqualTo(Map.of("min", 0, "max", 14));
        assertThat((List<String>) world.get("tileMatrixSets")).hasSize(67)
                .contains("WebMercatorQuad", "WorldCRS84Quad", "EuropeanETRS89_LAEAQuad", "UTM32WGS84Quad").isSorted();
        List<Map<String, Object>> details = (List<Map<String, Object>>) world.get("tileMatrixSetDetails");
        assertThat(details).extracting(d -> d.get("id")).isEqualTo(world.get("tileMatrixSets"));
        assertThat(details).filteredOn(d -> d.get("id").equals("EuropeanETRS89_LAEAQuad")).singleElement()
                .isEqualTo(Map.of("id", "EuropeanETRS89_LAEAQuad", "crs", "EPSG:3035",
                        "zoom", Map.of("min", 0, "max", 14), "quad", true));
        assertThat(details).filteredOn(d -> d.get("id").equals("WorldCRS84Quad")).singleElement()
                .extracting(d -> d.get("crs")).isEqualTo("OGC:CRS84");
        assertThat(world.get("formats"))
                .isEqualTo(List.of("jpeg", "jpeg-png", "png", "png8", "webp", "webp-lossless"));
        assertThat(world.get("metatile")).isEqualTo(Map.of("width", 4, "height", 4));
    }

    @Test
    void aLayersTileMatrixSetIsServedAsOgcJsonWithItsProj4Definition() {
        Response laea = given().when().get("/api/v1/layers/world/tile-matrix-sets/EuropeanETRS89_LAEAQuad")
                .andReturn();

        assertThat(laea.statusCode()).isEqualTo(200);
        assertThat(laea.jsonPath().getString("crs")).isEqualTo("http://www.opengis.net/def/crs/EPSG/0/3035");
        assertThat(laea.jsonPath().getList("orderedAxes")).containsExactly("N", "E");
        assertThat(laea.jsonPath().getList("tileMatrices")).hasSize(16);
        assertThat(laea.jsonPath().getList("tileMatrices[0].pointOfOrigin", Float.class))
                .containsExactly(5500000f, 2000000f);
        assertThat(laea.jsonPath().getString("proj4")).startsWith("+proj=laea").contains("+lat_0=52");

        Response unknown = given().when().get("/api/v1/layers/world/tile-matrix-sets/NoSuchSet").andReturn();
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.asString()).contains("layer 'world' has no tile matrix set 'NoSuchSet'");
    }

    @Test
    void openApiDocumentDescribesTheJobsApi() {
        Response yaml = given().when().get("/q/openapi").andReturn();
        assertThat(yaml.statusCode()).isEqualTo(200);
        assertThat(yaml.asString()).contains("/api/v1/jobs").contains("/api/v1/jobs/{id}/wait")
                .contains("/api/v1/layers").contains("Tile Seeder API");

        Response json = given().queryParam("format", "json").when().get("/q/openapi").andReturn();
        assertThat(json.statusCode()).isEqualTo(200);
        Map<String, Object> paths = json.jsonPath().getMap("paths");
        assertThat(paths).containsKeys("/api/v1/jobs", "/api/v1/jobs/{id}", "/api/v1/layers");
    }

    @Test
    void swaggerUiIsServed() {
        Response response = given().redirects().follow(true).when().get("/q/swagger-ui").andReturn();
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.contentType()).startsWith("text/html");
        assertThat(response.asString()).containsIgnoringCase("swagger");
    }
}
