package io.tileseeder.app.cli;

import io.tileseeder.app.Embedded;
import io.tileseeder.coordinator.job.JobService;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.FieldError;
import io.tileseeder.job.InvalidJobException;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.Mode;
import io.tileseeder.job.Timeouts;
import io.tileseeder.layer.LayerConfigException;
import io.tileseeder.port.TileCache;
import io.tileseeder.runtime.wiring.ArchivePacking;
import io.tileseeder.server.Engine;
import io.tileseeder.server.Engines;
import io.tileseeder.server.api.JobView;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code seeder seed}: seeds a layer on this machine with the embedded engine, with a live progress line. */
@Command(name = "seed", mixinStandardHelpOptions = true, exitCodeOnInvalidInput = ExitCodes.USAGE,
        description = {"Seeds the tiles of a layer into a folder, on this machine, with no servers.",
                "Ctrl-C (or SIGTERM) cancels the job, waits for the tiles being written and prints the summary; "
                        + "a second Ctrl-C quits at once.",
                "Exit status: 0 succeeded, 1 bad usage or request, 2 failed, 3 cancelled, 4 timed out."})
final class SeedCommand implements Callable<Integer> {

    private static final Duration REFRESH = Duration.ofMillis(250);
    private static final Duration LOG_EVERY = Duration.ofSeconds(10);
    /** How long a stopped job may take to finish the tiles being written before the summary is printed. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(30);

    private final Engines engines;

    @Spec
    CommandSpec spec;

    @Mixin
    EngineOptions engine;

    @Mixin
    JobOptions job;

    @Option(names = "--timeout", paramLabel = "DURATION",
            description = "Give up after this long (e.g. 90s, 30m, 2h): the job is cancelled and the exit status is 4.")
    String timeout;

    @Option(names = "--pack", paramLabel = "ARCHIVE.pmtiles",
            description = "Once the job succeeded, packs the cache it seeded into one PMTiles archive, a file or "
                    + "an object in a bucket (s3://, az://, gs://), as 'seeder pack' does (WebMercatorQuad, one cache); the exit "
                    + "status is then the pack's.")
    String pack;

    SeedCommand(Engines engines) {
        this.engines = engines;
    }

    @Override
    public Integer call() throws InterruptedException {
        Instant deadline = null;
        if (timeout != null) {
            try {
                deadline = Instant.now().plus(Timeouts.parse(timeout));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--timeout: " + e.getMessage());
            }
        }
        if (Mode.PACK.id().equals(job.mode)) {
            throw new ParameterException(spec.commandLine(), "--mode pack: on this machine, `seeder pack CACHE "
                    + "ARCHIVE.pmtiles` packs a finished cache and `seed --pack ARCHIVE.pmtiles` packs the one it "
                    + "seeds; `seeder submit --mode pack --archive ARCHIVE.pmtiles` sends a pack job to a server");
        }
        JobRequest request = job.request(spec, 0, null);
        ArchivePacking.Target target = null;
        if (pack != null) {
            try {
                target = ArchivePacking.Target.of(pack, null, "--pack");
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        Engine running;
        try {
            running = engines.start(engine.apply(engines.settings()), Embedded::engine);
        } catch (LayerConfigException | IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        JobService jobs = running.jobs();
        // In place before the job is submitted, so that no signal finds the job running without it: one that comes
        // before the job exists has it cancelled as soon as it does.
        AtomicReference<String> submitted = new AtomicReference<>();
        String id;
        JobStatus done;
        boolean interrupted;
        try (Interruption interruption = Interruption.onSignals(() -> interrupt(running, submitted.get(), err))) {
            try {
                if (target != null) {
                    packable(jobs.check(request)).ifPresent(why -> {
                        throw new InvalidJobException(List.of(new FieldError("pack", why)));
                    });
                }
                id = jobs.submit(request, null).id();
            } catch (InvalidJobException e) {
                err.println("error: " + e.getMessage());
                return ExitCodes.USAGE;
            }
            submitted.set(id);
            done = follow(running, id, err, deadline, interruption);
            interrupted = interruption.requested();
        }
        boolean timedOut = !interrupted && !done.state().isFinal();
        if (interrupted || timedOut) {
            done = stopped(running, id);
        }
        Summary.print(out, done, running.store().describe());
        if (done.state() == JobState.CANCELLED && timedOut) {
            err.println("error: timed out after " + timeout + "; the job was cancelled");
            return ExitCodes.TIMED_OUT;
        }
        if (done.state() == JobState.CANCELLED && interrupted) {
            err.println("error: interrupted; the job was cancelled");
            return ExitCodes.CANCELLED;
        }
        if (done.reason() != null) {
            err.println("error: job " + done.state() + ": " + done.reason());
        }
        if (target != null && done.state() == JobState.SUCCEEDED) {
            JobSpec seeded = done.spec();
            return Packing.pack(running.settings(), running.store(), new TileCache(seeded.layer(),
                    seeded.tileMatrixSet(), seeded.combinations().get(0)), seeded.format().id(),
                    ArchivePacking.READERS, target, out, err);
        }
        return ExitCodes.of(done.state());
    }

    /** Why the job's cache cannot be packed after it, or empty if it can. */
    private static Optional<String> packable(JobSpec job) {
        if (!job.tileMatrixSet().equals(TileMatrixSet.WEB_MERCATOR_QUAD)) {
            return Optional.of("PMTiles holds WebMercatorQuad tiles; the job seeds " + job.tileMatrixSet().id());
        }
        if (job.mode() == Mode.TRUNCATE) {
            return Optional.of("a truncate leaves no tiles to pack");
        }
        if (job.combinationCount() != 1) {
            return Optional.of("the job seeds " + job.combinationCount() + " caches (one per combination of its "
                    + "dimension values); pack each with 'seeder pack'");
        }
        return Optional.empty();
    }

