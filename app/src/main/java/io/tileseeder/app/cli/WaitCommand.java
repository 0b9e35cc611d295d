package io.tileseeder.app.cli;

import io.tileseeder.job.Mode;
import io.tileseeder.job.Timeouts;
import io.tileseeder.server.api.JobView;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code seeder wait}: waits for a job on a server to finish and exits with its final state, the gate a
 * pipeline puts between seeding and what needs the tiles. Needs no engine of its own.
 */
@Command(name = "wait", mixinStandardHelpOptions = true, exitCodeOnInvalidInput = ExitCodes.USAGE,
        description = {"Waits for a job on a Tile Seeder server to finish, showing its progress on stderr now and then.",
                "Sends SEEDER_TOKEN, if set, as its bearer token (a token with role read).",
                "A server that cannot be reached or is unavailable (restarting) is asked again, with pauses of up to "
                        + "16 s, until --timeout or for at most 10 minutes.",
                "Exit status: 0 succeeded, 1 bad usage, refused request or server not reachable, 2 failed, "
                        + "3 cancelled, 4 timed out (the job keeps running), 5 lost (the server's job store lost its "
                        + "record: submit it again)."})
final class WaitCommand implements Callable<Integer> {

    /** The longest single long-poll: also how often a progress line is printed. Within the server's max-wait. */
    static final Duration POLL = Duration.ofMinutes(1);
    /** Pauses while the server cannot be reached or is unavailable: doubling up to the longest. */
    private static final Duration FIRST_PAUSE = Duration.ofSeconds(1);
    private static final Duration LONGEST_PAUSE = Duration.ofSeconds(16);
    /** How long the server may stay unreachable or unavailable before waiting gives up. */
    private static final Duration OUTAGE_BUDGET = Duration.ofMinutes(10);

    private final String token;

    @Spec
    CommandSpec spec;

    @Option(names = "--server", required = true, paramLabel = "URL",
            description = "The server's base URL, e.g. http://localhost:8080.")
    String server;

    @Option(names = "--timeout", paramLabel = "DURATION",
            description = "Give up after this long (e.g. 90s, 30m, 2h) with exit status 4; the job is not cancelled "
                    + "(default: wait as long as it takes).")
    String timeout;

    @Parameters(index = "0", paramLabel = "JOB_ID", description = "The job to wait for (as 'seeder submit' printed it).")
    String id;

    /** {@code token}: the API token to send ({@code SEEDER_TOKEN}), or null. */
    WaitCommand(String token) {
        this.token = token;
    }

    @Override
    public Integer call() throws InterruptedException {
        Duration limit = timeout(spec, timeout);
        try (ApiClient api = client(spec, server, token)) {
            return await(api, id, limit, timeout, spec.commandLine().getErr());
        } catch (ApiClient.ApiException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return ExitCodes.USAGE;
        }
    }

    /** Parses {@code --timeout}; null when there is none. */
    static Duration timeout(CommandSpec spec, String text) {
        if (text == null) {
            return null;
        }
        try {
            return Timeouts.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--timeout: " + e.getMessage());
        }
    }

    /** A client of the server at {@code --server}, sending {@code token} (or none if null). */
    static ApiClient client(CommandSpec spec, String server, String token) {
        try {
            return ApiClient.of(server, token);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--server: " + e.getMessage());
        }
    }

    /**
     * Long-polls the job until it is final or {@code limit} (if any) has passed, printing its progress to
     * {@code err} after every poll that did not end it; returns the exit status.
     *
     * @throws ApiClient.ApiException when a poll is refused; a server that is unreachable or unavailable (502, 503,
     *                                504: restarting, or waiting out an outage), whether it answered before or
     *                                not yet, is asked again with backoff, until {@code limit} or for at most
     *                                10 minutes
     */
    static int await(ApiClient api, String id, Duration limit, String limitText, PrintWriter err)
            throws ApiClient.ApiException, InterruptedException {
        Instant deadline = limit == null ? null : Instant.now().plus(limit);
        Duration pause = FIRST_PAUSE;
        Instant unavailableSince = null;
        while (true) {
            Duration poll = POLL;
            if (deadline != null) {
                Duration left = Duration.between(Instant.now(), deadline);
                poll = left.compareTo(poll) < 0 ? left : poll;
            }
            JobView job;
            try {
                job = api.await(id, poll);
                pause = FIRST_PAUSE;
                unavailableSince = null;
            } catch (ApiClient.ApiException e) {
                Instant now = Instant.now();
                unavailableSince = unavailableSince == null ? now : unavailableSince;
                if (!e.unavailable() || deadline != null && !now.plus(pause).isBefore(deadline)
                        || Duration.between(unavailableSince, now).compareTo(OUTAGE_BUDGET) > 0) {
                    throw e;
                }
                // The server restarting, or waiting out an outage of its own: a pause, not the job's end.
                err.println("job " + id + ": " + e.getMessage() + "; asking again in " + pause.toSeconds() + " s");
                err.flush();
                Thread.sleep(pause);
                pause = pause.multipliedBy(2).compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : pause.multipliedBy(2);
                continue;
            }
            if (job.state().isFinal()) {
                err.println("job " + job.id() + " " + job.state() + ": " + outcome(job));
                if (job.state() != io.tileseeder.job.JobState.SUCCEEDED) {
                    err.println("error: job " + job.id() + " " + job.state()
                            + (job.reason() == null || job.reason().isBlank() ? "" : ": " + job.reason()));
                }
                err.flush();
                return ExitCodes.of(job.state());
            }
            if (deadline != null && !Instant.now().isBefore(deadline)) {
                err.println("error: timed out after " + limitText + "; job " + job.id() + " is still " + job.state()
                        + percent(job) + " on the server");
                err.flush();
                return ExitCodes.TIMED_OUT;
            }
            err.println("job " + job.id() + ": " + (job.progress() == null ? job.state() : Summary.progressLine(job)));
            err.flush();
        }
    }

    /** The job's counts and time, as the line that ends a wait shows them. */
    static String outcome(JobView job) {
        JobView.Progress p = job.progress();
        if (p == null) {
            return "no progress reported";
        }
        double seconds = job.started() == null || job.finished() == null ? 0
                : Duration.between(job.started(), job.finished()).toMillis() / 1000.0;
        String skipped = Mode.byId(job.spec().mode()).map(Summary::skipped).orElse("skipped");
        return String.format(Locale.ROOT, "%,d of %,d tiles (%,d written, %,d empty, %,d %s, %,d unchanged, "
                        + "%,d deleted, %,d failed) in %.1f s", p.tilesDone(), p.tilesPlanned(), p.tilesWritten(),
                p.tilesEmpty(), p.tilesSkipped(), skipped, p.tilesUnchanged(), p.tilesDeleted(), p.tilesFailed(),
                seconds);
    }

    private static String percent(JobView job) {
        return job.progress() == null ? "" : String.format(Locale.ROOT, " (%.1f%%)", job.progress().percent());
    }
}
