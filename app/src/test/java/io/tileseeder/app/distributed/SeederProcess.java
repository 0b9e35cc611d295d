package io.tileseeder.app.distributed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** A coordinator or worker started from the built application jar, its output in a log file. */
final class SeederProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    final String name;
    /** The API's port ({@code serve}). */
    final int port;
    /** The management interface's port: health and metrics ({@code serve} and {@code worker}). */
    final int managementPort;
    final Path log;
    private final Process process;

    SeederProcess(String name, int port, int managementPort, Path log, Process process) {
        this.name = name;
        this.port = port;
        this.managementPort = managementPort;
        this.log = log;
        this.process = process;
    }

    String output() {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until the output contains {@code text}; fails with the output if the process ends first. */
    SeederProcess awaitOutput(String text, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!output().contains(text)) {
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited with " + process.exitValue() + " before printing '" + text
                        + "':\n" + output());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(name + " did not print '" + text + "' within " + timeout + ":\n" + output());
            }
            Thread.sleep(100);
        }
        return this;
    }

    /** Waits for the process to end; its exit status. */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(name + " still running after " + timeout + ":\n" + output());
        }
        return process.exitValue();
    }

    /** {@code kill -9}: no shutdown hook runs, nothing is given back. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** The sum of a counter's samples on {@code /q/metrics}. */
    double metric(String counter) throws IOException, InterruptedException {
        return Scrape.of(metricsText()).sum(counter);
    }

    /** What the process's {@code /q/metrics} answers: the one place that knows where its metrics are served. */
    String metricsText() throws IOException, InterruptedException {
        HttpResponse<String> response = management("/q/metrics");
        if (response.statusCode() != 200) {
            throw new AssertionError(name + " answered " + response.statusCode() + " on /q/metrics: " + response.body());
        }
        return response.body();
    }

    /** A GET of {@code path} on the management interface, without a token. */
    HttpResponse<String> management(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Asks the process to stop (SIGTERM) without waiting, so that several stop at once; {@link #close} waits. */
    void stop() {
        process.destroy();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor();
            }
        }
    }
}
