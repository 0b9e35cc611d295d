package io.tileseeder.server.api;

import static io.restassured.RestAssured.given;
import static io.tileseeder.server.api.Api.JOBS;
import static io.tileseeder.server.api.Api.assertProblem;
import static io.tileseeder.server.api.Api.await;
import static io.tileseeder.server.api.Api.post;
import static io.tileseeder.server.api.Api.submit;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The jobs API end to end, on the embedded engine: submit, wait, inspect, list, cancel, idempotent retries, and
 * a 400 problem naming the field for every kind of bad input.
 *
 * <p>Tests do not depend on each other: each writes to its own (layer, tile matrix set, format) in a store that is
 * new on every run ({@link FreshStoreProfile}), and every job a test starts is finished or cancelled before it
 * ends, so the limit of running jobs is never reached.
 */
@QuarkusTest
@TestProfile(FreshStoreProfile.class)
class JobsResourceTest {

    /** Tiles of the whole world at zoom 0, 1 and 2 in WebMercatorQuad. */
    private static final long WORLD_Z0_2 = 1 + 4 + 16;
    /** A small valid job that touches none of the tiles the other tests look at (CRS84 jpeg, z0, one tile). */
    private static final String OTHER_JOB = """
            {"layer": "world", "tileMatrixSet": "WorldCRS84Quad", "format": "jpeg", "zoom": {"min": 0, "max": 0},
             "bbox": [10, 10, 11, 11]}""";

    // ---- lifecycle -------------------------------------------------------------------------------------------

    @Test
    void jobRunsToSuccessAndItsTilesAreServed() throws IOException {
        // The only test writing WebMercatorQuad png: the defaults for tileMatrixSet and format.
        String job = """
                {"layer": "world", "zoom": {"min": 0, "max": 2}}""";
        Response accepted = post(job);

        assertThat(accepted.statusCode()).as(accepted.asString()).isEqualTo(202);
        assertThat(accepted.contentType()).startsWith("application/json");
        JsonPath body = accepted.jsonPath();
        String id = body.getString("id");
        assertThat(id).isNotBlank();
        assertThat(accepted.header("Location")).as("Location").isNotNull().endsWith(JOBS + "/" + id);
        assertThat(body.getString("state")).isIn("PLANNING", "RUNNING");
        assertThat(body.getString("spec.layer")).isEqualTo("world");
        assertThat(body.getString("spec.tileMatrixSet")).isEqualTo("WebMercatorQuad");
        assertThat(body.getString("spec.format")).isEqualTo("png");
        assertThat(body.getString("spec.mode")).isEqualTo("seed");
        assertThat(body.getInt("spec.zoom.min")).isZero();
        assertThat(body.getInt("spec.zoom.max")).isEqualTo(2);
        assertThat(body.getInt("spec.metatile.width")).isEqualTo(4);
        assertThat(body.getInt("spec.metatile.height")).isEqualTo(4);
        assertThat(doubles(body.getList("spec.bbox"))).containsExactly(-180.0, -90.0, 180.0, 90.0);
        assertThat(body.getInt("spec.priority")).isZero();
        assertThat(body.getLong("progress.tilesPlanned")).isEqualTo(WORLD_Z0_2);
        assertThat(body.getString("created")).isNotBlank();

        // The Location header points at the job.
        Response atLocation = given().when().get(accepted.header("Location")).andReturn();
        assertThat(atLocation.statusCode()).isEqualTo(200);
        assertThat(atLocation.jsonPath().getString("id")).isEqualTo(id);

        JsonPath done = await(id).jsonPath();
        assertThat(done.getString("state")).as(done.prettify()).isEqualTo("SUCCEEDED");
        assertThat(done.getString("id")).isEqualTo(id);
        assertThat(done.getLong("progress.tilesPlanned")).isEqualTo(WORLD_Z0_2);
        assertThat(done.getLong("progress.tilesDone")).isEqualTo(WORLD_Z0_2);
        long written = done.getLong("progress.tilesWritten");
        long empty = done.getLong("progress.tilesEmpty");
        assertThat(written + empty).as("written + empty").isEqualTo(WORLD_Z0_2);
        assertThat(written).as("tiles with land on them").isPositive();
        assertThat(done.getLong("progress.tilesSkipped")).isZero();
        assertThat(done.getLong("progress.tilesFailed")).isZero();
        assertThat(done.getLong("progress.bytes")).isPositive();
        assertThat(done.getBoolean("progress.planningDone")).isTrue();
        assertThat(done.getLong("progress.tasksDone")).isEqualTo(done.getLong("progress.tasksPlanned")).isPositive();
        assertThat(done.getDouble("progress.percent")).isEqualTo(100.0);
        assertThat((Object) done.get("progress.etaSeconds")).isNull();
        assertThat(done.getList("failedTasks")).isEmpty();
        assertThat(done.getString("started")).isNotBlank();
        assertThat(done.getString("finished")).isNotBlank();

        // GET agrees with /wait.
        Response get = given().when().get(JOBS + "/" + id).andReturn();
        assertThat(get.statusCode()).isEqualTo(200);
        JsonPath got = get.jsonPath();
        assertThat(got.getString("state")).isEqualTo("SUCCEEDED");
        assertThat(got.getMap("progress")).isEqualTo(done.getMap("progress"));
        assertThat(got.getString("finished")).isEqualTo(done.getString("finished"));

        // The list has it.
        Response list = given().when().get(JOBS).andReturn();
        assertThat(list.statusCode()).isEqualTo(200);
        List<Map<String, Object>> jobs = list.jsonPath().getList("$");
        assertThat(jobs).filteredOn(j -> id.equals(j.get("id"))).singleElement()
                .satisfies(j -> assertThat(j.get("state")).isEqualTo("SUCCEEDED"));

        // A seeded tile is served.
        Response tile = given().when().get("/tiles/world/WebMercatorQuad/0/0/0.png").andReturn();
        assertThat(tile.statusCode()).isEqualTo(200);
        assertThat(tile.contentType()).isEqualTo("image/png");
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(tile.asByteArray()));
        assertThat(image).as("decodable PNG").isNotNull();
        assertThat(image.getWidth()).isEqualTo(256);
        assertThat(image.getHeight()).isEqualTo(256);
        // One that was not seeded is not.
        given().when().get("/tiles/world/WebMercatorQuad/5/0/0.png").then().statusCode(404);

