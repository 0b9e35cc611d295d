package io.tileseeder.app.distributed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.minio.GetObjectArgs;
import io.minio.ListObjectsArgs;
import io.minio.MinioClient;
import io.minio.RemoveObjectArgs;
import io.minio.Result;
import io.minio.StatObjectArgs;
import io.minio.messages.Item;
import io.tileseeder.adapters.FreePorts;
import io.tileseeder.adapters.kafka.KafkaClients;
import io.tileseeder.adapters.kafka.KafkaJobEventSink;
import io.tileseeder.app.testing.EventRecords;
import io.tileseeder.message.JobEvent;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;





/**
 * One distributed deployment for one test: coordinator and worker processes started from the built jar
 * ({@code target/quarkus-app/quarkus-run.jar}) against the real Kafka, Redis and MinIO of dev/services, with
 * topics, groups, Redis keys and bucket of its own so tests never see each other's tasks. The coordinator's API
 * takes a write token of the cluster's own tokens file, which the harness and the {@code seeder} commands it
 * starts ({@code SEEDER_TOKEN}) send.
 */
final class Cluster implements AutoCloseable {

    static final Path JAR = Path.of("target/quarkus-app/quarkus-run.jar");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    final String id = "it-" + UUID.randomUUID().toString().substring(0, 8);
    final String bucket = "seeder-" + id;
    final String eventsTopic = id + ".job-events";
    final String token = UUID.randomUUID().toString();
    private final String test;
    private final Map<String, String> env = new HashMap<>();
    private final List<SeederProcess> processes = new ArrayList<>();
    private SeederProcess coordinator;

    Cluster(String test) throws IOException {
        this.test = test;
        Path tokens = Files.createDirectories(Path.of("target/it-logs")).resolve(test + "-" + id + "-tokens");
        Files.writeString(tokens, "it write " + token + "\n");
        env.put("SEEDER_AUTH_TOKENS_FILE", tokens.toString());
        env.put("SEEDER_TOKEN", token);
        env.put("SEEDER_MODE", "distributed");
        env.put("SEEDER_KAFKA_BOOTSTRAP", required("SEEDER_KAFKA_BOOTSTRAP"));
        env.put("SEEDER_KAFKA_TASKS_TOPIC", id + ".tasks");
        env.put("SEEDER_KAFKA_RESULTS_TOPIC", id + ".task-results");
        env.put("SEEDER_KAFKA_EVENTS_TOPIC", eventsTopic);
        env.put("SEEDER_KAFKA_EXPIRY_TOPIC", id + ".tile-expiry");
        env.put("SEEDER_KAFKA_PARTITIONS", "4");
        env.put("SEEDER_KAFKA_WORKER_GROUP", id + "-workers");
        env.put("SEEDER_KAFKA_COORDINATOR_GROUP", id + "-coordinator");
        env.put("SEEDER_REDIS_URL", required("SEEDER_REDIS_URL"));
        env.put("SEEDER_REDIS_KEY_PREFIX", id + ":");
        env.put("SEEDER_S3_ENDPOINT", required("SEEDER_S3_ENDPOINT"));
        env.put("SEEDER_S3_ACCESS_KEY", required("SEEDER_S3_ACCESS_KEY"));
        env.put("SEEDER_S3_SECRET_KEY", required("SEEDER_S3_SECRET_KEY"));
        env.put("SEEDER_STORE_PATH", "s3://" + bucket + "/tiles");
        env.put("SEEDER_WORKERS_THREADS", "2");
        env.put("SEEDER_KAFKA_CONSUMERS", "4");
    }

