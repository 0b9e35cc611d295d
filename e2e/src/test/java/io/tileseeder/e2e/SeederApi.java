package io.tileseeder.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The coordinators' REST API through their Service, as a user reaches it. The coordinator may be restarting (a
 * deleted pod, a rolling upgrade): reads retry until their deadline through refused connections and 503s.
 */
final class SeederApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration POLL = Duration.ofMillis(500);
    /** How long a submission is tried: beyond a rolling upgrade of the coordinators. */
    private static final Duration SUBMIT_WAIT = Duration.ofMinutes(2);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;
    private final String token;

    SeederApi(String serviceIp, int port, String token) {
        this.base = URI.create("http://" + serviceIp + ":" + port + "/api/v1/");
        this.token = token;
    }

    /** Submits a reseed of the bundled world layer, zoom 0 to {@code maxZoom}; the job's id. */
    String submitWorld(int maxZoom, String label) throws InterruptedException {
        return submit("world", maxZoom, label);
    }

    /** Submits a reseed of {@code layer}, zoom levels 0 to {@code maxZoom}, labelled; its id. */
    String submit(String layer, int maxZoom, String label) throws InterruptedException {
        return submit(layer, 0, maxZoom, 0, label);
    }

    /**
     * Submits a reseed of {@code layer}, zoom levels {@code minZoom} to {@code maxZoom}, at {@code priority},
     * labelled; its id. Sent with an Idempotency-Key and tried again while the API cannot answer (a rolling upgrade,
     * a Service whose endpoints are still changing), so a retry after a lost answer returns the same job rather than
     * a second one.
     */
    String submit(String layer, int minZoom, int maxZoom, int priority, String label) throws InterruptedException {
        return submit(layer, "WebMercatorQuad", minZoom, maxZoom, priority, label);
    }

    /** Submits a reseed of {@code layer} in {@code tileMatrixSet}, as {@link #submit(String, int, int, int, String)}. */
    String submit(String layer, String tileMatrixSet, int minZoom, int maxZoom, int priority, String label)
            throws InterruptedException {
        String body = """
                {"layer": "%s", "tileMatrixSet": "%s", "zoom": {"min": %d, "max": %d}, "mode": "reseed",
                 "priority": %d, "labels": {"e2e": "%s"}}""".formatted(layer, tileMatrixSet, minZoom, maxZoom,
                priority, label);
        String key = UUID.randomUUID().toString();
        JsonNode job = answer("POST /api/v1/jobs", () -> request("jobs").POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").header("Idempotency-Key", key).build(), 202, SUBMIT_WAIT);
        return job.get("id").asText();
    }

    /** The coordinator's estimate of a reseed of {@code layer}, zoom 0 to {@code maxZoom} (a dry run). */
    JsonNode dryRun(String layer, int maxZoom) throws IOException, InterruptedException {
        String body = """
                {"layer": "%s", "zoom": {"min": 0, "max": %d}, "mode": "reseed"}""".formatted(layer, maxZoom);
        HttpResponse<String> response = http.send(request("jobs?dryRun=true")
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("POST /api/v1/jobs?dryRun=true answered " + response.statusCode() + ": "
                    + response.body());
        }
        return JSON.readTree(response.body());
    }

    /** The job as GET /api/v1/jobs/{id} shows it, retried while the API cannot answer, for at most {@code wait}. */
    JsonNode job(String id, Duration wait) throws InterruptedException {
        return answer("GET /api/v1/jobs/" + id, () -> request("jobs/" + id).GET().build(), 200, wait);
    }

    /**
     * The body of the answer {@code expected} to {@code request}, tried again through connections that fail or time
     * out and 503s for at most {@code wait}; any other status fails at once.
     */
    private JsonNode answer(String what, Supplier<HttpRequest> request, int expected, Duration wait)
            throws InterruptedException {
        Instant deadline = Instant.now().plus(wait);
        String last = "no answer";
        while (true) {
            try {
                HttpResponse<String> response = http.send(request.get(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == expected) {
                    return JSON.readTree(response.body());
                }
                last = response.statusCode() + " " + response.body();
                if (response.statusCode() != 503) {
                    throw new IllegalStateException(what + " answered " + last);
                }
            } catch (IOException e) {
                last = e.toString();
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException(what + ": no answer within " + wait + ": " + last);
            }
            Thread.sleep(POLL);
        }
    }

    /** Polls the job until {@code condition} holds; the job then. Fails after {@code wait}. */
    JsonNode awaitJob(String id, Predicate<JsonNode> condition, String what, Duration wait)
            throws InterruptedException {
        Instant deadline = Instant.now().plus(wait);
        while (true) {
            JsonNode job = job(id, Duration.between(Instant.now(), deadline).plusSeconds(1));
            if (condition.test(job)) {
                return job;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("job " + id + " did not reach '" + what + "' within " + wait + ": " + job);
            }
            if (isFinal(job)) {
                throw new AssertionError("job " + id + " ended before '" + what + "': " + job);
            }
            Thread.sleep(POLL);
        }
    }

    JsonNode awaitFinal(String id, Duration wait) throws InterruptedException {
        return awaitJob(id, SeederApi::isFinal, "an end", wait);
    }

    static boolean isFinal(JsonNode job) {
        return switch (job.get("state").asText()) {
            case "SUCCEEDED", "FAILED", "CANCELLED" -> true;
            default -> false;
        };
    }

    static long progress(JsonNode job, String field) {
        return job.get("progress").get(field).asLong();
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(15))
                .header("Authorization", "Bearer " + token);
    }
}
