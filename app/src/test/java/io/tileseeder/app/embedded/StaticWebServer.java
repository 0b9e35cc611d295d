package io.tileseeder.app.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A folder served over HTTP by a real web server, Debian's lighttpd (which dev/services installs for the WMS), on a
 * free loopback port: static files only, as a plain tile server or a CDN would serve a cache.
 */
final class StaticWebServer implements AutoCloseable {

    private static final String LIGHTTPD = "/usr/sbin/lighttpd";

    private final Process process;
    private final String url;

    private StaticWebServer(Process process, String url) {
        this.process = process;
        this.url = url;
    }

    /** Serves {@code folder}, its configuration and logs written in {@code work}. */
    static StaticWebServer serve(Path folder, Path work) throws Exception {
        assertThat(Path.of(LIGHTTPD)).as("lighttpd (dev/services up --wms installs it)").exists();
        for (int attempt = 1; ; attempt++) {
            int port;
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = socket.getLocalPort();
            }
            Path config = work.resolve("lighttpd-" + attempt + ".conf");
            Files.writeString(config, """
                    server.document-root = "%s"
                    server.bind = "127.0.0.1"
                    server.port = %d
                    server.errorlog = "%s"
                    mimetype.assign = (".png" => "image/png", ".json" => "application/json", ".xml" => "text/xml")
                    """.formatted(folder, port, work.resolve("lighttpd-" + attempt + ".log")));
            Process process = new ProcessBuilder(LIGHTTPD, "-D", "-f", config.toString()).redirectErrorStream(true)
                    .redirectOutput(work.resolve("lighttpd-" + attempt + ".out").toFile()).start();
            String url = "http://127.0.0.1:" + port;
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (process.isAlive() && System.nanoTime() < deadline) {
                if (answers(url + "/")) {
                    return new StaticWebServer(process, url);
                }
                Thread.sleep(50);
            }
            process.destroy();
            if (attempt == 3) {
                throw new IllegalStateException("lighttpd did not start: " + Files.readString(
                        work.resolve("lighttpd-" + attempt + ".out")));
            }
        }
    }

    /** Its base URL, without a trailing slash. */
    String url() {
        return url;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    private static boolean answers(String url) {
        try {
            HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
            connection.setConnectTimeout(500);
            return connection.getResponseCode() > 0;
        } catch (IOException e) {
            return false;
        }
    }
}
