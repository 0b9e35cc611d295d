package io.tileseeder.coordinator.distributed;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Redis server of one test's own (Debian's {@code redis-server}, as dev/services runs it), persistent (AOF,
 * fsync every second) on a free port, so that a test can stop and restart it without touching the shared one.
 */
final class OwnRedis implements AutoCloseable {

    private final Path data;
    private final int port;
    private Process process;

    private OwnRedis(Path data, int port) {
        this.data = data;
        this.port = port;
    }

    static OwnRedis start(Path data) throws IOException, InterruptedException {
        OwnRedis redis = new OwnRedis(Files.createDirectories(data), Cluster.freePort());
        redis.restart();
        return redis;
    }

    String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** Starts the server (again, on the same port and data) and waits until it answers PING. */
    void restart() throws IOException, InterruptedException {
        String server = Files.isExecutable(Path.of("/usr/bin/redis-server")) ? "/usr/bin/redis-server" : "redis-server";
        process = new ProcessBuilder(List.of(server, "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--dir", data.toString(), "--appendonly", "yes", "--appendfsync", "everysec", "--save", ""))
                .redirectErrorStream(true).redirectOutput(data.resolveSibling("redis-" + port + ".log").toFile())
                .start();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!answers()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("Redis did not answer on port " + port + "; see "
                        + data.resolveSibling("redis-" + port + ".log"));
            }
            Thread.sleep(50);
        }
    }

    private boolean answers() {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(1000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] reply = new byte[5];
            return socket.getInputStream().readNBytes(reply, 0, 5) == 5
                    && new String(reply, StandardCharsets.US_ASCII).equals("+PONG");
        } catch (IOException e) {
            return false;
        }
    }

    /** Stops the server as a restart does (TERM: it finishes its AOF), and waits until it is gone. */
    void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            stop();
        }
    }
}
