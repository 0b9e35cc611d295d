package io.tileseeder.app.cli;

import io.quarkus.runtime.annotations.CommandLineArguments;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.tileseeder.server.access.Access;
import io.vertx.core.http.HttpServerOptions;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine;

/**
 * Refuses to start an API that anyone could use before its socket is bound: Quarkus opens the HTTP server while the
 * application starts, before the command line runs, so {@code serve}'s own check came after the API had listened
 * on every interface for a moment. Quarkus asks this bean for the server's options just before it binds; an API
 * on a host other machines reach, with no tokens file and without {@code serve --allow-unauthenticated}, stops the
 * start there with exit status 1 and the command line's error line.
 */
@Singleton
public class ExposedApiCheck implements HttpServerOptionsCustomizer {

    private final Access access;
    private final String[] args;

    public ExposedApiCheck(Access access, @CommandLineArguments String[] args) {
        this.access = access;
        this.args = args;
    }

    @Override
    public void customizeHttpServer(HttpServerOptions options) {
        Optional<String> refusal = HttpServer.unauthenticated(options.getHost(), access.enabled(),
                allowUnauthenticated(args));
        if (refusal.isPresent()) {
            throw new ConfigurationException(refusal.get());
        }
    }

    /** Whether the arguments are {@code serve ... --allow-unauthenticated}, as the command line reads them. */
    static boolean allowUnauthenticated(String... args) {
        try {
            ParseResult parsed = SeederMain.commandLine(null, null, null, Map.of()).parseArgs(args).subcommand();
            return parsed != null && parsed.commandSpec().name().equals("serve")
                    && parsed.matchedOptionValue("--allow-unauthenticated", false);
        } catch (CommandLine.ParameterException e) {
            return false;
        }
    }
}
