package io.tileseeder.coordinator.cli;

import java.io.PrintWriter;
import java.util.OptionalInt;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The HTTP servers are off unless the seeder script turns them on for the commands that serve: the API server
 * ({@code quarkus.http.*}) for {@code serve}, the management interface ({@code quarkus.management.*}: health and
 * metrics) for {@code serve} and {@code worker}.
 */
final class HttpServer {

    private HttpServer() {
    }

    /**
     * Whether the API is on {@code apiPort} (when there is one) and the management interface on
     * {@code managementPort}; if not, says how to start the command so that they are.
     */
    static boolean listeningOn(String command, OptionalInt apiPort, int managementPort, PrintWriter err) {
        Config config = ConfigProvider.getConfig();
        boolean api = apiPort.isEmpty() || on(config, "quarkus.http", apiPort.getAsInt(), 8080);
        if (api && on(config, "quarkus.management", managementPort, 9000)) {
            return true;
        }
        String management = "QUARKUS_MANAGEMENT_HOST_ENABLED=true and QUARKUS_MANAGEMENT_PORT=" + managementPort;
        if (apiPort.isPresent()) {
            err.println("error: start it with the seeder script ('./seeder " + command + " --port " + apiPort.getAsInt()
                    + " --management-port " + managementPort + "'), which turns on HTTP on those ports, or set "
                    + "QUARKUS_HTTP_HOST_ENABLED=true, QUARKUS_HTTP_PORT=" + apiPort.getAsInt() + ", " + management);
        } else {
            err.println("error: start it with the seeder script ('./seeder " + command + " --port " + managementPort
                    + "'), which turns on HTTP on that port, or set " + management);
        }
        return false;
    }

    private static boolean on(Config config, String server, int port, int defaultPort) {
        return config.getOptionalValue(server + ".host-enabled", Boolean.class).orElse(true)
                && config.getOptionalValue(server + ".port", Integer.class).orElse(defaultPort) == port;
    }
}
