package io.tileseeder.app.cli;

import io.tileseeder.job.JobRequest;
import io.tileseeder.server.api.JobView;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code seeder submit}: sends a job to a server and prints its id; with {@code --wait}, also waits for it
 * and exits with its final state; with {@code --dry-run}, prints the server's estimate of it instead. Needs no
 * engine of its own.
 */
@Command(name = "submit", mixinStandardHelpOptions = true, exitCodeOnInvalidInput = ExitCodes.USAGE,
        description = {"Submits a job to a Tile Seeder server and prints its id on stdout (one line); with --wait, "
                + "waits for it to finish, showing its progress on stderr now and then.",
                "Sends SEEDER_TOKEN, if set, as its bearer token (a token with role write).",
                "Exit status: 0 submitted (or, with --wait, succeeded), 1 bad usage, refused request or server not "
                        + "reachable, 2 failed, 3 cancelled, 4 timed out (the job keeps running), 5 lost (the server's "
                        + "job store lost its record: submit it again)."})
final class SubmitCommand implements Callable<Integer> {

    private final String token;

    @Spec
    CommandSpec spec;

    @Option(names = "--server", required = true, paramLabel = "URL",
            description = "The server's base URL, e.g. http://localhost:8080.")
    String server;

    @Mixin
    JobOptions job;

    @Option(names = "--priority", defaultValue = "0", paramLabel = "N",
            description = "Higher runs first: the job's tasks are queued only while no job of higher priority is "
                    + "planned, and queued jobs start in this order; equal ones share the workers "
                    + "(default: ${DEFAULT-VALUE}).")
    int priority;

    @Option(names = "--archive", paramLabel = "ARCHIVE",
            description = "With --mode pack: the PMTiles archive the finished cache is packed into, a path ending in "
                    + ".pmtiles on the workers' disk or a store URL s3://, az:// or gs://BUCKET/NAME.pmtiles.")
    String archive;

    @Option(names = "--idempotency-key", paramLabel = "KEY",
            description = "Makes a retried submission with the same key return the same job instead of a new one.")
    String idempotencyKey;

    @Option(names = "--wait", description = "Wait for the job to finish and exit with its final state.")
    boolean await;

    @Option(names = "--dry-run", description = "Submit nothing: print the job's tiles and metatiles per zoom and an "
            + "estimate of its bytes and time, from a sample of its metatiles the server renders.")
    boolean dryRun;

    @Option(names = "--timeout", paramLabel = "DURATION",
            description = "With --wait: give up after this long (e.g. 90s, 30m, 2h) with exit status 4; the job is not "
                    + "cancelled (default: wait as long as it takes).")
    String timeout;

    /** {@code token}: the API token to send ({@code SEEDER_TOKEN}), or null. */
    SubmitCommand(String token) {
        this.token = token;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (timeout != null && !await) {
            throw new ParameterException(spec.commandLine(), "--timeout applies only with --wait");
        }
        if (dryRun && (await || idempotencyKey != null)) {
            throw new ParameterException(spec.commandLine(), "--dry-run submits nothing: it takes neither --wait nor "
                    + "--idempotency-key");
        }
        Duration limit = WaitCommand.timeout(spec, timeout);
        JobRequest request = job.request(spec, priority, archive);
        PrintWriter err = spec.commandLine().getErr();
        try (ApiClient api = WaitCommand.client(spec, server, token)) {
            if (dryRun) {
                DryRunTable.print(spec.commandLine().getOut(), api.dryRun(request));
                return ExitCodes.SUCCEEDED;
            }
            JobView submitted = api.submit(request, idempotencyKey);
            PrintWriter out = spec.commandLine().getOut();
            out.println(submitted.id());
            out.flush();
            return await ? WaitCommand.await(api, submitted.id(), limit, timeout, err) : ExitCodes.SUCCEEDED;
        } catch (ApiClient.ApiException e) {
            err.println("error: " + e.getMessage());
            return ExitCodes.USAGE;
        }
    }
}