        // The same job again finds its non-empty tiles already there.
        String again = submit(job);
        assertThat(again).isNotEqualTo(id);
        JsonPath second = await(again).jsonPath();
        assertThat(second.getString("state")).as(second.prettify()).isEqualTo("SUCCEEDED");
        assertThat(second.getLong("progress.tilesDone")).isEqualTo(WORLD_Z0_2);
        assertThat(second.getLong("progress.tilesSkipped")).as("skipped, already there").isEqualTo(written);
        assertThat(second.getLong("progress.tilesWritten")).isZero();
        assertThat(second.getLong("progress.tilesEmpty")).isEqualTo(empty);

        // Newest first.
        List<String> ids = given().when().get(JOBS).then().statusCode(200).extract().jsonPath().getList("id");
        assertThat(ids).containsSubsequence(again, id);
    }

    // ---- idempotency -----------------------------------------------------------------------------------------

    @Test
    void sameIdempotencyKeyReturnsTheSameJob() {
        String job = """
                {"layer": "world", "tileMatrixSet": "WorldCRS84Quad", "format": "jpeg", "zoom": {"min": 0, "max": 1}}""";
        String key = UUID.randomUUID().toString();

        Response first = given().contentType(ContentType.JSON).header("Idempotency-Key", key).body(job)
                .when().post(JOBS).andReturn();
        Response retry = given().contentType(ContentType.JSON).header("Idempotency-Key", key).body(job)
                .when().post(JOBS).andReturn();
        Response otherKey = given().contentType(ContentType.JSON).header("Idempotency-Key", key + "-other").body(job)
                .when().post(JOBS).andReturn();

        assertThat(first.statusCode()).as(first.asString()).isEqualTo(202);
        assertThat(retry.statusCode()).as(retry.asString()).isEqualTo(202);
        assertThat(otherKey.statusCode()).as(otherKey.asString()).isEqualTo(202);
        String id = first.jsonPath().getString("id");
        assertThat(retry.jsonPath().getString("id")).isEqualTo(id);
        assertThat(retry.header("Location")).isEqualTo(first.header("Location"));
        assertThat(otherKey.jsonPath().getString("id")).isNotEqualTo(id);

        assertThat(await(id).jsonPath().getString("state")).isEqualTo("SUCCEEDED");
        assertThat(await(otherKey.jsonPath().getString("id")).jsonPath().getString("state")).isEqualTo("SUCCEEDED");
        // Still the same job once it has finished.
        Response late = given().contentType(ContentType.JSON).header("Idempotency-Key", key).body(job)
                .when().post(JOBS).andReturn();
        assertThat(late.jsonPath().getString("id")).isEqualTo(id);
    }

    /** A key names one job: sent again with another job, it is refused rather than answered with the first. */
    @Test
    void idempotencyKeyWithAnotherJobIsRefusedWith422() {
        String key = UUID.randomUUID().toString();
        Response first = given().contentType(ContentType.JSON).header("Idempotency-Key", key).body(OTHER_JOB)
                .when().post(JOBS).andReturn();
        assertThat(first.statusCode()).as(first.asString()).isEqualTo(202);
        String id = first.jsonPath().getString("id");

        // The same job written differently (defaults spelt out, fields in another order) is the same job.
        Response sameJob = given().contentType(ContentType.JSON).header("Idempotency-Key", key).body("""
                {"bbox": [10, 10, 11, 11], "zoom": {"max": 0, "min": 0}, "format": "jpeg", "mode": "seed",
                 "tileMatrixSet": "WorldCRS84Quad", "layer": "world", "priority": 0}""").when().post(JOBS).andReturn();
        assertThat(sameJob.statusCode()).as(sameJob.asString()).isEqualTo(202);
        assertThat(sameJob.jsonPath().getString("id")).isEqualTo(id);

        Response otherJob = given().contentType(ContentType.JSON).header("Idempotency-Key", key).body("""
                {"layer": "world", "tileMatrixSet": "WorldCRS84Quad", "format": "jpeg", "zoom": {"min": 0, "max": 0},
                 "bbox": [10, 10, 12, 12]}""").when().post(JOBS).andReturn();
        String detail = assertProblem(otherJob, 422, "Idempotency-Key");
        assertThat(detail).contains(key).contains(id);
        assertThat(await(id).jsonPath().getString("state")).isEqualTo("SUCCEEDED");
    }

    /** The Location of a new job is a path: a client's Host header never makes it point elsewhere. */
    @Test
    void locationIsAPathWhateverTheHostHeader() {
        Response accepted = given().contentType(ContentType.JSON).header("Host", "evil.example").body(OTHER_JOB)
                .when().post(JOBS).andReturn();

        assertThat(accepted.statusCode()).as(accepted.asString()).isEqualTo(202);
        String id = accepted.jsonPath().getString("id");
        assertThat(accepted.header("Location")).isEqualTo(JOBS + "/" + id);
        await(id);
    }

    @Test
    void overlongIdempotencyKeyIsRefused() {
        assertProblem(given().contentType(ContentType.JSON).header("Idempotency-Key", "k".repeat(256))
                .body(OTHER_JOB).when().post(JOBS).andReturn(), 400, "Idempotency-Key");
    }

    /** An empty Idempotency-Key header counts as no key: each such submission is a new job. */
    @Test
    void emptyIdempotencyKeyCountsAsNone() {
        String first = given().contentType(ContentType.JSON).header("Idempotency-Key", "")
                .body(OTHER_JOB).when().post(JOBS).then().statusCode(202).extract().path("id");
        await(first);
        String second = given().contentType(ContentType.JSON).header("Idempotency-Key", "")
                .body(OTHER_JOB).when().post(JOBS).then().statusCode(202).extract().path("id");
        await(second);
        assertThat(second).isNotEqualTo(first);
    }

    // ---- cancel ----------------------------------------------------------------------------------------------

    @Test
    void cancelStopsARunningJobOnce() {
        // About 2.8 million tiles: far from done when cancelled. Its own matrix set and format (CRS84 png).
        String id = submit("""
                {"layer": "world", "tileMatrixSet": "WorldCRS84Quad", "format": "png", "zoom": {"min": 0, "max": 10}}""");

        Response cancelled = given().when().delete(JOBS + "/" + id).andReturn();
        assertThat(cancelled.statusCode()).as(cancelled.asString()).isEqualTo(200);
        assertThat(cancelled.jsonPath().getString("id")).isEqualTo(id);
        assertThat(cancelled.jsonPath().getString("state")).isEqualTo("CANCELLED");
        assertThat(cancelled.jsonPath().getString("finished")).isNotBlank();

        String detail = assertProblem(given().when().delete(JOBS + "/" + id).andReturn(), 409, null);
        assertThat(detail).contains(id).contains("CANCELLED");

        JsonPath waited = await(id).jsonPath();
        assertThat(waited.getString("state")).isEqualTo("CANCELLED");
        assertThat(waited.getLong("progress.tilesDone")).isLessThan(waited.getLong("progress.tilesPlanned"));
        assertThat(given().when().get(JOBS + "/" + id).then().statusCode(200).extract().jsonPath()
                .getString("state")).isEqualTo("CANCELLED");
    }

    // ---- bad input -------------------------------------------------------------------------------------------

    static Stream<Arguments> invalidJobs() {
        return Stream.of(
                Arguments.of("unknown layer", """
                        {"layer": "nowhere", "zoom": {"min": 0, "max": 1}}""", "layer"),
                Arguments.of("missing layer", """
                        {"zoom": {"min": 0, "max": 1}}""", "layer"),
                Arguments.of("unknown tile matrix set", """
                        {"layer": "world", "tileMatrixSet": "Mars", "zoom": {"min": 0, "max": 1}}""", "tileMatrixSet"),
                Arguments.of("unknown format", """
                        {"layer": "world", "format": "gif", "zoom": {"min": 0, "max": 1}}""", "format"),
                Arguments.of("unknown mode", """
                        {"layer": "world", "mode": "plant", "zoom": {"min": 0, "max": 1}}""", "mode"),
                Arguments.of("zoom.max above the layer's range", """
                        {"layer": "world", "zoom": {"min": 0, "max": 20}}""", "zoom.max"),
                Arguments.of("zoom.min below the layer's range", """
                        {"layer": "world", "zoom": {"min": -1, "max": 2}}""", "zoom.min"),
                Arguments.of("zoom.min greater than zoom.max", """
                        {"layer": "world", "zoom": {"min": 3, "max": 1}}""", "zoom"),
                Arguments.of("missing zoom", """
                        {"layer": "world"}""", "zoom"),
                Arguments.of("missing zoom.max", """
                        {"layer": "world", "zoom": {"min": 0}}""", "zoom.max"),
                Arguments.of("bbox longitude out of range", """
                        {"layer": "world", "zoom": {"min": 0, "max": 1}, "bbox": [-10, 40, 200, 50]}""", "bbox[2]"),
                Arguments.of("bbox latitude out of range", """
                        {"layer": "world", "zoom": {"min": 0, "max": 1}, "bbox": [-10, -95, 10, 50]}""", "bbox[1]"),
                Arguments.of("bbox inverted", """
                        {"layer": "world", "zoom": {"min": 0, "max": 1}, "bbox": [10, 40, -10, 50]}""", "bbox"),
                Arguments.of("bbox with three numbers", """
                        {"layer": "world", "zoom": {"min": 0, "max": 1}, "bbox": [-10, 40, 10]}""", "bbox"),
                Arguments.of("bad metatile", """
                        {"layer": "world", "zoom": {"min": 0, "max": 1}, "metatile": {"width": 0, "height": 4}}""",
                        "metatile"),
                Arguments.of("refreshBefore without reseed", """
                        {"layer": "world", "zoom": {"min": 0, "max": 1}, "refreshBefore": "2024-01-01T00:00:00Z"}""",
                        "refreshBefore"),
                Arguments.of("malformed JSON", """
                        {"layer": "world",""", "body"),
                Arguments.of("not JSON at all", "layer=world", "body"),
                Arguments.of("a coverage cut short", """
                        {"layer": "world", "zoom": {"min": 0, "max": 1}, "coverage": {"type": "Polygon",
                         "coordinates": [[[0,0],[10,0],""", "coverage"),
                Arguments.of("a coverage closed with the wrong bracket", """
                        {"layer": "world", "zoom": {"min": 0, "max": 1}, "coverage": {"type": "Polygon",
                         "coordinates": [[[0,0],[10,0]}}""", "coverage"),
                Arguments.of("wrong type", """
                        {"layer": "world", "zoom": {"min": "abc", "max": 1}}""", "zoom.min"),
                Arguments.of("wrong type in an array", """
                        {"layer": "world", "zoom": {"min": 0, "max": 1}, "bbox": [-10, "north", 10, 50]}""",
                        "bbox[1]"),
                Arguments.of("unknown field", """
                        {"layer": "world", "zom": {"min": 0, "max": 1}}""", "zom"),
                Arguments.of("trailing content", """
                        {"layer": "world", "zoom": {"min": 0, "max": 1}} {}""", "body"),
                Arguments.of("trailing garbage", """
                        {"layer": "world", "zoom": {"min": 0, "max": 1}}]""", "body"),
                Arguments.of("a field twice", """
                        {"layer": "world", "zoom": {"min": 0, "max": 1}, "layer": "other"}""", "body"),
                Arguments.of("a fraction for a whole number", """
                        {"layer": "world", "zoom": {"min": 0, "max": 1}, "priority": 1.5}""", "priority"),
                Arguments.of("a number as a string", """
                        {"layer": "world", "zoom": {"min": "0", "max": 1}}""", "zoom.min"),
                Arguments.of("a number for a label's value", """
                        {"layer": "world", "zoom": {"min": 0, "max": 1}, "labels": {"a": 1}}""", "labels.a"),
                Arguments.of("a number for a string", """
                        {"layer": 1, "zoom": {"min": 0, "max": 1}}""", "layer"),
                Arguments.of("a boolean for a string", """
                        {"layer": "world", "zoom": {"min": 0, "max": 1}, "format": true}""", "format"),
                Arguments.of("a boolean for a whole number", """
                        {"layer": "world", "zoom": {"min": 0, "max": 1}, "priority": true}""", "priority"),
                Arguments.of("a number for an instant", """
                        {"layer": "world", "zoom": {"min": 0, "max": 1}, "mode": "reseed",
                         "refreshBefore": 1767225600}""", "refreshBefore"),
                Arguments.of("a number out of range", """
                        {"layer": "world", "zoom": {"min": 0, "max": 99999999999}}""", "zoom.max"),
                Arguments.of("a number too long to read", """
                        {"layer": "world", "zoom": {"min": 0, "max": %s}}""".formatted("9".repeat(1200)), "zoom"),
                Arguments.of("not an instant", """
                        {"layer": "world", "zoom": {"min": 0, "max": 1}, "mode": "reseed", "refreshBefore": "soon"}""",
                        "refreshBefore"),
                Arguments.of("an array for the job", "[1, 2]", "body"),
                Arguments.of("an array for an object", """
                        {"layer": "world", "zoom": [0, 1]}""", "zoom"),
                Arguments.of("NaN", """
                        {"layer": "world", "zoom": {"min": 0, "max": 1}, "bbox": [1, 2, NaN, 4]}""", "bbox"),
                Arguments.of("empty body", "", "body"),
                Arguments.of("JSON null", "null", "body"));
    }

    /**
     * Jackson's own errors (malformed, wrong type, unknown field, content after the value) must be problem+json too,
     * naming the field in the API's words ({@link Api#assertProblem} refuses Java names).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidJobs")
    void invalidJobIsRefusedNamingTheField(String what, String json, String field) {
        assertProblem(post(json), 400, field);
    }

    /** README, "Jobs": labels are string pairs; {@code "labels": {"a": 1}} was stored as {@code "1"}. */
    @Test
    void aLabelValueThatIsNotAStringIsRefused() {
        Response refused = post("""
                {"layer": "world", "zoom": {"min": 0, "max": 1}, "labels": {"a": 1}}""");

        assertThat(assertProblem(refused, 400, "labels.a")).isEqualTo("labels.a: must be a string");
    }

    @Test
    void everyInvalidFieldIsNamedAtOnce() {
        Response response = post("""
                {"layer": "world", "format": "gif", "mode": "plant", "zoom": {"min": 3, "max": 20}}""");
        assertProblem(response, 400, "format");
        List<String> fields = response.jsonPath().getList("errors.field");
        assertThat(fields).contains("format", "mode", "zoom.max");
    }

    @Test
    void jobOverTheTileLimitIsRefusedWithItsCount() {
        // 4^0 + 4^1 + … + 4^14 = (4^15 - 1) / 3 tiles, over the default limit of 100 000 000.
        String detail = assertProblem(post("""
                {"layer": "world", "zoom": {"min": 0, "max": 14}}"""), 400, "zoom");
        assertThat(detail).contains("357913941").contains("100000000");
    }

    @Test
    void aDryRunAnswersTheTilesPerZoomAndAnEstimateWithoutSubmitting() {
        int before = given().when().get(JOBS + "?limit=1000").jsonPath().getList("id").size();

        Response answer = given().contentType(ContentType.JSON).body(OTHER_JOB.replace("\"max\": 0", "\"max\": 2"))
                .when().post(JOBS + "?dryRun=true").andReturn();

        assertThat(answer.statusCode()).as(answer.asString()).isEqualTo(200);
        JsonPath estimate = answer.jsonPath();
        assertThat(estimate.getString("spec.tileMatrixSet")).isEqualTo("WorldCRS84Quad");
        assertThat(estimate.getList("zooms.zoom", Integer.class)).containsExactly(0, 1, 2);
        assertThat(estimate.getList("zooms.tiles", Long.class)).containsExactly(1L, 1L, 1L);
        assertThat(estimate.getList("zooms.metatiles", Long.class)).containsExactly(1L, 1L, 1L);
        assertThat(estimate.getList("zooms.sampledMetatiles", Integer.class)).containsExactly(1, 1, 1);
        assertThat(estimate.getLong("tiles")).isEqualTo(3);
        assertThat(estimate.getLong("bytes")).as("a JPEG tile of land").isPositive();
        assertThat(given().when().get(JOBS + "?limit=1000").jsonPath().getList("id")).as("nothing submitted")
                .hasSize(before);
    }

    /** A bbox in EPSG:3035, northing first: the dry run plans the tiles that meet it and echoes it as given. */
    @Test
    void aDryRunOfABboxInTheSetsOwnCrsPlansItsTilesAndEchoesIt() {
        Response answer = given().contentType(ContentType.JSON).body("""
                {"layer": "world", "tileMatrixSet": "EuropeanETRS89_LAEAQuad", "zoom": {"min": 3, "max": 3},
                 "bbox": [2500000, 4000000, 3000000, 4500000], "bboxCrs": "urn:ogc:def:crs:EPSG::3035"}""")
                .when().post(JOBS + "?dryRun=true").andReturn();

        assertThat(answer.statusCode()).as(answer.asString()).isEqualTo(200);
        JsonPath estimate = answer.jsonPath();
        assertThat(estimate.getString("spec.bboxCrs")).isEqualTo("EPSG:3035");
        assertThat(estimate.getList("spec.bbox", Double.class)).containsExactly(2500000.0, 4000000.0, 3000000.0,
                4500000.0);
        // Northing 2,500,000..3,000,000, easting 4,000,000..4,500,000. Zoom 3: 562,500 m tiles from easting
        // 2,000,000 and northing 5,500,000: columns 3..4, rows 4..5.
        assertThat(estimate.getList("zooms.tiles", Long.class)).containsExactly(4L);
        assertThat(assertProblem(post("""
                {"layer": "world", "tileMatrixSet": "EuropeanETRS89_LAEAQuad", "zoom": {"min": 3, "max": 3},
                 "bbox": [2500000, 4000000, 3000000, 4500000], "bboxCrs": "EPSG:3857"}"""), 400, "bboxCrs"))
                .contains("neither CRS84 nor the CRS of EuropeanETRS89_LAEAQuad, EPSG:3035");
    }

    @Test
    void aDryRunChecksTheJobAndItsFlagAsASubmissionDoes() {
        String flag = assertProblem(given().contentType(ContentType.JSON).body(OTHER_JOB).when()
                .post(JOBS + "?dryRun=yes").andReturn(), 400, "dryRun");
        assertThat(flag).contains("must be true or false, got 'yes'");
        String zoom = assertProblem(given().contentType(ContentType.JSON).body("""
                {"layer": "world", "zoom": {"min": 0, "max": 40}}""").when().post(JOBS + "?dryRun=true").andReturn(),
                400, "zoom.max");
        assertThat(zoom).contains("40 is outside the zoom range");
    }

    /** A body that ends early is named by where it ends, in the API's words. */
    @Test
    void aBodyCutShortIsRefusedSayingWhereItEnds() {
        String detail = assertProblem(post("""
                {"layer": "world", "zoom": {"min": 0, "max": 1}, "coverage": {"type": "Polygon", "coordinates": [[[0,"""),
                400, "coverage");

        assertThat(detail).isEqualTo("coverage: the JSON ends early at line 1, column 102");
    }

    /** A zoom level too large for a number of the API is named with the zoom range, not with Java's range. */
    @Test
    void aZoomLevelTooLargeToReadIsRefusedNamingTheZoomRange() {
        String detail = assertProblem(post("""
                {"layer": "world", "zoom": {"min": 0, "max": 99999999999}}"""), 400, "zoom.max");

        assertThat(detail).isEqualTo("zoom.max: out of range: must be within the zoom range 0..24 (a layer's may "
                + "end sooner)").doesNotContain("2147483647");
    }

    @Test
    void unknownJobIsNotFound() {
        String id = UUID.randomUUID().toString();
        assertThat(assertProblem(given().when().get(JOBS + "/" + id).andReturn(), 404, null)).contains(id);
        assertThat(assertProblem(given().when().delete(JOBS + "/" + id).andReturn(), 404, null)).contains(id);
        assertThat(assertProblem(given().queryParam("timeout", "1s").when().get(JOBS + "/" + id + "/wait")
                .andReturn(), 404, null)).contains(id);
    }

    @Test
    void badWaitTimeoutIsRefused() {
        // Validated before the job is looked up, so any id will do.
        String wait = JOBS + "/" + UUID.randomUUID() + "/wait";
        assertProblem(given().queryParam("timeout", "abc").when().get(wait).andReturn(), 400, "timeout");
        assertProblem(given().queryParam("timeout", "16m").when().get(wait).andReturn(), 400, "timeout");
        assertProblem(given().queryParam("timeout", "PT1H").when().get(wait).andReturn(), 400, "timeout");
        assertProblem(given().queryParam("timeout", "-PT1S").when().get(wait).andReturn(), 400, "timeout");
    }

    /** The wait asked for and the limit are written as people write durations, not as ISO-8601's PT15M. */
    @Test
    void aWaitOverTheLimitIsRefusedInPlainDurations() {
        String wait = JOBS + "/" + UUID.randomUUID() + "/wait";

        assertThat(assertProblem(given().queryParam("timeout", "PT1H30M").when().get(wait).andReturn(), 400,
                "timeout")).isEqualTo("timeout: 1h30m is longer than the limit of 15m");
        assertThat(assertProblem(given().queryParam("timeout", "960s").when().get(wait).andReturn(), 400,
                "timeout")).isEqualTo("timeout: 16m is longer than the limit of 15m");
    }

    @Test
    void waitWithAShortTimeoutAnswersWithTheCurrentState() {
        // Its own matrix set and format (CRS84 jpeg, with the idempotency test's z0–1 left alone: z2–9).
        String id = submit("""
                {"layer": "world", "tileMatrixSet": "WorldCRS84Quad", "format": "jpeg", "zoom": {"min": 2, "max": 9}}""");
        try {
            Response response = given().queryParam("timeout", "0s").when().get(JOBS + "/" + id + "/wait").andReturn();
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.jsonPath().getString("id")).isEqualTo(id);
            assertThat(response.jsonPath().getString("state")).isIn("PLANNING", "RUNNING");
        } finally {
            given().when().delete(JOBS + "/" + id);
        }
        assertThat(await(id).jsonPath().getString("state")).isEqualTo("CANCELLED");
    }

    @Test
    void listLimitIsChecked() {
        assertProblem(given().queryParam("limit", 0).when().get(JOBS).andReturn(), 400, "limit");
        assertProblem(given().queryParam("limit", 1001).when().get(JOBS).andReturn(), 400, "limit");
        given().queryParam("limit", 1).when().get(JOBS).then().statusCode(200);
    }

    private static List<Double> doubles(List<?> numbers) {
        return numbers.stream().map(n -> ((Number) n).doubleValue()).toList();
    }
}
