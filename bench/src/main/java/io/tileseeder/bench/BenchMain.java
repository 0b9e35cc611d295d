package io.tileseeder.bench;

import io.tileseeder.app.cli.ExitCodes;
import picocli.CommandLine;

/**
 * The benchmark commands, which the seeder script runs from this module's jar for {@code seeder bench},
 * {@code seeder bench-coordinator} and {@code seeder bench-wms}, so that the application does not carry them.
 */
public final class BenchMain {

    private BenchMain() {
    }

    public static void main(String[] args) {
        // The libraries log through JBoss LogManager (configured by logging.properties here), which must be the JDK's
        // log manager before anything logs; Quarkus's runner does the same for the app.
        System.setProperty("java.util.logging.manager", "org.jboss.logmanager.LogManager");
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new SeederCommand());
        cli.addSubcommand(new BenchCommand());
        cli.addSubcommand(new CoordinatorBenchCommand());
        cli.addSubcommand(new WmsBenchCommand());
        cli.addSubcommand(new UpstreamBenchCommand());
        return ExitCodes.reportErrors(cli);
    }

    /** Named {@code seeder} like the application's, since users run these as {@code seeder bench…}. */
    @CommandLine.Command(name = "seeder", mixinStandardHelpOptions = true, version = "Tile Seeder 0.1.0",
            description = "The Tile Seeder benchmarks.%nRun 'seeder COMMAND --help' for a command's options.")
    static final class SeederCommand implements Runnable {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public void run() {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "a command is required: bench, bench-coordinator or bench-wms");
        }
    }
}
