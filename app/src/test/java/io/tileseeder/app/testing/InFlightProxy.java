package io.tileseeder.app.testing;

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
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP proxy in front of an upstream (the dev WMS) that counts the requests in flight to it, as the server sees
 * them: from the moment a request is sent on until its answer came back whole, whether or not the client that asked
 * is still there to read it (a killed worker's request keeps the server busy all the same).
 */
public final class InFlightProxy implements AutoCloseable {

    private final URI upstream;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient client;
    private final AtomicInteger now = new AtomicInteger();
    private final AtomicInteger most = new AtomicInteger();
    private final AtomicInteger answered = new AtomicInteger();

    /** @param upstream the URL whose host and port requests are sent on to, with their own path and query */
    public InFlightProxy(URI upstream) throws IOException {
        this.upstream = upstream;
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(threads)
                .connectTimeout(Duration.ofSeconds(10)).build();
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
        server.setExecutor(threads);
        server.createContext("/", this::relay);
        server.start();
    }

    /** {@code upstream}'s URL with this proxy's host and port. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + upstream.getRawPath();
    }

    /** The most requests in flight to the upstream at once, so far. */
    public int most() {
        return most.get();
    }

    /** The requests the upstream answered, so far. */
    public int answered() {
        return answered.get();
    }

    private void relay(HttpExchange exchange) throws IOException {
        try (exchange) {
            URI target = upstream.resolve(exchange.getRequestURI().getRawPath()
                    + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery()));
            HttpResponse<byte[]> answer;
            most.accumulateAndGet(now.incrementAndGet(), Math::max);
            try {
                answer = client.send(HttpRequest.newBuilder(target).GET().timeout(Duration.ofMinutes(2)).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                answered.incrementAndGet();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exchange.sendResponseHeaders(502, -1);
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
