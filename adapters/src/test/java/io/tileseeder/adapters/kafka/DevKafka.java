package io.tileseeder.adapters.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The Kafka broker of {@code dev/services}, stopped and started as an operator's restart would: TERM to the process
 * its pid file names, then {@code dev/services up}, which starts what is down. Paths are relative to a module's
 * directory, where Maven runs the tests.
 */
public final class DevKafka {

    private static final Path PID_FILE = Path.of("../.dev/kafka/kafka.pid");

    private DevKafka() {
    }

    /** Stops the broker and waits until its process is gone. */
    public static void stop() throws Exception {
        long pid = Long.parseLong(Files.readString(PID_FILE).strip());
        ProcessHandle broker = ProcessHandle.of(pid).orElseThrow(
                () -> new IllegalStateException("no Kafka broker runs as pid " + pid + " (" + PID_FILE + ")"));
        broker.destroy();
        broker.onExit().get(60, TimeUnit.SECONDS);
    }

    /** Starts the broker again with {@code dev/services up}, its output in {@code log}; returns once it is up. */
    public static void start(Path log) throws Exception {
        Process up = new ProcessBuilder("../dev/services", "up").redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        assertThat(up.waitFor(3, TimeUnit.MINUTES)).as("dev/services up within 3 minutes").isTrue();
        assertThat(up.exitValue()).as(Files.readString(log)).isZero();
    }
}
