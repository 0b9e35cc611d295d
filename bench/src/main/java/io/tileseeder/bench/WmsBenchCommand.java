package io.tileseeder.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tileseeder.app.Embedded;
import io.tileseeder.app.cli.CliArgs;
import io.tileseeder.app.cli.ExitCodes;
import io.tileseeder.grid.Metatile;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.layer.LayerCatalogConfig;
import io.tileseeder.layer.LayerCatalogFile;
import io.tileseeder.layer.LayerConfig;
import io.tileseeder.layer.WmsSourceConfig;
import io.tileseeder.plan.JobSpecValidator;
import io.tileseeder.plan.MetatilePlan;
import io.tileseeder.plan.PlannedMetatile;
import io.tileseeder.render.wms.GetMap;
import io.tileseeder.runtime.settings.Settings.StoreSettings;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.server.Engine;
import io.tileseeder.worker.task.WorkerMetrics.Stage;
import io.tileseeder.worker.task.WorkerMetrics;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import io.tileseeder.port.Layout;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.ConnectionPool;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code seeder bench-wms}: how close seeding from an upstream WMS comes to the upstream's own rate. Each run
 * first sends the GetMap of every metatile of the job straight to the upstream (as many at once as the seeder's
 * per-upstream cap, bodies read and dropped), then seeds the same job into a fresh folder and, with
 * {@code --s3}, into a fresh S3 prefix. Prints the medians and the ratio of each seeding rate to the direct one.
 */
@Command(name = "bench-wms", mixinStandardHelpOptions = true, exitCodeOnInvalidInput = ExitCodes.USAGE,
        description = {"Seeding from an upstream WMS against direct GetMap requests for the same metatiles: "
                + "tiles/s of each and their ratio (bench/wms runs it against the dev MapServer)."})
