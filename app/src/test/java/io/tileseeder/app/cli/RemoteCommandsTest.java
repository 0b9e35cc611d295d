package io.tileseeder.app.cli;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.tileseeder.server.Engines;
import io.tileseeder.server.access.Access;
import jakarta.inject.Inject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code seeder submit}, {@code wait} and {@code cancel} against the test profile's running server: each command is run
 * in-process (as {@link SeederMain} builds it) and talks to the server over HTTP as it would from another
 * machine. Covers every exit status: 0 succeeded, 1 refused or unknown, 2 failed, 3 cancelled, 4 timed out.
 *
 * <p>Every job a test starts is finished or cancelled before it ends, so the limit of running jobs is never
 * reached.
 */
@QuarkusTest
@TestProfile(RemoteCliProfile.class)
class RemoteCommandsTest {

    private static final String JOBS = "/api/v1/jobs";
    /** Far more than a second's work (about 22 million tiles), and within the limit of tiles per job. */
    private static final String BIG_ZOOM = "0-12";

    @TestHTTPResource("/")
    URL root;

    @Inject
    Engines engines;

    @Inject
    Access access;

    // ---- 0: succeeded --------------------------------------------------------------------------------------

    @Test
    void submitWithWaitPrintsTheIdAndExitsZeroWhenTheJobSucceeds() {
        Run run = run("submit", "--server", server(), "--layer", "world", "--zoom", "0-1", "--wait");

        assertThat(run.exit()).as(run.describe()).isZero();
        assertThat(run.outLines()).as("stdout is the job id alone: " + run.describe()).hasSize(1);
        String id = run.outLines().get(0);
        assertThat(run.errorLines()).as(run.describe()).isEmpty();
        assertThat(run.err()).as(run.describe()).contains("job " + id + " SUCCEEDED: 5 of 5 tiles");

        JsonPath job = given().when().get(JOBS + "/" + id).then().statusCode(200).extract().jsonPath();
        assertThat(job.getString("state")).isEqualTo("SUCCEEDED");
        assertThat(job.getString("spec.layer")).isEqualTo("world");
        assertThat(job.getInt("spec.zoom.min")).isZero();
        assertThat(job.getInt("spec.zoom.max")).isEqualTo(1);
        assertThat(job.getLong("progress.tilesPlanned")).isEqualTo(1 + 4);
    }

    @Test
    void aPackJobIsSubmittedWithItsArchiveAndNeedsNoZoom() throws Exception {
        Run seeded = run("submit", "--server", server(), "--layer", "world", "--zoom", "0-2", "--wait");
        assertThat(seeded.exit()).as(seeded.describe()).isZero();
        Path archive = Files.createTempDirectory("remote-pack").resolve("world.pmtiles");

        Run packed = run("submit", "--server", server(), "--layer", "world", "--mode", "pack", "--archive",
                archive.toString(), "--wait");

        assertThat(packed.exit()).as(packed.describe()).isZero();
        String id = packed.outLines().get(0);
        assertThat(packed.err()).as(packed.describe()).contains("job " + id + " SUCCEEDED: 1 of 1 tiles");
        assertThat(new String(Files.readAllBytes(archive), 0, 7)).isEqualTo("PMTiles");
        JsonPath job = given().when().get(JOBS + "/" + id).then().statusCode(200).extract().jsonPath();
        assertThat(job.getString("spec.mode")).isEqualTo("pack");
        assertThat(job.getString("spec.archive")).isEqualTo(archive.toString());

        Run noArchive = run("submit", "--server", server(), "--layer", "world", "--mode", "pack");
        assertThat(noArchive.exit()).as(noArchive.describe()).isEqualTo(1);
        assertThat(noArchive.errorLines()).as(noArchive.describe()).containsExactly("error: archive: is required "
                + "with mode pack: a path or a store URL (s3://, az://, gs://) ending in .pmtiles");
        Run noZoom = run("submit", "--server", server(), "--layer", "world");
        assertThat(noZoom.exit()).as(noZoom.describe()).isEqualTo(1);
        assertThat(noZoom.errorLines()).as(noZoom.describe())
                .containsExactly("error: Missing required option: '--zoom=MIN-MAX'");
    }

