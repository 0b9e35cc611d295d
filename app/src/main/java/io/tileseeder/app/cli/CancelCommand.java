package io.tileseeder.app.cli;

import io.tileseeder.server.api.JobView;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code seeder cancel}: cancels a job on a server ({@code DELETE /api/v1/jobs/{id}}) and prints its final state.
 * A job that had finished already is not an error: its state is printed as it finished. Needs no engine of its own.
 */
@Command(name = "cancel", mixinStandardHelpOptions = true, exitCodeOnInvalidInput = ExitCodes.USAGE,
        description = {"Cancels a job on a Tile Seeder server (a queued job never starts, a running one stops) and "
                + "prints its final state on stdout (one line).",
                "Sends SEEDER_TOKEN, if set, as its bearer token (a token with role write).",
                "Exit status: 0 cancelled, or finished already; 1 bad usage, refused request, unknown job or server "
                        + "not reachable."})
final class CancelCommand implements Callable<Integer> {

    private final String token;

    @Spec
    CommandSpec spec;

    @Option(names = "--server", required = true, paramLabel = "URL",
            description = "The server's base URL, e.g. http://localhost:8080.")
    String server;

    @Parameters(index = "0", paramLabel = "JOB_ID", description = "The job to cancel (as 'seeder submit' printed it).")
    String id;

    /** {@code token}: the API token to send ({@code SEEDER_TOKEN}), or null. */
    CancelCommand(String token) {
        this.token = token;
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        try (ApiClient api = WaitCommand.client(spec, server, token)) {
            ApiClient.Cancelled cancelled = api.cancel(id);
            JobView job = cancelled.job();
            out.println("job " + job.id() + (cancelled.finishedBefore() ? " had finished already: " : " ")
                    + job.state() + ": " + WaitCommand.outcome(job));
            out.flush();
            return ExitCodes.SUCCEEDED;
        } catch (ApiClient.ApiException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return ExitCodes.USAGE;
        }
    }
}