final class WmsBenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--layers", required = true, paramLabel = "FILE", description = "Layer configuration with the wms layer.")
    Path layers;

    @Option(names = "--layer", required = true, description = "The wms layer to seed.")
    String layer;

    @Option(names = "--zoom", defaultValue = "0-7", paramLabel = "MIN-MAX", description = "Zoom levels (default: ${DEFAULT-VALUE}).")
    String zoom;

    @Option(names = "--tile-matrix-set", defaultValue = "WebMercatorQuad", description = "Default: ${DEFAULT-VALUE}.")
    String tileMatrixSet;

    @Option(names = "--repeat", defaultValue = "3", description = "Runs; medians are reported (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--threads", paramLabel = "N", description = "The seeder's worker threads (default: 2 x cores).")
    Integer threads;

    @Option(names = "--s3", paramLabel = "s3://BUCKET/PREFIX", description = "Also seed into S3, a fresh prefix per run.")
    String s3;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        LayerCatalogConfig catalog = LayerCatalogFile.read(layers);
        LayerConfig config = catalog.layer(layer).orElse(null);
        if (config == null || !(config.source() instanceof WmsSourceConfig source)) {
            spec.commandLine().getErr().println("error: --layer " + layer + " is not a wms layer of " + layers);
            return ExitCodes.USAGE;
        }
        Map<String, String> overrides = new HashMap<>(Map.of("seeder.layers.file", layers.toString()));
        if (threads != null) {
            overrides.put("seeder.workers.threads", Integer.toString(threads));
        }
        Settings settings = Settings.from(Settings.config(overrides));
        JobRequest request = new JobRequest(layer, tileMatrixSet, CliArgs.zoom(spec, "--zoom", zoom), null, "png",
                "seed", null, null, 0, Map.of());
        JobSpec job = new JobSpecValidator(catalog, settings.jobs().limits()).validate(request);
        List<HttpUrl> urls = new ArrayList<>();
        long tiles = 0;
        for (PlannedMetatile planned : MetatilePlan.of(job)) {
            Metatile metatile = planned.metatile();
            urls.add(GetMap.url(source, metatile.tileMatrixSet(), metatile.bounds(config.gutter()),
                    metatile.imageWidth(config.gutter()), metatile.imageHeight(config.gutter())));
            tiles += planned.tiles().count();
        }
        int cap = settings.workers().wmsRequestsPerUpstream();
        out.printf(Locale.ROOT, "bench-wms: %s z%s %s from %s: %d metatiles, %d tiles; %d requests at once, "
                        + "%d worker threads, %d cores; %d run(s)%n", layer, zoom, tileMatrixSet, source.upstream(),
                urls.size(), tiles, cap, settings.workers().threads(), Settings.cores(), repeat);
        out.printf(Locale.ROOT, "%-4s %-22s %9s %9s %8s %8s %8s %8s%n", "run", "what", "seconds", "tiles/s",
                "vs direct", "render", "encode", "store");
        List<Double> direct = new ArrayList<>();
        List<Double> file = new ArrayList<>();
        List<Double> bucket = new ArrayList<>();
        for (int run = 1; run <= repeat; run++) {
            double seconds = fetchAll(urls, cap, source.timeout());
            direct.add(seconds);
            out.printf(Locale.ROOT, "%-4d %-22s %9.2f %9.0f%n", run, "direct GetMap", seconds, tiles / seconds);
            out.flush();
            Path folder = Files.createTempDirectory("seeder-bench-wms");
            try {
                file.add(seed(out, run, "seed to a folder", storedAt(settings, folder.toString()), request, tiles,
                        seconds));
            } finally {
                BenchCommand.deleteTree(folder);
            }
            if (s3 != null) {
                String prefix = s3.replaceAll("/+$", "") + "/run-" + ProcessHandle.current().pid() + "-" + run;
                bucket.add(seed(out, run, "seed to S3", storedAt(settings, prefix), request, tiles, seconds));
            }
        }
        double directMedian = median(direct);
        out.printf(Locale.ROOT, "median: direct %.0f tiles/s; folder %.0f tiles/s (%.0f%%)", tiles / directMedian,
                tiles / median(file), 100 * directMedian / median(file));
        if (!bucket.isEmpty()) {
            out.printf(Locale.ROOT, "; S3 %.0f tiles/s (%.0f%%)", tiles / median(bucket),
                    100 * directMedian / median(bucket));
        }
        out.println();
        return 0;
    }

    private static Settings storedAt(Settings settings, String store) {
        return new Settings(new StoreSettings(store, settings.store().clouds(), Optional.empty(), Layout.XYZ), settings.layersFile(),
                settings.jobs(), settings.workers(), settings.outageBudget());
    }

    private double seed(PrintWriter out, int run, String what, Settings settings, JobRequest request, long tiles,
                        double directSeconds) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Engine engine = Embedded.engine(settings, registry)) {
            long start = System.nanoTime();
            JobStatus job = engine.jobs().submit(request, null);
            JobStatus done = engine.jobs().awaitFinal(job.id(), Duration.ofHours(1)).orElseThrow().get();
            double seconds = (System.nanoTime() - start) / 1e9;
            if (done.state() != JobState.SUCCEEDED) {
                throw new IllegalStateException("the benchmark job " + done.state() + ": " + done.reason());
            }
            Map<Stage, Double> stages = WorkerMetrics.seconds(registry);
            double busy = stages.values().stream().mapToDouble(Double::doubleValue).sum();
            out.printf(Locale.ROOT, "%-4d %-22s %9.2f %9.0f %8.0f%% %7.0f%% %7.0f%% %7.0f%%%n", run, what, seconds,
                    tiles / seconds, 100 * directSeconds / seconds, 100 * stages.get(Stage.RENDER) / busy,
                    100 * stages.get(Stage.ENCODE) / busy, 100 * stages.get(Stage.STORE) / busy);
            out.flush();
            return seconds;
        }
    }

    /** Sends every GetMap, {@code parallel} at once over kept-alive connections; the seconds it took. */
    private static double fetchAll(List<HttpUrl> urls, int parallel, Duration timeout) throws Exception {
        OkHttpClient http = new OkHttpClient.Builder().callTimeout(timeout).readTimeout(timeout)
                .connectionPool(new ConnectionPool(parallel, 1, TimeUnit.MINUTES)).build();
        AtomicInteger next = new AtomicInteger();
        AtomicLong bytes = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(parallel);
        try {
            long start = System.nanoTime();
            List<Future<Void>> clients = new ArrayList<>();
            for (int i = 0; i < parallel; i++) {
                clients.add(pool.submit(() -> {
                    for (int n = next.getAndIncrement(); n < urls.size(); n = next.getAndIncrement()) {
                        try (Response response = http.newCall(new Request.Builder().url(urls.get(n)).build()).execute();
                             InputStream body = response.body().byteStream()) {
                            String type = response.header("Content-Type", "");
                            if (response.code() != 200 || !type.startsWith("image/")) {
                                throw new IOException(urls.get(n) + " answered " + response.code() + " " + type);
                            }
                            bytes.addAndGet(body.transferTo(java.io.OutputStream.nullOutputStream()));
                        }
                    }
                    return null;
                }));
            }
            for (Future<Void> client : clients) {
                client.get();
            }
            return (System.nanoTime() - start) / 1e9;
        } finally {
            pool.shutdownNow();
            http.connectionPool().evictAll();
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
