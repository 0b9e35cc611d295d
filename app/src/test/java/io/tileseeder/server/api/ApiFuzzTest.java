package io.tileseeder.server.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Thousands of hostile requests from a seeded generator, over real HTTP to the embedded app with a folder store:
 * malformed and mistyped jobs, huge numbers, unicode, content after the JSON, traversal paths for the tile endpoint,
 * overlong targets, headers and bodies (declared or chunked), other methods and media types. Whatever comes, the
 * server never answers 5xx, every 4xx (a target that is not a URI too) is problem+json whose title and detail name no
 * Java internals, and no file planted beside the store is ever served.
 *
 * <p>The seed is new on every run and printed with any failure; {@code -Dfuzz.seed=N} replays a run.
 */
@QuarkusTest
@TestProfile(FreshStoreProfile.class)
class ApiFuzzTest {

    private static final int REQUESTS = 3000;
    private static final String MARKER = "fuzz-planted-" + Long.toHexString(System.nanoTime());
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String[] METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "FOO"};
    private static final String[] CONTENT_TYPES = {"application/json", "application/json", "application/json",
            "text/plain", "application/xml", "application/json; charset=utf-16", "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x", "application/json;;;", "*/*", "", "json"};
    private static final String[] ACCEPTS = {"application/json", "*/*", "text/html", "text/csv", "application/xml",
            "application/problem+json", "image/png", "x/y;q=0", ";;;"};
    /** Values a job's fields may be given: other types, limits of each type, unicode, deep nesting. */
    private static final String[] VALUES = {"null", "true", "false", "0", "-1", "1", "25", "1.5", "-0", "1e3", "1e999",
            "-1e999", "2147483648", "-2147483649", "99999999999999999999999", "9".repeat(1500), "0.0000001", "\"\"",
            "\"world\"", "\"0\"", "\"1\"", "\"WebMercatorQuad\"", "\"png\"", "\"reseed\"", "\"truncate\"", "\"seed\"",
            "\"\\u0000\"", "\"\\ud800\"", "\"\u00e9\u4e16\u754c\ud83d\uddfa\ufe0f\u202e\"", "\"2026-01-01T00:00:00Z\"",
            "\"yesterday\"", "\"" + "x".repeat(20_000) + "\"", "[]", "{}", "[1,2,3,4]", "[-180,-90,180,90]",
            "[1,2,\"x\",4]", "{\"min\":0,\"max\":0}", "{\"min\":0,\"max\":99}", "{\"width\":0,\"height\":4}",
            "{\"a\":{\"b\":1}}", "{\"k\":\"v\"}", "NaN", "Infinity", "'single'", "0x10", "01", "+1", "[" .repeat(3000)
            + "]".repeat(3000)};
    private static final String[] FIELDS = {"layer", "tileMatrixSet", "zoom", "bbox", "format", "mode", "metatile",
            "refreshBefore", "priority", "labels", "zom", "", "\u00e9"};
    private static final String[] TRAILERS = {" {}", "]", "}", " x", " null", " 1", ",", "\u0000", " // c",
            "{\"a\":1}"};
    /** Path segments aimed at reaching outside the store, each in several spellings. */
    private static final String[] HOSTILE_SEGMENTS = {"..", "..%2F..", "..%2F..%2F..%2Fplanted", "..;", "..%00",
            "%2e%2e", "%252e%252e", "....%2F%2F", "..%5C..", "%c0%ae%c0%ae", "world%00", "world%2F..", "%2Fetc",
            "..%2F..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd", "%00", "%20", "%ff", "%", "world;x=1", ".", "%2e",
            "planted", "world%2F..%2F..%2Fplanted"};
    private static final String[] NUMBERS = {"0", "1", "2", "-1", "1.5", "1e3", "0x1", "99999999999999999999", "%201",
            "+1", "01", "", "a", "\u0661"};

    @TestHTTPResource("/")
    URI base;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void hostileRequestsNeverGetAServerErrorAndAlwaysAProblem() throws Exception {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        Random random = new Random(seed);
        String outside = plantFilesOutsideTheStore();
        Map<Integer, Integer> statuses = new LinkedHashMap<>();
        for (int i = 0; i < REQUESTS; i++) {
            Probe probe = switch (random.nextInt(10)) {
                case 0, 1, 2, 3 -> jobBody(random);
                case 4, 5, 6 -> tilePath(random, outside);
                default -> other(random);
            };
            RawHttp.Answer response = send(probe);
            String context = "seed " + seed + " (replay with -Dfuzz.seed=" + seed + "), request " + i + ": " + probe;
            check(response, context);
            statuses.merge(response.status(), 1, Integer::sum);
            if (response.status() == 202) {
                String id = JSON.readTree(response.body()).get("id").asText();
                send(new Probe("DELETE", "/api/v1/jobs/" + id, Map.of(), null));
            }
        }
        assertThat(statuses.keySet()).as("the statuses seen (seed %d): %s", seed, statuses)
                .contains(400, 404, 405, 415);
    }

    private static void check(RawHttp.Answer response, String context) throws IOException {
        int status = response.status();
        assertThat(status).as("status; %s; body %s", context, abbreviate(response.body())).isBetween(100, 499);
        assertThat(response.body()).as("a planted file was served; %s", context).doesNotContain(MARKER)
                .doesNotContain("root:x:0:0");
        if (status < 400) {
            return;
        }
        assertThat(response.headers().get("content-type")).as("Content-Type; %s", context).startsWith(Api.PROBLEM_JSON);
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.path("status").asInt()).as("status in the problem; %s", context).isEqualTo(status);
        for (String member : List.of("title", "detail")) {
            String text = problem.path(member).asText();
            assertThat(text).as("%s; %s", member, context).isNotBlank().doesNotContainPattern(Api.JAVA_NAMES);
        }
        for (JsonNode error : problem.path("errors")) {
            assertThat(error.path("reason").asText()).as("errors[].reason; %s", context)
                    .doesNotContainPattern(Api.JAVA_NAMES);
        }
    }

    /** A job's body, mutated: a field given another value, a field twice, cut short, content after it, bad bytes. */
    private static Probe jobBody(Random random) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("layer", "\"world\"");
        fields.put("tileMatrixSet", "\"WorldCRS84Quad\"");
        fields.put("format", "\"jpeg\"");
        fields.put("zoom", "{\"min\":0,\"max\":0}");
        fields.put("bbox", "[10,10,11,11]");
        int changes = 1 + random.nextInt(3);
        for (int c = 0; c < changes; c++) {
            String field = pick(random, FIELDS);
            if (random.nextInt(4) == 0) {
                fields.remove(field);
            } else {
                fields.put(field, pick(random, VALUES));
            }
        }
        StringBuilder json = new StringBuilder("{");
        fields.forEach((name, value) -> json.append(json.length() > 1 ? "," : "").append('"').append(name)
                .append("\":").append(value));
        if (random.nextInt(8) == 0) {
            json.append(",\"layer\":\"world\"");
        }
        json.append('}');
        byte[] body = json.toString().getBytes(StandardCharsets.UTF_8);
        switch (random.nextInt(8)) {
            case 0 -> body = new String(body, StandardCharsets.UTF_8).substring(0, random.nextInt(json.length()))
                    .getBytes(StandardCharsets.UTF_8);
            case 1 -> body = (json + pick(random, TRAILERS)).getBytes(StandardCharsets.UTF_8);
            case 2 -> body[random.nextInt(body.length)] = (byte) (0x80 + random.nextInt(0x80));
            default -> { }
        }
        if (random.nextInt(100) == 0) {
            // Under the body limit (4 MiB) or over it.
            body = ("{\"layer\":\"" + "w".repeat(random.nextBoolean() ? 1_100_000 : 4_500_000) + "\"}")
                    .getBytes(StandardCharsets.UTF_8);
        }
        Map<String, String> headers = new LinkedHashMap<>();
        String type = random.nextInt(4) == 0 ? pick(random, CONTENT_TYPES) : "application/json";
        if (!type.isEmpty()) {
            headers.put("Content-Type", type);
        }
        if (random.nextInt(5) == 0) {
            headers.put("Idempotency-Key", text(random, random.nextInt(300)).replaceAll("[^ -~]", "k").strip());
        }
        if (random.nextInt(6) == 0) {
            headers.put("Accept", pick(random, ACCEPTS));
        }
        if (random.nextInt(5) == 0) {
            headers.put("Transfer-Encoding", "chunked");
        }
        return new Probe(random.nextInt(10) == 0 ? pick(random, METHODS) : "POST", "/api/v1/jobs", headers, body);
    }

    /** A tile's path with hostile parts: traversal in each segment, numbers that are not, too few or many parts. */
    private static Probe tilePath(Random random, String outside) {
        List<String> segments = new ArrayList<>(List.of(
                random.nextBoolean() ? "world" : pick(random, HOSTILE_SEGMENTS),
                random.nextBoolean() ? pick(random, "WebMercatorQuad", "WorldCRS84Quad")
                        : pick(random, HOSTILE_SEGMENTS),
                random.nextBoolean() ? pick(random, "0", "1", "2") : pick(random, NUMBERS),
                random.nextBoolean() ? pick(random, "0", "1") : pick(random, NUMBERS),
                (random.nextBoolean() ? "0" : pick(random, NUMBERS)) + "."
                        + (random.nextBoolean() ? pick(random, "png", "jpg") : pick(random, HOSTILE_SEGMENTS))));
        switch (random.nextInt(8)) {
            case 0 -> segments.set(random.nextInt(segments.size()), pick(random, HOSTILE_SEGMENTS));
            case 1 -> segments.set(0, "%2F" + outside.substring(1).replace("/", "%2F"));
            case 2 -> segments.remove(random.nextInt(segments.size()));
            case 3 -> segments.add(random.nextInt(segments.size()), pick(random, HOSTILE_SEGMENTS));
            case 4 -> segments.set(random.nextInt(segments.size()), encoded(text(random, 1 + random.nextInt(40))));
            default -> { }
        }
        Map<String, String> headers = random.nextInt(6) == 0 ? Map.of("Accept", pick(random, ACCEPTS)) : Map.of();
        String method = random.nextInt(12) == 0 ? pick(random, METHODS) : "GET";
        return new Probe(method, "/tiles/" + String.join("/", segments), headers, null);
    }

    /** The other endpoints and the server's limits: bad ids, limits and timeouts, overlong targets and headers. */
    private static Probe other(Random random) {
        Map<String, String> headers = new LinkedHashMap<>();
        String path = switch (random.nextInt(7)) {
            case 0 -> "/api/v1/jobs?limit=" + pick(random, NUMBERS) + pick(random, "", "0", "000", "%00");
            case 1 -> "/api/v1/jobs/" + pick(random, HOSTILE_SEGMENTS);
            case 2 -> "/api/v1/jobs/" + encoded(text(random, 1 + random.nextInt(60))) + "/wait?timeout="
                    + pick(random, "1s", "-5s", "0", "PT0.1S", "99999999999h", "abc", "%00", "", "1e9s");
            case 3 -> "/api/v1/" + encoded(text(random, random.nextInt(30)));
            case 4 -> "/api/v1/jobs?limit=1&pad=" + "a".repeat(8000 + random.nextInt(2000));
            case 5 -> "/" + encoded(text(random, random.nextInt(50)));
            default -> "/api/v1/layers";
        };
        if (random.nextInt(4) == 0) {
            headers.put("X-Padding", "p".repeat(random.nextInt(20_000)));
        }
        if (random.nextInt(3) == 0) {
            headers.put("Accept", pick(random, ACCEPTS));
        }
        return new Probe(pick(random, METHODS), path, headers, null);
    }

    /**
     * Sends the probe as it is, over a socket of its own: an HTTP client library would refuse or repair the malformed
     * targets and headers this test is about.
     */
    private RawHttp.Answer send(Probe probe) throws IOException {
        StringBuilder head = new StringBuilder(RawHttp.head(base, probe.method(), probe.path()));
        probe.headers().forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        boolean chunked = probe.headers().containsKey("Transfer-Encoding");
        if (probe.body() != null && !chunked) {
            head.append("Content-Length: ").append(probe.body().length).append("\r\n");
        }
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
        request.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        if (probe.body() != null) {
            request.writeBytes(chunked ? RawHttp.chunked(probe.body()) : probe.body());
        }
        return RawHttp.exchange(base, request.toByteArray());
    }

    /** Files with the marker next to the store and above it, where traversal from a layer folder would lead. */
    private static String plantFilesOutsideTheStore() throws IOException {
        Path store = Path.of(FreshStoreProfile.STORE).toAbsolutePath();
        Files.createDirectories(store);
        Path planted = store.getParent().resolve("planted");
        for (String path : List.of("WebMercatorQuad/0/0/0.png", "WebMercatorQuad/0/0/0.jpg", "0.png")) {
            Path file = planted.resolve(path);
            Files.createDirectories(file.getParent());
            Files.writeString(file, MARKER);
        }
        Files.writeString(store.getParent().resolve("planted.png"), MARKER);
        return planted.toString();
    }

    /** Random text: letters, digits, punctuation and unicode (no dots or backticks, so no Java name can form). */
    private static String text(Random random, int length) {
        String alphabet = "abcXYZ019 -_~!$&'()*+,;=:@\"\\/<>{}[]|^%#?\u00e9\u00df\u4e16\u0000\u202e\u0661\ud83d\uddfa";
        StringBuilder text = new StringBuilder();
        while (text.length() < length) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }

    private static String encoded(String text) {
        return java.net.URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @SafeVarargs
    private static <T> T pick(Random random, T... choices) {
        return choices[random.nextInt(choices.length)];
    }

    private static String abbreviate(String text) {
        return text.length() <= 500 ? text : text.substring(0, 500) + "…";
    }

    record Probe(String method, String path, Map<String, String> headers, byte[] body) {
        @Override
        public String toString() {
            String shown = body == null ? "" : " body " + abbreviate(new String(body, StandardCharsets.UTF_8));
            return method + " " + abbreviate(path) + " headers " + headers.keySet() + shown;
        }
    }
}