    @Test
    void aDryRunPrintsTheEstimateAndSubmitsNothing() {
        int jobs = engines.engine().jobs().list(1000).size();

        Run run = run("submit", "--server", server(), "--layer", "world", "--zoom", "0-3", "--dry-run");

        assertThat(run.exit()).as(run.describe()).isZero();
        assertThat(run.errorLines()).as(run.describe()).isEmpty();
        assertThat(run.outLines()).as(run.describe()).hasSize(8);
        assertThat(run.outLines().get(0)).isEqualTo("DRY RUN world z0-3 (WebMercatorQuad, png, seed): 85 tiles in 7 "
                + "metatiles");
        assertThat(run.outLines().get(5).split(" +")).as("zoom 3").startsWith("", "3", "64", "4", "4");
        assertThat(run.outLines().get(6).split(" +")).as("the totals").startsWith("", "total", "85", "7", "7");
        assertThat(run.outLines().get(7)).startsWith("estimate: ").contains("from 7 metatiles rendered");
        assertThat(engines.engine().jobs().list(1000)).as("nothing submitted").hasSize(jobs);
    }

    @Test
    void submitWithoutWaitReturnsAtOnceAndWaitGatesOnTheJob() {
        String key = "cli-" + UUID.randomUUID();
        String[] submit = {"submit", "--server", server() + "/", "--layer", "world", "--zoom", "0",
                "--tile-matrix-set", "WorldCRS84Quad", "--format", "jpeg", "--bbox", "-10,-10,10,10",
                "--label", "pipeline=nightly", "--priority", "3", "--idempotency-key", key};
        Run submitted = run(submit);

        assertThat(submitted.exit()).as(submitted.describe()).isZero();
        assertThat(submitted.outLines()).as(submitted.describe()).hasSize(1);
        assertThat(submitted.err()).as("nothing to say without --wait: " + submitted.describe()).isBlank();
        String id = submitted.outLines().get(0);

        JsonPath job = given().when().get(JOBS + "/" + id).then().statusCode(200).extract().jsonPath();
        assertThat(job.getString("spec.tileMatrixSet")).isEqualTo("WorldCRS84Quad");
        assertThat(job.getString("spec.format")).isEqualTo("jpeg");
        assertThat(job.getList("spec.bbox", Float.class)).containsExactly(-10f, -10f, 10f, 10f);
        assertThat(job.getString("spec.labels.pipeline")).isEqualTo("nightly");
        assertThat(job.getInt("spec.priority")).isEqualTo(3);

        Run retried = run(submit);
        assertThat(retried.exit()).as(retried.describe()).isZero();
        assertThat(retried.outLines()).as("the same key, the same job: " + retried.describe()).containsExactly(id);

        Run waited = run("wait", "--server", server(), "--timeout", "60s", id);
        assertThat(waited.exit()).as(waited.describe()).isZero();
        assertThat(waited.out()).as(waited.describe()).isEmpty();
        assertThat(waited.errorLines()).as(waited.describe()).isEmpty();
        assertThat(waited.err()).as(waited.describe()).contains("job " + id + " SUCCEEDED");
    }

    // ---- 1: refused, unknown, unreachable, bad usage -------------------------------------------------------

    @Test
    void aJobTheServerRefusesExitsOneWithItsReason() {
        Run run = run("submit", "--server", server(), "--layer", "world", "--zoom", "0-20", "--wait");

        assertThat(run.exit()).as(run.describe()).isEqualTo(1);
        assertThat(run.out()).as("no job, no id: " + run.describe()).isEmpty();
        assertThat(run.errLines()).as(run.describe()).hasSize(1);
        assertThat(run.errorLines()).as(run.describe())
                .containsExactly("error: zoom.max: 20 is outside the zoom range 0..14 of layer 'world'");
    }

    @Test
    void waitingOnAnUnknownJobExitsOne() {
        Run run = run("wait", "--server", server(), "no-such-job");

        assertThat(run.exit()).as(run.describe()).isEqualTo(1);
        assertThat(run.errLines()).as(run.describe()).containsExactly("error: no job no-such-job");
    }

