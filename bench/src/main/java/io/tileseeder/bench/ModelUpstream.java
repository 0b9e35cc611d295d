package io.tileseeder.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A delay proxy in front of a real WMS that makes it behave like a server of {@code processes} map-drawing processes,
 * each taking {@code drawing} per request: at most {@code processes} requests are drawn at once and the others queue,
 * first come first served, and each is drawn {@code thrash} slower per request in flight beyond the processes (a
 * server past its knee spends time switching between them). The image is the real server's answer, fetched while the
 * request is drawn. It counts the requests in flight as it sees them.
 */
final class ModelUpstream implements AutoCloseable {

    private final URI upstream;
    private final Duration drawing;
    private final int processes;
    private final double thrash;
    private final Semaphore drawers;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient client;
    private final AtomicInteger now = new AtomicInteger();
    private final AtomicInteger most = new AtomicInteger();

    ModelUpstream(URI upstream, int processes, Duration drawing, double thrash) throws IOException {
        this.upstream = upstream;
        this.processes = processes;
        this.drawing = drawing;
        this.thrash = thrash;
        this.drawers = new Semaphore(processes, true);
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(threads).build();
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
        server.setExecutor(threads);
        server.createContext("/", this::serve);
        server.start();
    }

    /** The WMS's URL with this proxy's host and port. */
    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + upstream.getRawPath();
    }

    /** The most requests in flight at once since the last call, which starts counting anew. */
    int mostAndReset() {
        return most.getAndSet(now.get());
    }

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            int atServer = now.incrementAndGet();
            most.accumulateAndGet(atServer, Math::max);
            HttpResponse<byte[]> answer;
            try {
                drawers.acquire();
                try {
                    long until = System.nanoTime()
                            + (long) (drawing.toNanos() * (1 + thrash * Math.max(0, now.get() - processes)));
                    String query = exchange.getRequestURI().getRawQuery();
                    answer = client.send(HttpRequest.newBuilder(upstream.resolve(exchange.getRequestURI().getRawPath()
                            + (query == null ? "" : "?" + query))).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
                    long left = until - System.nanoTime();
                    if (left > 0) {
                        Thread.sleep(Duration.ofNanos(left));
                    }
                } finally {
                    drawers.release();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exchange.sendResponseHeaders(503, -1);
                return;
            } finally {
                now.decrementAndGet();
            }
            answer.headers().firstValue("Content-Type")
                    .ifPresent(type -> exchange.getResponseHeaders().set("Content-Type", type));
            byte[] body = answer.body();
            exchange.sendResponseHeaders(answer.statusCode(), body.length == 0 ? -1 : body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
        client.close();
    }
}
