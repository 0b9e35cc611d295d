package io.tileseeder.server.api;

import static io.restassured.RestAssured.given;
import static io.tileseeder.server.api.Api.JOBS;
import static io.tileseeder.server.api.Api.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

/**
 * The refusals made before a resource method runs — by Quarkus REST (no such path, method, media types) or by
 * Vert.x's limits (body, request line, headers) — are problem+json like the API's own, saying what was refused.
 */
@QuarkusTest
@TestProfile(FreshStoreProfile.class)
class HttpProblemsTest {

    @Test
    void unknownPathIs404() {
        assertThat(assertProblem(given().when().get("/api/v1/nothing-here").andReturn(), 404, null))
                .contains("/api/v1/nothing-here");
        assertProblem(given().when().get("/no/such/page").andReturn(), 404, null);
    }

    @Test
    void wrongMethodIs405() {
        assertThat(assertProblem(given().when().put(JOBS).andReturn(), 405, null)).contains("PUT").contains(JOBS);
    }

    @Test
    void unacceptableMediaTypeIs406() {
        assertThat(assertProblem(given().accept("text/csv").when().get(JOBS).andReturn(), 406, null))
                .contains("text/csv");
    }

    @Test
    void bodyOverTheLimitIs413() {
        String body = "{\"layer\": \"" + "w".repeat(4 * 1024 * 1024) + "\"}";
        assertThat(assertProblem(given().contentType(ContentType.JSON).body(body).when().post(JOBS).andReturn(), 413,
                null)).contains("4194304");
    }

    @Test
    void requestTargetOverTheLimitIs414() {
        assertThat(assertProblem(given().queryParam("limit", "1".repeat(HttpLimits.MAX_TARGET)).when().get(JOBS)
                .andReturn(), 414, null)).contains(String.valueOf(HttpLimits.MAX_TARGET));
    }

    @Test
    void wrongContentTypeIs415() {
        assertThat(assertProblem(given().contentType(ContentType.TEXT).body("layer=world").when().post(JOBS)
                .andReturn(), 415, null)).contains("text/plain");
    }

    @Test
    void headersOverTheLimitAre431() {
        assertThat(assertProblem(given().header("X-Padding", "p".repeat(HttpLimits.MAX_HEADERS)).when().get(JOBS)
                .andReturn(), 431, null)).contains(String.valueOf(HttpLimits.MAX_HEADERS));
    }
}
