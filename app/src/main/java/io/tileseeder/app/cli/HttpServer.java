package io.tileseeder.app.cli;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
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

    /** The address the API server listens on ({@code quarkus.http.host}). */
    static String apiHost() {
        return ConfigProvider.getConfig().getOptionalValue("quarkus.http.host", String.class).orElse("0.0.0.0");
    }

    /** Whether the API server listens on {@code host}; if not, says how to start the command so that it does. */
    static boolean listeningOnHost(String host, PrintWriter err) {
        if (apiHost().equals(host)) {
            return true;
        }
        err.println("error: start it with the seeder script ('./seeder serve --host " + host + "'), which makes HTTP "
                + "listen there, or set QUARKUS_HTTP_HOST=" + host + " and QUARKUS_MANAGEMENT_HOST=" + host);
        return false;
    }

    /**
     * The refusal of an API that anyone reaching {@code host} could use: a host other machines reach, no tokens file
     * and no {@code --allow-unauthenticated}; empty when the API may listen there.
     */
    static Optional<String> unauthenticated(String host, boolean tokens, boolean allowed) {
        if (tokens || allowed || loopback(host)) {
            return Optional.empty();
        }
        return Optional.of("error: the API would answer anyone on " + host + " without authentication: set "
                + "SEEDER_AUTH_TOKENS_FILE to a tokens file, listen on this machine only (--host 127.0.0.1), or pass "
                + "--allow-unauthenticated");
    }

    /** Whether only this machine reaches {@code host}: a loopback address, or a name of one. */
    static boolean loopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static boolean on(Config config, String server, int port, int defaultPort) {
        return config.getOptionalValue(server + ".host-enabled", Boolean.class).orElse(true)
                && config.getOptionalValue(server + ".port", Integer.class).orElse(defaultPort) == port;
    }
}
