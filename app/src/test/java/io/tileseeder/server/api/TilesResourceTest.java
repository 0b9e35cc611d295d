package io.tileseeder.server.api;

import static io.restassured.RestAssured.given;
import static io.tileseeder.server.api.Api.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code GET /tiles/…} reads tiles and nothing else: every part of the path is checked against the layer catalogue
 * and the tile matrix set before the store is asked, and a file planted beside the store is never served.
 */
@QuarkusTest
@TestProfile(FreshStoreProfile.class)
class TilesResourceTest {

    /** Planted next to the store, where {@code ../planted/…} from a layer folder would lead. */
    static final String SECRET = "planted outside the store";

    @BeforeAll
    static void plantFilesOutsideTheStore() throws IOException {
        Path store = Path.of(FreshStoreProfile.STORE).toAbsolutePath();
        for (String path : new String[] {"planted/WebMercatorQuad/0/0/0.png", "WebMercatorQuad/0/0/0.png",
                "planted.png"}) {
            Path file = store.getParent().resolve(path);
            Files.createDirectories(file.getParent());
            Files.writeString(file, SECRET);
        }
    }

    static Stream<Arguments> hostilePaths() {
        String outside = Path.of(FreshStoreProfile.STORE).toAbsolutePath().getParent() + "/planted";
        return Stream.of(
                Arguments.of("..%2Fplanted/WebMercatorQuad/0/0/0.png", 404, "layer"),
                Arguments.of("..%2F..%2Fplanted/WebMercatorQuad/0/0/0.png", 404, "layer"),
                Arguments.of("%2F" + outside.substring(1).replace("/", "%2F") + "/WebMercatorQuad/0/0/0.png", 404,
                        "layer"),
                Arguments.of("../WebMercatorQuad/0/0/0.png", 404, null),
                Arguments.of("..;/WebMercatorQuad/0/0/0.png", 404, "layer"),
                Arguments.of("..%00/WebMercatorQuad/0/0/0.png", 404, "layer"),
                Arguments.of("%2e%2e/WebMercatorQuad/0/0/0.png", 404, null),
                Arguments.of("world/..%2F..%2F..%2Fplanted/0/0/0.png", 404, "tileMatrixSet"),
                Arguments.of("world/WebMercatorQuad/0/0/..%2F..%2F..%2F..%2Fplanted.png", 400, "y"),
                Arguments.of("world/WebMercatorQuad/0/0/0.png%00.png", 400, "y"),
                Arguments.of("world/WebMercatorQuad/0/0/0%2F..%2F..%2F..%2F..%2Fplanted.png", 400, "y"),
                Arguments.of("..;/..;/planted/WebMercatorQuad/0/0/0.png", 404, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostilePaths")
    void pathsLeadingOutOfTheStoreAreRefused(String path, int status, String field) {
        Response response = given().urlEncodingEnabled(false).when().get("/tiles/" + path).andReturn();
        assertThat(response.asString()).doesNotContain(SECRET);
        assertProblem(response, status, field);
    }

    @Test
    void unknownLayerTileMatrixSetAndFormatAreNamed() {
        assertThat(assertProblem(get("/tiles/roads/WebMercatorQuad/0/0/0.png"), 404, "layer")).contains("'roads'");
        assertThat(assertProblem(get("/tiles/world/GoogleMapsCompatible/0/0/0.png"), 404, "tileMatrixSet"))
                .contains("'GoogleMapsCompatible'");
        assertThat(assertProblem(get("/tiles/world/WebMercatorQuad/0/0/0.gif"), 404, "ext")).contains("'gif'");
    }

    @Test
    void coordinatesMustBeWholeNumbersInsideTheMatrix() {
        assertProblem(get("/tiles/world/WebMercatorQuad/a/0/0.png"), 400, "z");
        assertProblem(get("/tiles/world/WebMercatorQuad/0/-1/0.png"), 400, "x");
        assertProblem(get("/tiles/world/WebMercatorQuad/0/0/1e3.png"), 400, "y");
        assertThat(assertProblem(get("/tiles/world/WebMercatorQuad/99/0/0.png"), 404, "z")).contains("zoom 99");
        assertThat(assertProblem(get("/tiles/world/WebMercatorQuad/1/2/0.png"), 404, "x")).contains("0..1");
        assertThat(assertProblem(get("/tiles/world/WorldCRS84Quad/0/1/1.png"), 404, "y")).contains("0..0");
        assertProblem(get("/tiles/world/WebMercatorQuad/0/0/99999999999999999999999.png"), 404, "y");
    }

    @Test
    void aTileThatWasNotSeededIs404Problem() {
        assertThat(assertProblem(get("/tiles/world/WebMercatorQuad/7/3/3.png"), 404, null))
                .contains("world/WebMercatorQuad/7/3/3.png");
    }

    private static Response get(String path) {
        return given().urlEncodingEnabled(false).when().get(path).andReturn();
    }
}
