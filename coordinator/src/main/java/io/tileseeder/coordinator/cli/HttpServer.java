package io.tileseeder.coordinator.cli;

import java.io.PrintWriter;
import org.eclipse.microprofile.config.ConfigProvider;

/** The HTTP server is off unless the seeder script turns it on for the commands that serve. */
final class HttpServer {

    private HttpServer() {
    }

    /** Whether HTTP is on, on {@code port}; if not, says how to start the command so that it is. */
    static boolean listeningOn(int port, String command, PrintWriter err) {
        var config = ConfigProvider.getConfig();
        boolean http = config.getOptionalValue("quarkus.http.host-enabled", Boolean.class).orElse(true);
        int listening = config.getOptionalValue("quarkus.http.port", Integer.class).orElse(8080);
        if (http && listening == port) {
            return true;
        }
        err.println("error: start it with the seeder script ('./seeder " + command + " --port " + port
                + "'), which turns on HTTP on that port, or set QUARKUS_HTTP_HOST_ENABLED=true and QUARKUS_HTTP_PORT="
                + port);
        return false;
    }
}
