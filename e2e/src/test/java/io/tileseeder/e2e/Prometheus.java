package io.tileseeder.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The Prometheus dev/k8s-test deploys beside the release, through its HTTP API. */
final class Prometheus {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    Prometheus(String serviceIp) {
        this.base = "http://" + serviceIp + ":9090/api/v1/";
    }

    /** The names of the alerting rules it loaded. */
    List<String> alerts() throws IOException, InterruptedException {
        List<String> names = new ArrayList<>();
        for (JsonNode group : get("rules?type=alert").get("groups")) {
            group.get("rules").forEach(rule -> names.add(rule.get("name").asText()));
        }
        return names;
    }

    /** Each scraped target's pod and health ("up", "down", "unknown"). */
    Map<String, String> targets() throws IOException, InterruptedException {
        Map<String, String> health = new TreeMap<>();
        for (JsonNode target : get("targets?state=active").get("activeTargets")) {
            health.put(target.get("labels").path("pod").asText(), target.get("health").asText());
        }
        return health;
    }

    /** The series an instant query returns now. */
    int series(String query) throws IOException, InterruptedException {
        return get("query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8)).get("result").size();
    }

    /**
     * Every query of a Grafana dashboard, with its variables as a dashboard showing {@code namespace} would set
     * them: all jobs, and a 1-minute rate interval.
     */
    static List<String> dashboardQueries(Path dashboard, String namespace) throws IOException {
        List<String> queries = new ArrayList<>();
        JSON.readTree(Files.readString(dashboard)).findValues("expr").forEach(expr -> queries.add(expr.asText()
                .replace("$namespace", namespace).replace("$job_id", ".*").replace("$__rate_interval", "1m")));
        return queries;
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(15)).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode body = JSON.readTree(response.body());
        if (response.statusCode() != 200 || !"success".equals(body.path("status").asText())) {
            throw new IllegalStateException("Prometheus answered " + response.statusCode() + " to " + path + ": "
                    + response.body());
        }
        return body.get("data");
    }
}
