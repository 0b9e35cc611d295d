package io.tileseeder.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tileseeder.app.Embedded;
import io.tileseeder.app.cli.CliArgs;
import io.tileseeder.app.cli.ExitCodes;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.Timeouts;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.server.Engine;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code seeder bench-upstream}: the adaptive window against a sweep of fixed ones, on an upstream whose best
 * concurrency the seeder is not told: the dev WMS behind a {@link ModelUpstream} of a few processes. Seeds one job with
 * each fixed window, then with the adaptive one below the cluster limit, and prints the tiles/s of each, the most
 * GetMaps the upstream saw at once, and the adaptive window's share of the best fixed one's rate.
 */
@Command(name = "bench-upstream", mixinStandardHelpOptions = true, exitCodeOnInvalidInput = ExitCodes.USAGE,
        description = {"The adaptive upstream window against fixed ones, on the dev WMS made to behave like a server "
                + "of a few processes (bench/upstream runs it)."})
final class UpstreamBenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--wms", required = true, paramLabel = "URL", description = "The real WMS behind the model.")
    URI wms;

    @Option(names = "--processes", defaultValue = "4", description = "Requests the model draws at once (default: ${DEFAULT-VALUE}).")
    int processes;

    @Option(names = "--drawing", defaultValue = "150ms", paramLabel = "DURATION",
            description = "The model's time per request (default: ${DEFAULT-VALUE}).")
    String drawing;

    @Option(names = "--thrash", defaultValue = "0.05",
            description = "How much slower each request is drawn per request in flight beyond the processes (default: ${DEFAULT-VALUE}).")
    double thrash;

    @Option(names = "--zoom", defaultValue = "0-5", paramLabel = "MIN-MAX", description = "Zoom levels (default: ${DEFAULT-VALUE}).")
    String zoom;

    @Option(names = "--fixed", defaultValue = "1,2,3,4,6,8,12,16", split = ",", paramLabel = "N",
            description = "The fixed windows of the sweep (default: ${DEFAULT-VALUE}).")
    List<Integer> fixed;

    @Option(names = "--cluster-limit", defaultValue = "16", description = "The limit the adaptive window stays below (default: ${DEFAULT-VALUE}).")
    int clusterLimit;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Duration draw = Timeouts.parse(drawing);
        int threads = Math.max(clusterLimit, fixed.stream().mapToInt(Integer::intValue).max().orElse(1));
        try (ModelUpstream model = new ModelUpstream(wms, processes, draw, thrash)) {
            Path layers = Files.createTempFile("seeder-bench-upstream", ".yaml");
            Files.writeString(layers, """
                    layers:
                      - name: world-wms
                        zoom: {min: 0, max: 14}
                        metatile: {width: 2, height: 2}
                        emptyTiles: skip
                        source: {type: wms, url: "%s", layers: [world], format: image/png, timeout: 60s}
                    """.formatted(model.url()));
            JobRequest request = new JobRequest("world-wms", "WebMercatorQuad", CliArgs.zoom(spec, "--zoom", zoom),
                    null, "png", "seed", null, null, 0, Map.of());
            out.printf(Locale.ROOT, "bench-upstream: world z%s, 2x2 metatiles, from %s behind a model of %d processes, "
                    + "%d ms a request, %.0f%% slower per request beyond; %d worker threads, %d cores%n", zoom, wms,
                    processes, draw.toMillis(), 100 * thrash, threads, Settings.cores());
            out.printf(Locale.ROOT, "%-16s %9s %9s %12s%n", "window", "seconds", "tiles/s", "most at once");
            double best = 0;
            int bestWindow = 0;
            for (int window : fixed) {
                double rate = seed(out, "fixed " + window, layers, request, threads, Map.of(
                        "seeder.wms.max-requests-per-upstream", Integer.toString(window),
                        "seeder.wms.adaptive", "false"), model);
                if (rate > best) {
                    best = rate;
                    bestWindow = window;
                }
            }
            double adaptive = seed(out, "adaptive <= " + clusterLimit, layers, request, threads, Map.of(
                    "seeder.wms.max-requests-per-upstream", Integer.toString(clusterLimit),
                    "seeder.wms.cluster-requests-per-upstream", Integer.toString(clusterLimit),
                    "seeder.wms.adaptive", "true"), model);
            out.printf(Locale.ROOT, "adaptive: %.1f tiles/s, %.0f%% of the best fixed window (%d: %.1f tiles/s)%n",
                    adaptive, 100 * adaptive / best, bestWindow, best);
            Files.delete(layers);
        }
        return 0;
    }

    private double seed(PrintWriter out, String what, Path layers, JobRequest request, int threads,
                        Map<String, String> wms, ModelUpstream model) throws Exception {
        Path folder = Files.createTempDirectory("seeder-bench-upstream");
        try {
            Map<String, String> overrides = new HashMap<>(wms);
            overrides.put("seeder.layers.file", layers.toString());
            overrides.put("seeder.store.path", folder.toString());
            overrides.put("seeder.workers.threads", Integer.toString(threads));
            Settings settings = Settings.from(Settings.config(overrides));
            model.mostAndReset();
            try (Engine engine = Embedded.engine(settings, new SimpleMeterRegistry())) {
                long start = System.nanoTime();
                JobStatus job = engine.jobs().submit(request, null);
                JobStatus done = engine.jobs().awaitFinal(job.id(), Duration.ofHours(1)).orElseThrow().get();
                double seconds = (System.nanoTime() - start) / 1e9;
                if (done.state() != JobState.SUCCEEDED) {
                    throw new IllegalStateException("the benchmark job " + done.state() + ": " + done.reason());
                }
                double rate = done.counts().tiles() / seconds;
                out.printf(Locale.ROOT, "%-16s %9.2f %9.1f %12d%n", what, seconds, rate, model.mostAndReset());
                out.flush();
                return rate;
            }
        } finally {
            BenchCommand.deleteTree(folder);
        }
    }
}
