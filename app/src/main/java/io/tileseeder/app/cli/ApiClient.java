package io.tileseeder.app.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.tileseeder.job.JobRequest;
import io.tileseeder.server.api.JobView;
import io.tileseeder.server.dryrun.DryRun;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * The few calls of the jobs API the command line makes ({@code submit}, {@code wait}, {@code cancel}), over
 * {@link HttpClient}. Every failure is an {@link ApiException} whose message is one line for the user.
 */
final class ApiClient implements AutoCloseable {

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** How long a plain request (not a long-poll) may take to answer. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
    /** Added to a long-poll's own timeout before the client gives up on the answer. */
    static final Duration POLL_MARGIN = Duration.ofSeconds(30);
    /** How long a dry run may take: its sample renders on the server (a WMS layer's GetMaps included). */
    static final Duration DRY_RUN_TIMEOUT = Duration.ofMinutes(5);
    /** The environment variable holding the API token the commands send. */
    static final String TOKEN_VARIABLE = "SEEDER_TOKEN";

    private final String server;
    private final URI jobs;
    private final Optional<String> token;
    private final HttpClient http;
    private final ObjectMapper json = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);

    private ApiClient(String server, URI jobs, Optional<String> token) {
        this.server = server;
        this.jobs = jobs;
        this.token = token;
        this.http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NORMAL).build();
    }

    /**
     * A client of the server at this base URL ({@code http://host:8080}, maybe with a path prefix), sending
     * {@code token} as {@code Authorization: Bearer} unless it is null or blank.
     *
     * @throws IllegalArgumentException saying why the URL is not one
     */
    static ApiClient of(String server, String token) {
        String base = server.trim();
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        URI uri;
        try {
            uri = new URI(base + "/api/v1/jobs");
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("'" + server + "' is not a URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new IllegalArgumentException("'" + server + "' is not an http:// or https:// URL with a host");
        }
        if (uri.getQuery() != null || uri.getFragment() != null) {
            throw new IllegalArgumentException("'" + server + "' has a query or fragment; give the server's base URL");
        }
        return new ApiClient(base, uri, Optional.ofNullable(token).map(String::strip).filter(t -> !t.isEmpty()));
    }

    /** {@code POST /api/v1/jobs}: the accepted job. */
    JobView submit(JobRequest request, String idempotencyKey) throws ApiException, InterruptedException {
        HttpRequest.Builder post = post(jobs, request, REQUEST_TIMEOUT);
        if (idempotencyKey != null && !idempotencyKey.isEmpty()) {
            post.header("Idempotency-Key", idempotencyKey);
        }
        return job(send(authorized(post).build(), REQUEST_TIMEOUT));
    }

    /** {@code POST /api/v1/jobs?dryRun=true}: the job's estimate; nothing is submitted. */
    DryRun.Estimate dryRun(JobRequest request) throws ApiException, InterruptedException {
        HttpRequest.Builder post = post(URI.create(jobs + "?dryRun=true"), request, DRY_RUN_TIMEOUT);
        HttpResponse<String> response = ok(send(authorized(post).build(), DRY_RUN_TIMEOUT));
        try {
            DryRun.Estimate estimate = json.readValue(response.body(), DryRun.Estimate.class);
            if (estimate.spec() == null || estimate.zooms() == null) {
                throw new ApiException("unexpected answer from " + server + ": no estimate in "
                        + abbreviate(response.body()), response.statusCode());
            }
            return estimate;
        } catch (JsonProcessingException e) {
            throw new ApiException("unexpected answer from " + server + " (HTTP " + response.statusCode() + "): "
                    + abbreviate(response.body()), response.statusCode());
        }
    }

    private HttpRequest.Builder post(URI uri, JobRequest request, Duration timeout) {
        byte[] body;
        try {
            body = json.writeValueAsBytes(request);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the job as JSON", e);
        }
        return HttpRequest.newBuilder(uri).timeout(timeout).header("Content-Type", "application/json")
                .header("Accept", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body));
    }

    /** {@code GET /api/v1/jobs/{id}/wait}: the job when it is final, or as it is when {@code poll} runs out. */
    JobView await(String id, Duration poll) throws ApiException, InterruptedException {
        long millis = Math.max(1, poll.toMillis());
        URI uri = URI.create(jobUri(id) + "/wait?timeout=" + millis + "ms");
        Duration limit = Duration.ofMillis(millis).plus(POLL_MARGIN);
        HttpRequest.Builder get = HttpRequest.newBuilder(uri).timeout(limit).header("Accept", "application/json").GET();
        return job(send(authorized(get).build(), limit));
    }

    /**
     * {@code DELETE /api/v1/jobs/{id}}: the job as the server cancelled it; when it had finished already (the server
     * answers 409), the job as it finished ({@code GET /api/v1/jobs/{id}}).
     */
    Cancelled cancel(String id) throws ApiException, InterruptedException {
        HttpRequest.Builder delete = HttpRequest.newBuilder(jobUri(id)).timeout(REQUEST_TIMEOUT)
                .header("Accept", "application/json").DELETE();
        HttpResponse<String> response = send(authorized(delete).build(), REQUEST_TIMEOUT);
        if (response.statusCode() == 409) {
            HttpRequest.Builder get = HttpRequest.newBuilder(jobUri(id)).timeout(REQUEST_TIMEOUT)
                    .header("Accept", "application/json").GET();
            return new Cancelled(job(send(authorized(get).build(), REQUEST_TIMEOUT)), true);
        }
        return new Cancelled(job(response), false);
    }

    /** A job a cancel answered: as cancelled, or as it had finished before ({@code finishedBefore}). */
    record Cancelled(JobView job, boolean finishedBefore) {
    }

    private URI jobUri(String id) {
        return URI.create(jobs + "/" + URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20"));
    }

    /** The server's base URL as given. */
    String server() {
        return server;
    }

    private HttpRequest.Builder authorized(HttpRequest.Builder request) {
        token.ifPresent(t -> request.header("Authorization", "Bearer " + t));
        return request;
    }

    private HttpResponse<String> send(HttpRequest request, Duration limit) throws ApiException, InterruptedException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpConnectTimeoutException e) {
            throw new ApiException("cannot reach " + server + ": no connection within "
                    + CONNECT_TIMEOUT.toSeconds() + " s");
        } catch (HttpTimeoutException e) {
            throw new ApiException("no answer from " + server + " within " + limit.toSeconds() + " s");
        } catch (ConnectException e) {
            throw new ApiException("cannot reach " + server + ": " + reason(e, "connection refused"), noAnswer(e));
        } catch (IOException e) {
            throw new ApiException("request to " + server + " failed: " + reason(e, "the connection was lost"),
                    noAnswer(e));
        }
    }

    /** The job in a 2xx answer; any other answer is the server's refusal. */
    private JobView job(HttpResponse<String> response) throws ApiException {
        int status = ok(response).statusCode();
        try {
            JobView job = json.readValue(response.body(), JobView.class);
            if (job.id() == null || job.state() == null) {
                throw new ApiException("unexpected answer from " + server + ": no job in " + abbreviate(response.body()),
                        status);
            }
            return job;
        } catch (JsonProcessingException e) {
            throw new ApiException("unexpected answer from " + server + " (HTTP " + status + "): "
                    + abbreviate(response.body()), status);
        }
    }

    /** A 2xx answer as it is; any other answer is the server's refusal, thrown with what it said. */
    private HttpResponse<String> ok(HttpResponse<String> response) throws ApiException {
        int status = response.statusCode();
        if (status == 401) {
            throw new ApiException(refusal(response) + (token.isEmpty()
                    ? ": set " + TOKEN_VARIABLE + " to an API token of " + server
                    : ": " + TOKEN_VARIABLE + " is not an API token of " + server), status);
        }
        if (status == 403) {
            throw new ApiException(refusal(response) + ": set " + TOKEN_VARIABLE + " to a token with role write", status);
        }
        if (status / 100 != 2) {
            throw new ApiException(refusal(response), status);
        }
        return response;
    }

    /** The {@code detail} of a problem+json answer (or its {@code errors}), else the status and body. */
    private String refusal(HttpResponse<String> response) {
        String body = response.body() == null ? "" : response.body();
        try {
            JsonNode problem = json.readTree(body);
            if (problem != null && problem.isObject()) {
                String detail = problem.path("detail").asText("");
                if (!detail.isBlank()) {
                    return oneLine(detail);
                }
                JsonNode errors = problem.path("errors");
                if (errors.isArray() && !errors.isEmpty()) {
                    return StreamSupport.stream(errors.spliterator(), false)
                            .map(error -> error.path("field").asText("") + ": " + error.path("reason").asText(""))
                            .collect(Collectors.joining("; "));
                }
            }
        } catch (JsonProcessingException e) {
            // not JSON: reported as it is below
        }
        return "HTTP " + response.statusCode() + " from " + response.uri()
                + (body.isBlank() ? "" : ": " + abbreviate(body));
    }

    /**
     * The most telling message in an exception's causes (the JDK's HTTP client often leaves them empty), else
     * {@code fallback}; never a class name.
     */
    private static String reason(Throwable e, String fallback) {
        if (noAnswer(e) == ApiException.UNKNOWN_HOST) {
            return "unknown host";
        }
        String message = null;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (message == null && t.getMessage() != null && !t.getMessage().isBlank()) {
                message = t.getMessage();
            }
        }
        return oneLine(message != null ? message : fallback);
    }

    /** The status of a request that got no answer: none to expect from a host name that does not resolve. */
    private static int noAnswer(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.nio.channels.UnresolvedAddressException || t instanceof java.net.UnknownHostException) {
                return ApiException.UNKNOWN_HOST;
            }
        }
        return 0;
    }

    private static String abbreviate(String text) {
        String line = oneLine(text);
        return line.length() <= 200 ? line : line.substring(0, 200) + "…";
    }

    private static String oneLine(String text) {
        return text.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    @Override
    public void close() {
        http.close();
    }

    /** A request the server refused, or that did not reach it; the message is the one line to show. */
    static final class ApiException extends Exception {

        /** The status of a request to a host name that does not resolve. */
        static final int UNKNOWN_HOST = -1;

        private final int status;

        ApiException(String message) {
            this(message, 0);
        }

        ApiException(String message, int status) {
            super(message);
            this.status = status;
        }

        /** The HTTP status of the refusal; 0 when there was no answer, {@link #UNKNOWN_HOST} when the host name
         * does not resolve. */
        int status() {
            return status;
        }

        /**
         * Whether the server was unreachable (refused, timed out, the connection lost; not an unknown host) or said
         * it cannot serve now (502, 503, 504: restarting, or waiting for its own dependencies), so that asking again
         * later may succeed.
         */
        boolean unavailable() {
            return status == 0 || status == 502 || status == 503 || status == 504;
        }
    }
}
