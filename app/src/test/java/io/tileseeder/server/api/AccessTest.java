package io.tileseeder.server.api;

import static io.restassured.RestAssured.given;
import static io.tileseeder.server.api.Api.JOBS;
import static io.tileseeder.server.api.Api.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.net.URL;
import org.junit.jupiter.api.Test;

/**
 * The API with a tokens file ({@link TokensProfile}): 401 without a token or with an unknown one, 403 for a read
 * token on what needs write, both as problem+json; the console, the OpenAPI document and the management
 * interface need none.
 */
@QuarkusTest
@TestProfile(TokensProfile.class)
class AccessTest {

    private static final String JOB = """
            {"layer": "world", "tileMatrixSet": "WorldCRS84Quad", "format": "jpeg", "zoom": {"min": 0, "max": 0}}""";

    /** Management URLs are relative to its root path, /q. */
    @TestHTTPResource(value = "/health/ready", management = true)
    URL health;

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    @Test
    void withoutATokenEveryApiCallIs401WithABearerChallenge() {
        for (Response response : new Response[] {
                given().when().get(JOBS).andReturn(),
                given().when().get("/api/v1/layers").andReturn(),
                given().when().get(JOBS + "/some-job/wait").andReturn(),
                given().when().get("/tiles/world/WebMercatorQuad/0/0/0.png").andReturn(),
                given().contentType(ContentType.JSON).body(JOB).when().post(JOBS).andReturn(),
                given().when().delete(JOBS + "/some-job").andReturn()}) {
            assertThat(assertProblem(response, 401, null)).isEqualTo("no bearer token");
            assertThat(response.header("WWW-Authenticate")).isEqualTo("Bearer");
        }
    }

    @Test
    void anotherSchemeCountsAsNoToken() {
        Response response = given().header("Authorization", "Basic Y2k6c2VjcmV0").when().get(JOBS).andReturn();

        assertThat(assertProblem(response, 401, null)).isEqualTo("no bearer token");
        assertThat(response.header("WWW-Authenticate")).isEqualTo("Bearer");
    }

    @Test
    void anUnknownTokenIs401() {
        Response response = as("not-a-token").when().get(JOBS).andReturn();

        assertThat(assertProblem(response, 401, null)).isEqualTo("unknown token");
        assertThat(response.header("WWW-Authenticate")).isEqualTo("Bearer");
        assertThat(response.asString()).doesNotContain("not-a-token");
    }

    @Test
    void aReadTokenReadsButMayNotSubmitOrCancel() {
        as(TokensProfile.READER).when().get(JOBS).then().statusCode(200);
        as(TokensProfile.READER).when().get("/api/v1/layers").then().statusCode(200);
        as(TokensProfile.READER).when().get(JOBS + "/no-such-job").then().statusCode(404);

        Response post = as(TokensProfile.READER).contentType(ContentType.JSON).body(JOB).when().post(JOBS).andReturn();
        assertThat(assertProblem(post, 403, null))
                .isEqualTo("token 'ci-reader' has role read; submitting and cancelling need write");
        Response delete = as(TokensProfile.READER).when().delete(JOBS + "/some-job").andReturn();
        assertThat(assertProblem(delete, 403, null)).startsWith("token 'ci-reader' has role read");
    }

    @Test
    void aWriteTokenSubmitsReadsAndCancels() {
        Response accepted = as(TokensProfile.WRITER).contentType(ContentType.JSON).body(JOB).when().post(JOBS)
                .andReturn();
        assertThat(accepted.statusCode()).as(accepted.asString()).isEqualTo(202);
        String id = accepted.jsonPath().getString("id");

        as(TokensProfile.WRITER).when().get(JOBS + "/" + id).then().statusCode(200);
        Response cancelled = as(TokensProfile.WRITER).when().delete(JOBS + "/" + id).andReturn();
        assertThat(cancelled.statusCode()).as(cancelled.asString()).isIn(200, 409);
        Response done = as(TokensProfile.READER).queryParam("timeout", "60s").when().get(JOBS + "/" + id + "/wait")
                .andReturn();
        assertThat(done.jsonPath().getString("state")).as(done.asString()).isIn("SUCCEEDED", "CANCELLED");
    }

    @Test
    void theConsoleAndTheApiDocumentNeedNoToken() {
        given().when().get("/").then().statusCode(200);
        given().when().get("/q/openapi").then().statusCode(200);
        given().header("Authorization", "Bearer not-a-token").when().get("/").then().statusCode(200);
    }

    @Test
    void theApiDocumentDeclaresTheBearerSchemeOnTheEndpointsThatNeedIt() {
        var document = given().when().get("/q/openapi?format=json").then().statusCode(200).extract().jsonPath();
        assertThat(document.getString("components.securitySchemes.bearer.type")).isEqualTo("http");
        assertThat(document.getString("components.securitySchemes.bearer.scheme")).isEqualTo("bearer");
        assertThat(document.getList("paths.'/api/v1/jobs'.post.security.bearer")).isNotNull();
        assertThat(document.getList("paths.'/api/v1/layers'.get.security.bearer")).isNotNull();
    }

    @Test
    void healthAndMetricsAreOnTheManagementInterfaceWithoutAToken() {
        given().when().get(health).then().statusCode(200);
        assertThat(given().when().get(metrics).then().statusCode(200).extract().asString())
                .contains("jvm_memory_used_bytes");
        given().when().get("/q/health/ready").then().statusCode(404);
        given().when().get("/q/metrics").then().statusCode(404);
    }

    private static RequestSpecification as(String token) {
        return given().header("Authorization", "Bearer " + token);
    }
}
