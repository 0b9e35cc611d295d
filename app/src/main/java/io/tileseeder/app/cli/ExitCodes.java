package io.tileseeder.app.cli;

import io.tileseeder.job.JobState;
import picocli.CommandLine;

/**
 * Exit statuses of the command line, the same for every command that waits on a job. Public for the benchmark
 * commands (module {@code bench}), which the seeder script runs as {@code seeder bench…} with the same statuses.
 */
public final class ExitCodes {

    public static final int SUCCEEDED = 0;
    /** Bad usage or a refused request. */
    public static final int USAGE = 1;
    public static final int FAILED = 2;
    public static final int CANCELLED = 3;
    public static final int TIMED_OUT = 4;
    /** The job store lost the job's record (a Redis that came back without its data): submit it again. */
    public static final int LOST = 5;

    private ExitCodes() {
    }

    static int of(JobState state) {
        return switch (state) {
            case SUCCEEDED -> SUCCEEDED;
            case FAILED -> FAILED;
            case CANCELLED -> CANCELLED;
            case LOST -> LOST;
            default -> TIMED_OUT;
        };
    }

    /**
     * Makes bad usage and a command's failure print one {@code error:} line and exit with {@link #USAGE}; an option
     * value that is not of its kind (a number, an instant) is named as {@code --option: what is wrong}. Call it once
     * the subcommands are added.
     */
    public static CommandLine reportErrors(CommandLine cli) {
        Converters.register(cli);
        cli.setParameterExceptionHandler((e, args) -> {
            CommandLine line = e.getCommandLine();
            String message = e.getCause() instanceof CommandLine.TypeConversionException conversion
                    && e.getArgSpec() instanceof CommandLine.Model.OptionSpec option
                    ? option.longestName() + ": " + conversion.getMessage() : e.getMessage();
            line.getErr().println("error: " + message);
            line.getErr().println("Run '" + line.getCommandSpec().qualifiedName() + " --help' for the options.");
            return USAGE;
        });
        cli.setExecutionExceptionHandler((e, line, parsed) -> {
            line.getErr().println("error: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return USAGE;
        });
        return cli;
    }
}
