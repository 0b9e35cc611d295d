package io.tileseeder.app.embedded;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP relay in front of a real S3 endpoint that, for a while, answers every request itself with S3's
 * {@code 503 SlowDown} error, as S3 does when a prefix gets more requests than it takes. Outside that while it relays
 * bytes both ways untouched (the client's signature covers the {@code Host} it sent, which the relay keeps). When the
 * slow-down starts, the connections being relayed are cut, so that every request from then on meets it.
 */
final class SlowDownProxy implements AutoCloseable {

    private static final String ERROR = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>SlowDown</Code>"
            + "<Message>Please reduce your request rate.</Message><RequestId>slow-down-proxy</RequestId></Error>";

    private final URI target;
    private final ServerSocket server;
    private final Set<Socket> relayed = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Instant> slowUntil = new AtomicReference<>(Instant.MIN);
    private final AtomicInteger slowDowns = new AtomicInteger();

    SlowDownProxy(URI target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("slow-down-proxy").start(this::accept);
    }

    /** The endpoint to give the client in place of the real one. */
    String endpoint() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** Answers SlowDown to every request from now on for {@code duration}, cutting the connections being relayed. */
    void slowDownFor(Duration duration) {
        slowUntil.set(Instant.now().plus(duration));
        for (Socket socket : relayed) {
            closeQuietly(socket);
        }
    }

    /** The SlowDown answers given so far. */
    int slowDowns() {
        return slowDowns.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Thread.ofVirtual().start(() -> serve(client));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            if (Instant.now().isBefore(slowUntil.get())) {
                slowDown(client);
                return;
            }
            Socket upstream = new Socket(target.getHost(), target.getPort());
            relayed.add(client);
            relayed.add(upstream);
            try (upstream) {
                Thread toUpstream = Thread.ofVirtual().start(() -> pipe(client, upstream));
                pipe(upstream, client);
                closeQuietly(upstream);
                toUpstream.join();
            } finally {
                relayed.remove(client);
                relayed.remove(upstream);
            }
        } catch (IOException e) {
            // A client or upstream that went away: nothing to relay any more.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Reads one request (its head, and the body its Content-Length declares), answers 503 SlowDown, closes. */
    private void slowDown(Socket client) throws IOException {
        InputStream in = client.getInputStream();
        String head = readHead(in);
        if (head == null) {
            return;
        }
        long length = 0;
        for (String line : head.split("\r\n")) {
            String lower = line.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
            }
        }
        in.skipNBytes(length);
        byte[] body = ERROR.getBytes(StandardCharsets.UTF_8);
        OutputStream out = client.getOutputStream();
        out.write(("HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\nContent-Length: " + body.length
                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        slowDowns.incrementAndGet();
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < end.length) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    private static void pipe(Socket from, Socket to) {
        try {
            from.getInputStream().transferTo(to.getOutputStream());
            to.shutdownOutput();
        } catch (IOException e) {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Closing is all that was wanted.
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : relayed) {
            closeQuietly(socket);
        }
    }
}