    @Test
    void badUsageExitsOneWithTheReason() {
        Run noWait = run("submit", "--server", server(), "--layer", "world", "--zoom", "0", "--timeout", "1m");
        assertThat(noWait.exit()).as(noWait.describe()).isEqualTo(1);
        assertThat(noWait.errorLines()).as(noWait.describe())
                .containsExactly("error: --timeout applies only with --wait");

        Run badTimeout = run("wait", "--server", server(), "--timeout", "soon", "some-job");
        assertThat(badTimeout.exit()).as(badTimeout.describe()).isEqualTo(1);
        assertThat(badTimeout.errorLines()).as(badTimeout.describe()).singleElement().asString()
                .startsWith("error: --timeout: 'soon' is not a duration");

        Run badServer = run("wait", "--server", "ftp://example.org", "some-job");
        assertThat(badServer.exit()).as(badServer.describe()).isEqualTo(1);
        assertThat(badServer.errorLines()).as(badServer.describe())
                .containsExactly("error: --server: 'ftp://example.org' is not an http:// or https:// URL with a host");

        Run noId = run("wait", "--server", server());
        assertThat(noId.exit()).as(noId.describe()).isEqualTo(1);
        assertThat(noId.errorLines()).as(noId.describe()).singleElement().asString().contains("JOB_ID");

        Run dryRunWaiting = run("submit", "--server", server(), "--layer", "world", "--zoom", "0", "--dry-run",
                "--wait");
        assertThat(dryRunWaiting.exit()).as(dryRunWaiting.describe()).isEqualTo(1);
        assertThat(dryRunWaiting.errorLines()).as(dryRunWaiting.describe())
                .containsExactly("error: --dry-run submits nothing: it takes neither --wait nor --idempotency-key");

        Run badZoom = run("submit", "--server", server(), "--layer", "world", "--zoom", "low");
        assertThat(badZoom.exit()).as(badZoom.describe()).isEqualTo(1);
        assertThat(badZoom.errorLines()).as(badZoom.describe())
                .containsExactly("error: --zoom: 'low' is not a zoom range like 0-5 or 7");
    }

    // ---- 2: failed -----------------------------------------------------------------------------------------

    @Test
    void aJobThatFailsExitsTwoWithItsReason() {
        Run run = run("submit", "--server", server(), "--layer", RemoteCliProfile.BROKEN, "--zoom", "0-1", "--wait");

        assertThat(run.exit()).as(run.describe()).isEqualTo(2);
        assertThat(run.outLines()).as(run.describe()).hasSize(1);
        String id = run.outLines().get(0);
        assertThat(run.errorLines()).as(run.describe()).singleElement().asString()
                .startsWith("error: job " + id + " FAILED: ")
                .contains(RemoteCliProfile.MISSING_DATA);
        assertThat(run.err()).as(run.describe()).contains("job " + id + " FAILED: ");
    }

    // ---- 3: cancelled --------------------------------------------------------------------------------------

    @Test
    void waitingOnACancelledJobExitsThree() {
        Run submitted = run("submit", "--server", server(), "--layer", "world", "--zoom", BIG_ZOOM);
        assertThat(submitted.exit()).as(submitted.describe()).isZero();
        String id = submitted.outLines().get(0);

        given().when().delete(JOBS + "/" + id).then().statusCode(200);
        Run run = run("wait", "--server", server(), id);

        assertThat(run.exit()).as(run.describe()).isEqualTo(3);
        assertThat(run.errorLines()).as(run.describe()).singleElement().asString()
                .startsWith("error: job " + id + " CANCELLED");
    }

    @Test
    void cancelStopsARunningJobAndExitsZeroPrintingItsState() {
        Run submitted = run("submit", "--server", server(), "--layer", "world", "--zoom", BIG_ZOOM);
        assertThat(submitted.exit()).as(submitted.describe()).isZero();
        String id = submitted.outLines().get(0);

        Run cancelled = run("cancel", "--server", server(), id);

        assertThat(cancelled.exit()).as(cancelled.describe()).isZero();
        assertThat(cancelled.err()).as(cancelled.describe()).isBlank();
        assertThat(cancelled.outLines()).as(cancelled.describe()).singleElement().asString()
                .startsWith("job " + id + " CANCELLED: ").contains(" tiles (");
        Response done = given().queryParam("timeout", "60s").when().get(JOBS + "/" + id + "/wait").andReturn();
        assertThat(done.jsonPath().getString("state")).as(done.asString()).isEqualTo("CANCELLED");

        Run again = run("cancel", "--server", server(), id);

        assertThat(again.exit()).as("a job that has finished is not an error: " + again.describe()).isZero();
        assertThat(again.outLines()).as(again.describe()).singleElement().asString()
                .startsWith("job " + id + " had finished already: CANCELLED: ");
    }

