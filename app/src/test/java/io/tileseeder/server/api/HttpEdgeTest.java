package io.tileseeder.server.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The HTTP edge, spoken byte for byte: what a client can get wrong in the request line and the body is answered with
 * problem+json naming it, and what only breaks the exchange (a client that goes away, bad chunking) is neither a
 * server error nor an ERROR in the log.
 */
@QuarkusTest
@TestProfile(FreshStoreProfile.class)
class HttpEdgeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] JOB = "{\"layer\":\"world\",\"zoom\":{\"min\":0,\"max\":0}}"
            .getBytes(StandardCharsets.UTF_8);

    @TestHTTPResource("/")
    URI base;

    @ParameterizedTest
    @ValueSource(strings = {"/tiles/%uff0e%uff0e/WebMercatorQuad/0/0/0.png", "/api/v1/jobs/%zz", "/api/v1/jobs/%",
            "/api/v1/jobs?limit=%zz", "/q/swagger-ui/%zz", "/%"})
    void aTargetThatIsNotAUriIsAProblem400(String target) throws IOException {
        RawHttp.Answer answer = RawHttp.exchange(base, (RawHttp.head(base, "GET", target) + "\r\n")
                .getBytes(StandardCharsets.US_ASCII));

        assertThat(problem(answer, 400).path("detail").asText())
                .startsWith("the request's path and query are not a URI");
    }

    @Test
    void aChunkedBodyOverTheLimitIsAProblem413() throws IOException {
        byte[] body = ("{\"layer\":\"" + "w".repeat(4 * 1024 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8);

        RawHttp.Answer answer = RawHttp.exchange(base, request("POST", "/api/v1/jobs",
                "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n", RawHttp.chunked(body)));

        assertThat(problem(answer, 413).path("detail").asText()).contains("4194304");
        assertThat(answer.headers().get("connection")).isEqualTo("close");
    }

    /** A dry run, so that the test leaves no tile in the store the other tests of this profile share. */
    @Test
    void aChunkedJobWithinTheLimitIsRead() throws IOException {
        RawHttp.Answer answer = RawHttp.exchange(base, request("POST", "/api/v1/jobs?dryRun=true",
                "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n", RawHttp.chunked(JOB)));

        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(JSON.readTree(answer.body()).path("tiles").asLong()).as(answer.body()).isEqualTo(1);
    }

    /** Java's HTTP client speaks HTTP/2 (h2c) when the server agrees, as Quarkus does: its bodies are read too. */
    @Test
    void aJobPostedOverHttp2IsRead() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        HttpResponse<String> first = client.send(HttpRequest.newBuilder(base.resolve("/api/v1/layers")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(first.version()).as("the client upgraded to HTTP/2").isEqualTo(HttpClient.Version.HTTP_2);

        HttpResponse<String> answer = client.send(HttpRequest.newBuilder(base.resolve("/api/v1/jobs?dryRun=true"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(JOB)).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(answer.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Content-Length: 0\r\n", "Transfer-Encoding: chunked\r\n"})
    void anEmptyBodyIsAProblem400(String framing) throws IOException {
        byte[] empty = framing.startsWith("Transfer") ? RawHttp.chunked(new byte[0]) : new byte[0];

        RawHttp.Answer answer = RawHttp.exchange(base, request("POST", "/api/v1/jobs",
                "Content-Type: application/json\r\n" + framing, empty));

        assertThat(problem(answer, 400).path("detail").asText()).isEqualTo("body: a job is required");
    }

    /** The server's read timeout is 10 s: the answer comes then, not at the connection's idle timeout. */
    @Test
    void aBodyThatStopsArrivingIsAProblem408() throws IOException {
        try (Socket socket = RawHttp.connect(base)) {
            OutputStream out = socket.getOutputStream();
            out.write(request("POST", "/api/v1/jobs", "Content-Type: application/json\r\nContent-Length: 100\r\n",
                    "{\"layer\":".getBytes(StandardCharsets.US_ASCII)));
            out.flush();

            RawHttp.Answer answer = RawHttp.Answer.parse(socket.getInputStream().readAllBytes());

            assertThat(problem(answer, 408).path("detail").asText()).contains("after 9 bytes");
            assertThat(answer.headers().get("connection")).isEqualTo("close");
        }
    }

    /**
     * A request without a body is not watched for one: a long poll held longer than the read timeout (10 s) gets its
     * answer, not a 408. The job is far from any other test's tiles and is cancelled after.
     */
    @Test
    void aLongPollHeldPastTheReadTimeoutIsAnsweredAsUsual() throws IOException {
        String id = Api.submit("{\"layer\":\"world\",\"tileMatrixSet\":\"WorldCRS84Quad\",\"zoom\":{\"min\":12,"
                + "\"max\":14},\"bbox\":[100,10,104,14]}");
        try {
            RawHttp.Answer answer = RawHttp.exchange(base, (RawHttp.head(base, "GET", "/api/v1/jobs/" + id
                    + "/wait?timeout=12s") + "\r\n").getBytes(StandardCharsets.US_ASCII));

            assertThat(answer.status()).as(answer.body()).isEqualTo(200);
            assertThat(JSON.readTree(answer.body()).path("state").asText()).as("still at work after the 12 s poll")
                    .isIn("PLANNING", "RUNNING");
        } finally {
            RestAssured.given().when().delete(Api.JOBS + "/" + id).then().statusCode(200);
        }
    }

    @Test
    void clientsThatBreakOffTheirRequestAreNeitherServerErrorsNorLoggedAsErrors() throws Exception {
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        CountDownLatch notes = new CountDownLatch(3);
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
                if (HttpLimits.class.getName().equals(record.getLoggerName())) {
                    notes.countDown();
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger root = Logger.getLogger("");
        root.addHandler(capture);
        try {
            String json = "Content-Type: application/json\r\n";
            // A declared body cut short, then the connection closed.
            closeAfterSending(request("POST", "/api/v1/jobs", json + "Content-Length: 100\r\n",
                    "{\"layer\":".getBytes(StandardCharsets.US_ASCII)));
            // A chunk cut short, then the connection closed.
            closeAfterSending(request("POST", "/api/v1/jobs", json + "Transfer-Encoding: chunked\r\n",
                    "20\r\n{\"layer\":".getBytes(StandardCharsets.US_ASCII)));
            // A chunk size that is not hexadecimal: the server may answer 400 or just close the connection.
            byte[] badChunking = request("POST", "/api/v1/jobs", json + "Transfer-Encoding: chunked\r\n",
                    "zz\r\n{}\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            try (Socket socket = RawHttp.connect(base)) {
                socket.getOutputStream().write(badChunking);
                byte[] answer = socket.getInputStream().readAllBytes();
                if (answer.length > 0) {
                    problem(RawHttp.Answer.parse(answer), 400);
                }
            }

            assertThat(notes.await(30, TimeUnit.SECONDS)).as("the server's (DEBUG) notes of the three requests: %s",
                    describe(records)).isTrue();
            assertThat(records.stream().filter(record -> record.getLevel().intValue() >= Level.WARNING.intValue()))
                    .as("warnings and errors logged: %s", describe(records)).isEmpty();
        } finally {
            root.removeHandler(capture);
        }
    }

    private void closeAfterSending(byte[] request) throws IOException {
        try (Socket socket = RawHttp.connect(base)) {
            socket.getOutputStream().write(request);
            socket.getOutputStream().flush();
        }
    }

    private static String describe(List<LogRecord> records) {
        return records.stream().map(record -> record.getLevel() + " " + record.getLoggerName() + ": "
                + record.getMessage() + (record.getThrown() != null ? " " + record.getThrown() : "")).toList().toString();
    }

    private byte[] request(String method, String target, String headers, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes((RawHttp.head(base, method, target) + headers + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(body);
        return out.toByteArray();
    }

    private static JsonNode problem(RawHttp.Answer answer, int status) throws IOException {
        assertThat(answer.status()).as(answer.body()).isEqualTo(status);
        assertThat(answer.headers().get("content-type")).as(answer.body()).startsWith(Api.PROBLEM_JSON);
        JsonNode problem = JSON.readTree(answer.body());
        assertThat(problem.path("status").asInt()).isEqualTo(status);
        Api.assertInApiWords(problem.path("detail").asText());
        return problem;
    }
}
