package io.tileseeder.render.wms;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.imageio.ImageIO;

/**
 * A small HTTP server on 127.0.0.1 for the faults a real MapServer cannot be made to produce (5xx, cut
 * connections, proxies' HTML pages, slow answers). It counts the requests it sees, and can hold requests until the
 * test {@linkplain #release() releases} them (a latch, never a sleep).
 */
final class LoopbackWms implements AutoCloseable {

    /** How the server answers its {@code n}-th request (1-based). */
    @FunctionalInterface
    interface Reply {
        void answer(LoopbackWms server, HttpExchange exchange, int n) throws IOException, InterruptedException;
    }

    /** How long a held request may wait for {@link #release()} before the server gives up on it. */
    private static final long HOLD_SECONDS = 30;

    private final HttpServer server;
    private final ExecutorService executor;
    private final Reply reply;
    private final AtomicInteger requests = new AtomicInteger();
    private final List<String> queries = new CopyOnWriteArrayList<>();
    private final CountDownLatch released = new CountDownLatch(1);

    LoopbackWms(Reply reply) throws IOException {
        this.reply = reply;
        this.executor = Executors.newFixedThreadPool(16, r -> {
            Thread thread = new Thread(r, "loopback-wms");
            thread.setDaemon(true);
            return thread;
        });
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    private void handle(HttpExchange exchange) {
        int n = requests.incrementAndGet();
        queries.add(exchange.getRequestURI().getRawQuery());
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            reply.answer(this, exchange, n);
        } catch (IOException e) {
            // the client went away (a timeout, a cancelled call): nothing to answer
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@code http://127.0.0.1:<port>/wms} */
    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/wms");
    }

    /** Requests seen so far. */
    int requests() {
        return requests.get();
    }

    /** The raw query strings of the requests seen, in order of arrival. */
    List<String> queries() {
        return List.copyOf(queries);
    }

    /** Lets every held request, and every later one, go on. */
    void release() {
        released.countDown();
    }

    /** Holds the calling handler until the test {@linkplain #release() releases} it. */
    void hold() throws InterruptedException {
        if (!released.await(HOLD_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the test never released the held request");
        }
    }

    @Override
    public void close() {
        release();
        server.stop(0);
        executor.shutdownNow();
    }

    // Answers.

    static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        if (contentType != null) {
            exchange.getResponseHeaders().set("Content-Type", contentType);
        }
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    static Reply answer(int status, String contentType, byte[] body) {
        return (server, exchange, n) -> send(exchange, status, contentType, body);
    }

    /** A PNG of {@code image}, as ImageIO writes it. */
    static byte[] png(BufferedImage image) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            if (!ImageIO.write(image, "png", out)) {
                throw new IllegalStateException("no PNG writer");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** A transparent {@code width × height} PNG. */
    static byte[] png(int width, int height) {
        return png(new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB));
    }
}
