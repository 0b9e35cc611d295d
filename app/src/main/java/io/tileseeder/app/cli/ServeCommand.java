package io.tileseeder.app.cli;

import io.quarkus.runtime.Quarkus;
import io.tileseeder.layer.LayerConfigException;
import io.tileseeder.server.Engines;
import io.tileseeder.server.access.Access;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code seeder serve}: the REST API, the preview map and Swagger UI, in front of the embedded engine or, with
 * {@code SEEDER_MODE=distributed}, as a coordinator of worker processes.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, exitCodeOnInvalidInput = ExitCodes.USAGE,
        description = {"Runs the REST API until stopped (Ctrl-C): on the embedded engine, or with "
                + "SEEDER_MODE=distributed as the coordinator of 'seeder worker' processes (Kafka, Redis, S3).",
                "API: /api/v1/jobs, /api/v1/layers; preview map: /; OpenAPI: /q/openapi; Swagger UI: /q/swagger-ui "
                        + "(on --port). Health: /q/health; metrics: /q/metrics (on --management-port).",
                "With SEEDER_AUTH_TOKENS_FILE set (required in the distributed mode) every API call needs a bearer "
                        + "token of that file."})
final class ServeCommand implements Callable<Integer> {

    private final Engines engines;
    private final Access access;

    @Spec
    CommandSpec spec;

    @Mixin
    EngineOptions engine;

    @Option(names = "--port", defaultValue = "8080",
            description = "HTTP port of the API (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--management-port", defaultValue = "9080",
            description = "HTTP port of health and metrics (default: ${DEFAULT-VALUE}).")
    int managementPort;

    @Option(names = "--host", paramLabel = "ADDRESS",
            description = "Address the API, health and metrics listen on (default: the setting quarkus.http.host, "
                    + "QUARKUS_HTTP_HOST, which is 127.0.0.1: this machine only). 0.0.0.0 is every interface, which "
                    + "needs SEEDER_AUTH_TOKENS_FILE or --allow-unauthenticated.")
    String host;

    @Option(names = "--allow-unauthenticated",
            description = "Serve without a tokens file on an address other machines reach: anyone who reaches it "
                    + "may submit and cancel jobs.")
    boolean allowUnauthenticated;

    ServeCommand(Engines engines, Access access) {
        this.engines = engines;
        this.access = access;
    }

    @Override
    public Integer call() {
        String address = HttpServer.apiHost();
        if (port == managementPort) {
            spec.commandLine().getErr().println(samePort(port));
            return ExitCodes.USAGE;
        }
        try {
            if (access.enabled()) {
                access.tokens();
            } else if (engines.distributed()) {
                spec.commandLine().getErr().println("error: the distributed coordinator needs API tokens: set "
                        + "SEEDER_AUTH_TOKENS_FILE (seeder.auth.tokens-file) to a file of lines NAME ROLE TOKEN");
                return ExitCodes.USAGE;
            }
            if (host != null && !HttpServer.listeningOnHost(host, spec.commandLine().getErr())) {
                return ExitCodes.USAGE;
            }
            Optional<String> refusal = HttpServer.unauthenticated(address, access.enabled(), allowUnauthenticated);
            if (refusal.isPresent()) {
                spec.commandLine().getErr().println(refusal.get());
                return ExitCodes.USAGE;
            }
            if (!HttpServer.listeningOn("serve", OptionalInt.of(port), managementPort, spec.commandLine().getErr())) {
                return ExitCodes.USAGE;
            }
            engines.start(engine.apply(engines.settings()));
        } catch (LayerConfigException | IllegalArgumentException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        spec.commandLine().getOut().printf("Tile Seeder %s listening on http://%s:%d/ (API /api/v1, Swagger UI "
                + "/q/swagger-ui; health and metrics on port %d)%n", engines.distributed() ? "coordinator" : "(embedded)",
                address.contains(":") ? "[" + address + "]" : address, port, managementPort);
        spec.commandLine().getOut().flush();
        Quarkus.waitForExit();
        return 0;
    }

    /**
     * The refusal of one port for both servers: they would share its socket, and each connection would reach one of
     * them in turn, so some API requests would get the management interface's 404.
     */
    static String samePort(int port) {
        return "error: --port and --management-port are both " + port + ": the API and its health and metrics "
                + "need a port each";
    }
}
