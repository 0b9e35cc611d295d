package io.tileseeder.server.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Small helpers shared by the API tests. */
final class Api {

    static final String JOBS = "/api/v1/jobs";
    static final String PROBLEM_JSON = "application/problem+json";

    private Api() {
    }

    /** POSTs a job; returns the response whatever its status. */
    static Response post(String json) {
        return given().contentType(ContentType.JSON).body(json).when().post(JOBS).andReturn();
    }

    /** POSTs a job that must be accepted; returns its id. */
    static String submit(String json) {
        Response response = post(json);
        assertThat(response.statusCode()).as("POST %s -> %s", json, response.asString()).isEqualTo(202);
        String id = response.jsonPath().getString("id");
        assertThat(id).isNotBlank();
        return id;
    }

    /** Waits for a job to finish (at most 60 s) and returns it as /wait answers. */
    static Response await(String id) {
        Response response = given().queryParam("timeout", "60s").when().get(JOBS + "/" + id + "/wait").andReturn();
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(200);
        assertThat(response.jsonPath().getString("state")).as("job %s did not finish within 60 s: %s", id,
                response.asString()).isIn("SUCCEEDED", "FAILED", "CANCELLED");
        return response;
    }

    /**
     * What a Java name looks like in a message: a package-qualified name, an exception or error class, Jackson's
     * quoted types and settings and its rendering of a place ({@code [Source: REDACTED ...]}), a stack frame.
     */
    static final Pattern JAVA_NAMES = Pattern.compile("\\b(?:java|javax|jakarta|io\\.tileseeder|io\\.quarkus|io\\.vertx"
            + "|com\\.fasterxml|org\\.jboss)\\.\\w|\\b\\w+(?:Exception|Error)\\b|StreamReadConstraints|JsonToken|`"
            + "|\\bat [\\w.$]+\\(|REDACTED|\\[Source");

    /** Asserts that a message a client sees says nothing of the server's Java internals. */
    static void assertInApiWords(String message) {
        assertThat(message).as("a message in the API's words").isNotNull().doesNotContainPattern(JAVA_NAMES);
    }

    /**
     * Asserts that the response is an RFC 9457 problem with this status, and, when {@code field} is given, that
     * {@code errors[].field} names it. Returns the problem's detail.
     */
    static String assertProblem(Response response, int status, String field) {
        assertThat(response.statusCode()).as("status of %s", response.asString()).isEqualTo(status);
        assertThat(response.contentType()).as("Content-Type of %s", response.asString()).startsWith(PROBLEM_JSON);
        assertThat(response.jsonPath().getInt("status")).isEqualTo(status);
        assertThat(response.jsonPath().getString("title")).isNotBlank();
        assertThat(response.jsonPath().getString("detail")).isNotBlank();
        assertInApiWords(response.jsonPath().getString("title"));
        assertInApiWords(response.jsonPath().getString("detail"));
        if (field != null) {
            List<Map<String, Object>> errors = response.jsonPath().getList("errors");
            assertThat(errors).as("errors of %s", response.asString()).isNotEmpty();
            assertThat(errors).extracting(e -> e.get("field")).as("errors[].field of %s", response.asString())
                    .contains(field);
            assertThat(errors).allSatisfy(e -> assertThat((String) e.get("reason")).isNotBlank());
            errors.forEach(e -> assertInApiWords((String) e.get("reason")));
        }
        return response.jsonPath().getString("detail");
    }
}