    /**
     * What Ctrl-C or SIGTERM does while the job runs: cancels it through the engine, as {@code DELETE
     * /api/v1/jobs/{id}} does, so that the command ends as a cancelled job does. Run on the signal's thread;
     * {@code id} is null before the job is submitted, which then cancels it at once.
     */
    private static void interrupt(Engine running, String id, PrintWriter err) {
        err.println();
        err.println("interrupted: cancelling the job and waiting for the tiles being written (Ctrl-C again quits "
                + "at once)");
        err.flush();
        if (id != null) {
            running.jobs().cancel(id);
        }
    }

    /**
     * Cancels the job (a final one stays as it is) and waits, at most {@link #STOP_WAIT}, until no worker writes a
     * tile of it any more; returns it as it is then.
     */
    private static JobStatus stopped(Engine running, String id) throws InterruptedException {
        JobService jobs = running.jobs();
        jobs.cancel(id);
        try {
            return jobs.awaitFinal(id, STOP_WAIT).orElseThrow().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot follow job " + id, e.getCause());
        }
    }

    /**
     * Shows progress until the job is final, a signal interrupts it, or the deadline (if any) passes; returns its
     * last state. Takes the engine, not its job service: picocli reads every method's signature of a command, in
     * the worker's image too, which carries no coordinator classes.
     */
    private JobStatus follow(Engine running, String id, PrintWriter err, Instant deadline, Interruption interruption)
            throws InterruptedException {
        JobService jobs = running.jobs();
        boolean terminal = System.console() != null;
        Instant lastLog = Instant.now();
        while (true) {
            JobStatus status;
            try {
                status = jobs.awaitFinal(id, REFRESH).orElseThrow().get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("cannot follow job " + id, e.getCause());
            }
            if (terminal) {
                err.print("\r" + Summary.progressLine(JobView.of(status, Instant.now(), running.waitingFor(status), Map.of())) + "\u001b[K");
                err.flush();
            } else if (Duration.between(lastLog, Instant.now()).compareTo(LOG_EVERY) >= 0) {
                err.println(Summary.progressLine(JobView.of(status, Instant.now(), running.waitingFor(status), Map.of())));
                err.flush();
                lastLog = Instant.now();
            }
            if (status.state().isFinal() || interruption.requested()
                    || deadline != null && Instant.now().isAfter(deadline)) {
                if (terminal) {
                    err.println();
                }
                return status;
            }
        }
    }

}
