package io.tileseeder.coordinator.cli;

import io.quarkus.runtime.Quarkus;
import io.tileseeder.coordinator.Engines;
import io.tileseeder.worker.layer.LayerConfigException;
import java.util.concurrent.Callable;
import org.eclipse.microprofile.config.ConfigProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code seeder serve}: the embedded engine behind the REST API, the preview map and Swagger UI. */
@Command(name = "serve", mixinStandardHelpOptions = true, exitCodeOnInvalidInput = ExitCodes.USAGE,
        description = {"Runs the embedded engine behind the REST API until stopped (Ctrl-C).",
                "API: /api/v1/jobs, /api/v1/layers; preview map: /; OpenAPI: /q/openapi; Swagger UI: /q/swagger-ui."})
final class ServeCommand implements Callable<Integer> {

    private final Engines engines;

    @Spec
    CommandSpec spec;

    @Mixin
    EngineOptions engine;

    @Option(names = "--port", defaultValue = "8080", description = "HTTP port on all interfaces (default: ${DEFAULT-VALUE}).")
    int port;

    ServeCommand(Engines engines) {
        this.engines = engines;
    }

    @Override
    public Integer call() {
        var config = ConfigProvider.getConfig();
        boolean http = config.getOptionalValue("quarkus.http.host-enabled", Boolean.class).orElse(true);
        int listening = config.getOptionalValue("quarkus.http.port", Integer.class).orElse(8080);
        if (!http || listening != port) {
            spec.commandLine().getErr().println("error: start the server with the seeder script ('./seeder serve --port "
                    + port + "'), which turns on HTTP on that port, or set QUARKUS_HTTP_HOST_ENABLED=true and "
                    + "QUARKUS_HTTP_PORT=" + port);
            return ExitCodes.USAGE;
        }
        try {
            engines.start(engine.apply(engines.settings()));
        } catch (LayerConfigException | IllegalArgumentException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        spec.commandLine().getOut().printf("Tile Seeder listening on http://localhost:%d/ (API /api/v1, Swagger UI /q/swagger-ui)%n", port);
        spec.commandLine().getOut().flush();
        Quarkus.waitForExit();
        return 0;
    }
}
