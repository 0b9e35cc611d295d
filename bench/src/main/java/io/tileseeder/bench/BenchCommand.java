package io.tileseeder.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tileseeder.app.Embedded;
import io.tileseeder.app.cli.CliArgs;
import io.tileseeder.app.cli.ExitCodes;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.server.Engine;
import io.tileseeder.worker.task.WorkerMetrics.Stage;
import io.tileseeder.worker.task.WorkerMetrics;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code seeder bench}: the end-to-end benchmark. Seeds a layer into a fresh temporary folder with each
 * thread count in turn, after one warm-up run, and prints tiles/s (median of the repeats) and where the
 * worker threads' time went.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, exitCodeOnInvalidInput = ExitCodes.USAGE,
        description = {"End-to-end benchmark of the embedded engine: seeds a layer into a temporary folder "
                + "with several thread counts and prints tiles/s and where the time went (render, encode, store).",
                "Run it through the seeder script, which caps the heap at 512 MB (SEEDER_JAVA_OPTS)."})
final class BenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--layer", defaultValue = "world", description = "Layer to seed (default: ${DEFAULT-VALUE}).")
    String layer;

    @Option(names = "--zoom", defaultValue = "0-7", paramLabel = "MIN-MAX", description = "Zoom levels (default: ${DEFAULT-VALUE}).")
    String zoom;

    @Option(names = "--format", defaultValue = "png", description = "Tile format (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--threads", split = ",", paramLabel = "N[,N…]",
            description = "Worker thread counts to compare (default: 1, 2, 4 and 8 x cores).")
    List<Integer> threads;

    @Option(names = "--repeat", defaultValue = "3", description = "Runs per thread count; the median is reported (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--layers", paramLabel = "FILE", description = "Layer configuration (default: the bundled one).")
    Path layers;

    @Option(names = "--tile-matrix-set", paramLabel = "ID", defaultValue = "WebMercatorQuad",
            description = "Tile matrix set of the layer (default: ${DEFAULT-VALUE}).")
    String tileMatrixSet;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        int cores = Runtime.getRuntime().availableProcessors();
        List<Integer> counts = threads != null ? threads : List.of(cores, 2 * cores, 4 * cores, 8 * cores);
        if (repeat < 1 || counts.stream().anyMatch(n -> n < 1)) {
            spec.commandLine().getErr().println("error: --repeat and --threads must be at least 1");
            return ExitCodes.USAGE;
        }
        JobRequest request = new JobRequest(layer, tileMatrixSet, CliArgs.zoom(spec, "--zoom", zoom), null, format,
                "seed", null, null, 0, Map.of());
        out.printf(Locale.ROOT, "bench: %s %s z%s %s, %d cores, max heap %d MB, %d run(s) per thread count%n", layer,
                tileMatrixSet, zoom, format, cores, Runtime.getRuntime().maxMemory() >> 20, repeat);
        run(request, counts.get(0));
        out.printf(Locale.ROOT, "%7s %8s %8s %9s %7s %7s %7s %7s %7s %13s%n", "threads", "tiles", "seconds",
                "tiles/s", "render", "encode", "store", "check", "lock", "live heap MB");
        for (int n : counts) {
            List<Result> results = new ArrayList<>();
            for (int i = 0; i < repeat; i++) {
                Result result = run(request, n);
                if (result.state != JobState.SUCCEEDED) {
                    spec.commandLine().getErr().println("error: benchmark job " + result.state);
                    return ExitCodes.FAILED;
                }
                results.add(result);
            }
            results.sort(Comparator.comparingDouble(Result::tilesPerSecond));
            Result median = results.get(results.size() / 2);
            double busy = Stream.of(Stage.values()).mapToDouble(s -> median.stages.get(s)).sum();
            out.printf(Locale.ROOT, "%7d %8d %8.2f %9.0f %6.0f%% %6.0f%% %6.0f%% %6.0f%% %6.0f%% %13d%n", n,
                    median.tiles, median.seconds, median.tilesPerSecond(),
                    100 * median.stages.get(Stage.RENDER) / busy, 100 * median.stages.get(Stage.ENCODE) / busy,
                    100 * median.stages.get(Stage.STORE) / busy, 100 * median.stages.get(Stage.CHECK) / busy,
                    100 * median.stages.get(Stage.LOCK) / busy, median.peakHeapMb);
            out.flush();
        }
        out.println("stage shares are of the worker threads' summed time; tiles/s is the median of the runs");
        return 0;
    }

    private Result run(JobRequest request, int threads) throws IOException, InterruptedException, ExecutionException {
        Path folder = Files.createTempDirectory("seeder-bench");
        HeapSampler heap = new HeapSampler();
        Map<String, String> overrides = new HashMap<>(Map.of("seeder.store.path", folder.toString(),
                "seeder.workers.threads", Integer.toString(threads)));
        if (layers != null) {
            overrides.put("seeder.layers.file", layers.toString());
        }
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (heap; Engine engine = Embedded.engine(Settings.from(Settings.config(overrides)), registry)) {
            long start = System.nanoTime();
            JobStatus job = engine.jobs().submit(request, null);
            JobStatus done = engine.jobs().awaitFinal(job.id(), Duration.ofHours(1)).orElseThrow().get();
            double seconds = (System.nanoTime() - start) / 1e9;
            return new Result(done.state(), done.counts().tiles(), seconds, WorkerMetrics.seconds(registry),
                    heap.peakMb());
        } finally {
            deleteTree(folder);
        }
    }

    static void deleteTree(Path folder) throws IOException {
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    private record Result(JobState state, long tiles, double seconds, Map<Stage, Double> stages, long peakHeapMb) {
        double tilesPerSecond() {
            return tiles / seconds;
        }
    }
}