    static String required(String name) {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(name + " is not set: run the tests with dev/test (it starts the services)");
        }
        return value;
    }

    /** Sets an environment variable of the processes started from now on. */
    Cluster set(String name, String value) {
        env.put(name, value);
        return this;
    }

    /**
     * Starts a coordinator and waits for its own start line, printed once its engine runs: Quarkus's "Management
     * interface listening on" comes earlier, while the API still answers 503.
     */
    SeederProcess startCoordinator() throws IOException, InterruptedException {
        return awaitCoordinator(start("coordinator", "serve"));
    }

    /**
     * Starts a coordinator in place of the last one, at its address (as behind a Kubernetes Service), and waits for
     * it as {@link #startCoordinator} does.
     */
    SeederProcess restartCoordinator() throws IOException, InterruptedException {
        return awaitCoordinator(start("coordinator", "serve", coordinator.port, coordinator.managementPort));
    }

    private SeederProcess awaitCoordinator(SeederProcess started) throws InterruptedException {
        coordinator = started.awaitOutput("Tile Seeder coordinator listening on", Duration.ofSeconds(90));
        return coordinator;
    }

    SeederProcess startWorker(String name) throws IOException, InterruptedException {
        return awaitWorker(start(name, "worker"));
    }

    private static SeederProcess awaitWorker(SeederProcess started) throws InterruptedException {
        return started.awaitOutput("worker running", Duration.ofSeconds(90));
    }

    /** A coordinator and its workers, as {@link #startCoordinatorAndWorkers} started them. */
    record Started(SeederProcess coordinator, List<SeederProcess> workers) {
    }

    /**
     * Starts a coordinator and the named workers at once and waits for each as {@link #startCoordinator} and
     * {@link #startWorker} do: their start-ups overlap (a worker needs no coordinator to start).
     */
    Started startCoordinatorAndWorkers(String... workers) throws IOException, InterruptedException {
        SeederProcess starting = start("coordinator", "serve");
        List<SeederProcess> startingWorkers = new ArrayList<>();
        for (String name : workers) {
            startingWorkers.add(start(name, "worker"));
        }
        SeederProcess started = awaitCoordinator(starting);
        for (SeederProcess worker : startingWorkers) {
            awaitWorker(worker);
        }
        return new Started(started, List.copyOf(startingWorkers));
    }

    /**
     * Starts {@code seeder COMMAND}, as the seeder script would: {@code serve} with its API and management
     * interface on free ports, {@code worker} with its management interface on one; does not wait for it.
     */
    SeederProcess start(String name, String command, String... args) throws IOException {
        return start(name, command, FreePorts.next(), FreePorts.next(), args);
    }

    private SeederProcess start(String name, String command, int port, int managementPort, String... args)
            throws IOException {
        Path log = Files.createDirectories(Path.of("target/it-logs")).resolve(test + "-" + id + "-" + name + ".log");
        List<String> line = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-Djava.awt.headless=true", "-jar", JAR.toString(), command));
        line.addAll(List.of(args));
        Map<String, String> http = new HashMap<>();
        if (command.equals("serve")) {
            line.addAll(List.of("--port", Integer.toString(port), "--management-port", Integer.toString(managementPort)));
            http.putAll(Map.of("QUARKUS_HTTP_HOST_ENABLED", "true", "QUARKUS_HTTP_HOST", "127.0.0.1",
                    "QUARKUS_HTTP_PORT", Integer.toString(port)));
        }
        if (command.equals("worker")) {
            line.addAll(List.of("--port", Integer.toString(managementPort)));
        }
        if (command.equals("serve") || command.equals("worker")) {
            http.putAll(Map.of("QUARKUS_MANAGEMENT_HOST_ENABLED", "true", "QUARKUS_MANAGEMENT_HOST", "127.0.0.1",
                    "QUARKUS_MANAGEMENT_PORT", Integer.toString(managementPort)));
        }
        ProcessBuilder builder = new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(env);
        builder.environment().putAll(http);
        SeederProcess process = new SeederProcess(name, port, managementPort, log, builder.start());
        processes.add(process);
        return process;
    }

    String api() {
        return "http://127.0.0.1:" + coordinator.port;
    }

    /** Submits a job of the world layer; its id. */
    String submit(int minZoom, int maxZoom) throws IOException, InterruptedException {
        return submit("{\"layer\":\"world\",\"zoom\":{\"min\":" + minZoom + ",\"max\":" + maxZoom + "}}");
    }

    /** Cancels the job; its status then. */
    JsonNode cancel(String job) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(api() + "/api/v1/jobs/" + job))
                .header("Authorization", "Bearer " + token).DELETE().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new AssertionError("cancel answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    String submit(String body) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(api() + "/api/v1/jobs"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 202) {
            throw new AssertionError("submit answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body()).get("id").asText();
    }

    /** The jobs the API lists, newest first. */
    JsonNode jobs() throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(api() + "/api/v1/jobs"))
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new AssertionError("the job list answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    /** Publishes tile-expiry events, as a data pipeline would, and waits until Kafka has them. */
    void publishExpiry(String... events) {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(KafkaClients.durableProducer(
                env.get("SEEDER_KAFKA_BOOTSTRAP"), Map.of(), Duration.ofSeconds(30)), new StringSerializer(),
                new ByteArraySerializer())) {
            for (String event : events) {
                producer.send(new ProducerRecord<>(env.get("SEEDER_KAFKA_EXPIRY_TOPIC"), "world",
                        event.getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }

    JsonNode status(String job) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(api() + "/api/v1/jobs/" + job))
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new AssertionError("status answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    /** The job's status, or empty while the API cannot answer it (503 while Redis is down, or no connection). */
    Optional<JsonNode> statusIfAnswered(String job) throws InterruptedException {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(api() + "/api/v1/jobs/" + job))
                    .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? Optional.of(JSON.readTree(response.body())) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Polls the job's status until {@code condition} holds; the status then. */
    JsonNode awaitStatus(String job, Predicate<JsonNode> condition, Duration timeout)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode status = status(job);
            if (condition.test(status)) {
                return status;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("job " + job + " did not reach the condition within " + timeout + ": "
                        + status + logs());
            }
            Thread.sleep(200);
        }
    }

    /** What the API answers a request for the job's status without a token. */
    HttpResponse<String> statusWithoutToken(String job) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(api() + "/api/v1/jobs/" + job)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    JsonNode awaitFinal(String job, Duration timeout) throws IOException, InterruptedException {
        return awaitStatus(job, s -> List.of("SUCCEEDED", "FAILED", "CANCELLED").contains(s.get("state").asText()),
                timeout);
    }

    /** The output of every process, for a failure message. */
    String logs() {
        StringBuilder all = new StringBuilder();
        for (SeederProcess process : processes) {
            String out = process.output();
            all.append("\n---- ").append(process.name).append(" ----\n")
                    .append(out, Math.max(0, out.length() - 6000), out.length());
        }
        return all.toString();
    }

    /** Every object under the store's prefix, by its path below it, with its LastModified. */
    Map<String, Instant> objects() throws Exception {
        Map<String, Instant> objects = new HashMap<>();
        for (Result<Item> result : minio().listObjects(ListObjectsArgs.builder().bucket(bucket).prefix("tiles/")
                .recursive(true).build())) {
            Item item = result.get();
            objects.put(item.objectName().substring("tiles/".length()), item.lastModified().toInstant());
        }
        return objects;
    }

    /** The names of the bucket's objects under {@code prefix}. */
    List<String> objectNames(String prefix) throws Exception {
        List<String> names = new ArrayList<>();
        for (Result<Item> result : minio().listObjects(ListObjectsArgs.builder().bucket(bucket).prefix(prefix)
                .recursive(true).build())) {
            names.add(result.get().objectName());
        }
        return names;
    }

    /** The bytes of the bucket's object {@code name}. */
    byte[] object(String name) throws Exception {
        try (InputStream in = minio().getObject(GetObjectArgs.builder().bucket(bucket).object(name).build())) {
            return in.readAllBytes();
        }
    }

    /** When the bucket's object {@code name} was written. */
    Instant lastModified(String name) throws Exception {
        return minio().statObject(StatObjectArgs.builder().bucket(bucket).object(name).build()).lastModified()
                .toInstant();
    }

    /** Every job event on the events topic so far, in order. */
    List<JobEvent> events() {
        return eventRecords().stream().map(record -> KafkaJobEventSink.read(record.value())).toList();
    }

    /** When each of the job's events was produced (the records' timestamps), in order. */
    List<Instant> eventTimes(String job) {
        return eventRecords().stream().filter(record -> KafkaJobEventSink.read(record.value()).jobId().equals(job))
                .map(record -> Instant.ofEpochMilli(record.timestamp())).toList();
    }

    private List<ConsumerRecord<String, byte[]>> eventRecords() {
        return EventRecords.read(required("SEEDER_KAFKA_BOOTSTRAP"), eventsTopic);
    }

    MinioClient minio() {
        return MinioClient.builder().endpoint(env.get("SEEDER_S3_ENDPOINT"))
                .credentials(env.get("SEEDER_S3_ACCESS_KEY"), env.get("SEEDER_S3_SECRET_KEY")).build();
    }

    @Override
    public void close() throws Exception {
        processes.forEach(SeederProcess::stop);
        for (SeederProcess process : processes) {
            process.close();
        }
        try {
            removeObjects("");
        } catch (Exception e) {
            // The bucket may never have been made (a test of start-up failures), or MinIO is a test's own, gone.
        }
    }

    /** Removes every object of the bucket whose name starts with {@code prefix}. */
    void removeObjects(String prefix) throws Exception {
        MinioClient minio = minio();
        for (Result<Item> result : minio.listObjects(ListObjectsArgs.builder().bucket(bucket).prefix(prefix)
                .recursive(true).build())) {
            minio.removeObject(RemoveObjectArgs.builder().bucket(bucket).object(result.get().objectName()).build());
        }
    }
}
