package io.tileseeder.app.distributed;

import io.tileseeder.adapters.FreePorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A MinIO server of a test's own (the binary dev/services installed, SEEDER_MINIO_BIN), on a free port with its
 * own data folder, so the test can stop and restart it without disturbing the others.
 */
final class OwnMinio implements AutoCloseable {

    private final Path data;
    private final int port;
    private Process process;

    private OwnMinio(Path data, int port) {
        this.data = data;
        this.port = port;
    }

    static OwnMinio start(Path data) throws IOException, InterruptedException {
        OwnMinio minio = new OwnMinio(Files.createDirectories(data), FreePorts.next());
        minio.restart();
        return minio;
    }

    String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    /** Starts the server (again, on the same port and data) and waits until it is ready. */
    void restart() throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(List.of(Cluster.required("SEEDER_MINIO_BIN"), "server",
                data.toString(), "--address", "127.0.0.1:" + port, "--console-address", "127.0.0.1:" + FreePorts.next()))
                .redirectErrorStream(true).redirectOutput(data.resolveSibling("minio.log").toFile());
        builder.environment().put("MINIO_ROOT_USER", Cluster.required("SEEDER_S3_ACCESS_KEY"));
        builder.environment().put("MINIO_ROOT_PASSWORD", Cluster.required("SEEDER_S3_SECRET_KEY"));
        builder.environment().put("MINIO_UPDATE", "off");
        process = builder.start();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try {
                if (http.send(HttpRequest.newBuilder(URI.create(endpoint() + "/minio/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("MinIO did not become ready on port " + port + "; see "
                        + data.resolveSibling("minio.log"));
            }
            Thread.sleep(100);
        }
    }

    /** Stops the server at once, as a crash would. */
    void stop() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            stop();
        }
    }
}
