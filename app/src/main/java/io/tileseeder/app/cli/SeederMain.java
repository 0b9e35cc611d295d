package io.tileseeder.app.cli;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.tileseeder.runtime.worker.RunningWorker;
import io.tileseeder.server.Engines;
import io.tileseeder.server.access.Access;
import io.tileseeder.server.api.HttpLimits;
import java.util.Map;
import picocli.CommandLine;

/** The {@code seeder} command line: the application's entry point. */
@QuarkusMain
public class SeederMain implements QuarkusApplication {

    private final Engines engines;
    private final RunningWorker worker;
    private final Access access;

    public SeederMain(Engines engines, RunningWorker worker, Access access) {
        this.engines = engines;
        this.worker = worker;
        this.access = access;
    }

    /**
     * Turns off Quarkus's own check of request targets, which answers a target that is not a URI with a bare 400
     * before any route runs, so that {@link HttpLimits} makes the same check and answers it with a problem. It is a
     * system property read when Quarkus's HTTP classes load, so it is set before the application starts.
     */
    public static void main(String... args) {
        System.setProperty(HttpLimits.NO_BARE_URI_CHECK, "true");
        Quarkus.run(SeederMain.class, args);
    }

    @Override
    public int run(String... args) {
        return commandLine(engines, worker, access, System.getenv()).execute(args);
    }

    /**
     * The command line; {@code env} is where {@code submit}, {@code wait} and {@code cancel} find
     * {@code SEEDER_TOKEN}.
     */
    static CommandLine commandLine(Engines engines, RunningWorker worker, Access access, Map<String, String> env) {
        String token = env.get(ApiClient.TOKEN_VARIABLE);
        CommandLine cli = new CommandLine(new SeederCommand());
        cli.addSubcommand(new SeedCommand(engines));
        cli.addSubcommand(new ServeCommand(engines, access));
        cli.addSubcommand(new WorkerCommand(engines, worker));
        cli.addSubcommand(new PackCommand(engines));
        cli.addSubcommand(new SubmitCommand(token));
        cli.addSubcommand(new WaitCommand(token));
        cli.addSubcommand(new CancelCommand(token));
        return ExitCodes.reportErrors(cli);
    }

    @CommandLine.Command(name = "seeder", mixinStandardHelpOptions = true, version = "Tile Seeder 0.1.0",
            description = "Pre-renders (seeds) raster map tiles into a tile cache.%n"
                    + "Run 'seeder COMMAND --help' for a command's options.",
            subcommandsRepeatable = false)
    static final class SeederCommand implements Runnable {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public void run() {
            throw new CommandLine.ParameterException(spec.commandLine(), "a command is required: seed, serve, worker, pack, submit, "
                    + "wait or cancel");
        }
    }
}
