package io.tileseeder.adapters.redis;

import io.tileseeder.adapters.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Redis server of a test's own (Debian's {@code redis-server}, on a free port of 127.0.0.1, persistent with AOF in
 * {@code dir}), so the test may stop and start it without touching the shared ones.
 */
public final class OwnRedis implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final Path dir;
    private final int port;
    private Process process;

    private OwnRedis(Path dir, int port) {
        this.dir = dir;
        this.port = port;
    }

    /** Starts a server on a free port with its data in {@code dir}. */
    public static OwnRedis start(Path dir) throws IOException, InterruptedException {
        OwnRedis redis = new OwnRedis(Files.createDirectories(dir), FreePorts.next());
        redis.start();
        return redis;
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** Starts the server again on the same port and data, once stopped; returns when it accepts connections. */
    public void start() throws IOException, InterruptedException {
        process = new ProcessBuilder(List.of("redis-server", "--bind", "127.0.0.1", "--port", Integer.toString(port),
                "--dir", dir.toString(), "--appendonly", "yes", "--appendfsync", "everysec", "--save", ""))
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!accepts()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("redis-server on port " + port + " did not start; see "
                        + dir.resolve("redis.log"));
            }
            Thread.sleep(50);
        }
    }

    /** Stops the server (TERM: it writes its AOF and exits) and waits until it is gone. */
    public void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    private boolean accepts() {
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        try {
            if (process != null && process.isAlive()) {
                stop();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException("interrupted while stopping redis-server", e));
        }
    }
}