    @Test
    void cancelOfAJobThatSucceededSaysSoAndExitsZero() {
        Run submitted = run("submit", "--server", server(), "--layer", "world", "--zoom", "0", "--wait");
        assertThat(submitted.exit()).as(submitted.describe()).isZero();
        String id = submitted.outLines().get(0);

        Run cancelled = run("cancel", "--server", server(), id);

        assertThat(cancelled.exit()).as(cancelled.describe()).isZero();
        assertThat(cancelled.outLines()).as(cancelled.describe()).singleElement().asString()
                .startsWith("job " + id + " had finished already: SUCCEEDED: 1 of 1 tiles (");
    }

    @Test
    void cancellingAnUnknownJobExitsOne() {
        Run run = run("cancel", "--server", server(), "no-such-job");

        assertThat(run.exit()).as(run.describe()).isEqualTo(1);
        assertThat(run.out()).as(run.describe()).isEmpty();
        assertThat(run.errLines()).as(run.describe()).containsExactly("error: no job no-such-job");
    }

    // ---- 4: timed out --------------------------------------------------------------------------------------

    @Test
    void aTimeoutExitsFourAndLeavesTheJobRunning() {
        Run run = run("submit", "--server", server(), "--layer", "world", "--zoom", BIG_ZOOM, "--wait",
                "--timeout", "1s");
        String id = run.outLines().isEmpty() ? null : run.outLines().get(0);
        try {
            assertThat(run.exit()).as(run.describe()).isEqualTo(4);
            assertThat(run.outLines()).as(run.describe()).hasSize(1);
            assertThat(run.errorLines()).as(run.describe()).singleElement().asString()
                    .matches("error: timed out after 1s; job " + id
                            + " is still (PLANNING|RUNNING) \\(\\d+\\.\\d%\\) on the server");
            assertThat(given().when().get(JOBS + "/" + id).then().statusCode(200).extract().jsonPath()
                    .getString("state")).as("not cancelled by the client").isIn("PLANNING", "RUNNING");

            Run waited = run("wait", "--server", server(), "--timeout", "500ms", id);
            assertThat(waited.exit()).as(waited.describe()).isEqualTo(4);
            assertThat(waited.errorLines()).as(waited.describe()).singleElement().asString()
                    .startsWith("error: timed out after 500ms; job " + id + " is still ");
        } finally {
            if (id != null) {
                cancelAndAwait(id);
            }
        }
    }

    // ---- helpers -------------------------------------------------------------------------------------------

    private String server() {
        String url = root.toString();
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    private static void cancelAndAwait(String id) {
        given().when().delete(JOBS + "/" + id).then().statusCode(200);
        Response done = given().queryParam("timeout", "60s").when().get(JOBS + "/" + id + "/wait").andReturn();
        assertThat(done.jsonPath().getString("state")).as(done.asString()).isEqualTo("CANCELLED");
    }

    private Run run(String... args) {
        return Run.of(SeederMain.commandLine(engines, null, access, Map.of()), args);
    }

    /** One run of the command line: its arguments, exit status and both streams. */
    record Run(String args, int exit, String out, String err) {

        /** Runs {@code cli} with these arguments, capturing both streams. */
        static Run of(CommandLine cli, String... args) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            cli.setOut(new PrintWriter(out, true));
            cli.setErr(new PrintWriter(err, true));
            int exit = cli.execute(args);
            return new Run(String.join(" ", args), exit, out.toString(), err.toString());
        }

        List<String> outLines() {
            return lines(out);
        }

        List<String> errLines() {
            return lines(err);
        }

        List<String> errorLines() {
            return errLines().stream().filter(line -> line.startsWith("error:")).toList();
        }

        String describe() {
            return "seeder " + args + "\nexit " + exit + "\n--- stdout ---\n" + out + "\n--- stderr ---\n" + err;
        }

        private static List<String> lines(String text) {
            return Arrays.stream(text.split("\\R")).filter(line -> !line.isBlank()).toList();
        }
    }
}
