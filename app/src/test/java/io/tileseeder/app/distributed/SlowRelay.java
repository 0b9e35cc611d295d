package io.tileseeder.app.distributed;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay in front of a real endpoint that holds each chunk of the endpoint's answers for a while before passing
 * it on: a slow network, so that whatever a process reads through it (a pack reading thousands of tiles) lasts long
 * enough to be interrupted. The requests go through untouched, signatures and all.
 */
final class SlowRelay implements AutoCloseable {

    private final URI target;
    private final Duration delay;
    private final ServerSocket server;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();

    SlowRelay(URI target, Duration delay) throws IOException {
        this.target = target;
        this.delay = delay;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("slow-relay").start(this::accept);
    }

    /** The endpoint to give the client in place of the real one. */
    String endpoint() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(target.getHost(), target.getPort());
                open.add(client);
                open.add(upstream);
                Thread.ofVirtual().start(() -> pump(client, upstream, Duration.ZERO));
                Thread.ofVirtual().start(() -> pump(upstream, client, delay));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void pump(Socket from, Socket to, Duration hold) {
        byte[] buffer = new byte[16384];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (!hold.isZero()) {
                    Thread.sleep(hold);
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // one side closed: the other is closed below
        } finally {
            close(from);
            close(to);
        }
    }

    private void close(Socket socket) {
        open.remove(socket);
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        open.forEach(this::close);
    }
}
