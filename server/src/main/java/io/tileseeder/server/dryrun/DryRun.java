package io.tileseeder.server.dryrun;

import io.tileseeder.grid.TileCoord;
import io.tileseeder.job.FieldError;
import io.tileseeder.job.InvalidJobException;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TooManyJobsException;
import io.tileseeder.layer.LayerCatalogConfig;
import io.tileseeder.layer.LayerConfig;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.plan.MetatilePlan;
import io.tileseeder.plan.PlannedMetatile;
import io.tileseeder.render.LayerResources;
import io.tileseeder.render.MetatileRenderer;
import io.tileseeder.render.wms.WmsClient;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;

/**
 * What a job would do, without doing it: its tiles and metatiles per zoom, and an estimate of its bytes and time from
 * rendering and encoding a sample of its metatiles with the workers' {@link MetatileRenderer} (no lock, no task).
 * The sample is spread over the zoom levels in proportion to their metatiles, at least one per zoom, evenly over
 * each zoom's rows; each zoom's figures are its sample's means times its metatiles. The tile store is neither read
 * nor written, so a {@code seed} job is estimated as if none of its tiles existed yet whatever the store holds (the
 * same job again after seeding it estimates the same), and a {@code truncate} job renders nothing. One dry run at a
 * time per process: it takes a CPU of the coordinator for as long as its sample renders.
 */
public final class DryRun {

    /**
     * One zoom level.
     *
     * @param sampledMetatiles metatiles rendered for the estimate
     * @param bytes            the tiles' estimated encoded bytes
     * @param tilesWritten     tiles estimated to be stored (the others empty and skipped by the layer's policy)
     * @param renderSeconds    the estimated time to render and encode every metatile of the zoom, one after the other
     */
    public record Zoom(int zoom, long tiles, long metatiles, int sampledMetatiles, long bytes, long tilesWritten,
                       double renderSeconds) {
    }

    /**
     * The whole job.
     *
     * @param renderSeconds the time to render and encode every metatile on one thread
     * @param seconds       that time over {@code parallelism} (store and queue not counted: about the time one
     *                      worker process takes, to divide by the workers)
     * @param parallelism   the metatiles one worker process renders at once: its threads, at most the cores of
     *                      this process
     * @param sampleSeconds how long the sample took
     */
    public record Estimate(JobRequest spec, long tiles, long metatiles, long bytes, long tilesWritten,
                           double renderSeconds, double seconds, int parallelism, int sampledMetatiles,
                           double sampleSeconds, List<Zoom> zooms) {
    }

    private final MetatileRenderer renderer;
    private final int samples;
    private final int parallelism;
    private final Semaphore running = new Semaphore(1);

    /**
     * @param samples       metatiles rendered per dry run, besides the one each zoom level gets at least
     * @param workerThreads metatiles a worker process renders at once; the time estimate divides by them, or by the
     *                      cores of this process if fewer
     */
    public DryRun(LayerCatalogConfig layers, int wmsRequestsPerUpstream, int samples, int workerThreads) {
        if (samples < 0 || workerThreads < 1) {
            throw new IllegalArgumentException("need samples >= 0 and workerThreads >= 1, not " + samples + " and "
                    + workerThreads);
        }
        this.renderer = new MetatileRenderer(new LayerResources(layers, new WmsClient(wmsRequestsPerUpstream)));
        this.samples = samples;
        this.parallelism = Math.min(workerThreads, Runtime.getRuntime().availableProcessors());
    }

    /**
     * Estimates the job.
     *
     * @throws TooManyJobsException when another dry run is in progress
     * @throws IOException          when the layer's data cannot be read or its upstream WMS fails, as the job would
     * @throws InvalidJobException   for a pack job, which renders nothing to estimate
     */
    public Estimate estimate(JobSpec spec) throws IOException, InterruptedException {
        if (spec.mode() == Mode.PACK) {
            throw new InvalidJobException(List.of(new FieldError("mode", "a dry run estimates rendering; a pack "
                    + "renders nothing")));
        }
        if (!running.tryAcquire()) {
            throw new TooManyJobsException("a dry run is in progress; try again when it is done");
        }
        try {
            return sample(spec);
        } finally {
            running.release();
        }
    }

    private Estimate sample(JobSpec spec) throws IOException, InterruptedException {
        long start = System.nanoTime();
        MetatilePlan plan = MetatilePlan.of(spec);
        long metatiles = plan.taskCount();
        List<Zoom> zooms = new ArrayList<>();
        long firstSeq = 0;
        int sampled = 0;
        for (int z = spec.minZoom(); z <= spec.maxZoom(); z++) {
            long count = plan.taskCount(z);
            int k = spec.mode() == Mode.TRUNCATE ? 0
                    : (int) Math.min(count, Math.max(1, Math.round((double) samples * count / metatiles)));
            Zoom zoom = zoom(spec, plan, z, firstSeq, count, k);
            zooms.add(zoom);
            sampled += k;
            firstSeq += count;
        }
        long tiles = zooms.stream().mapToLong(Zoom::tiles).sum();
        long bytes = zooms.stream().mapToLong(Zoom::bytes).sum();
        long written = zooms.stream().mapToLong(Zoom::tilesWritten).sum();
        double render = zooms.stream().mapToDouble(Zoom::renderSeconds).sum();
        return new Estimate(spec.toRequest(), tiles, metatiles, bytes, written, round(render),
                round(render / parallelism), parallelism, sampled, round((System.nanoTime() - start) / 1e9),
                List.copyOf(zooms));
    }

    /** Renders {@code k} metatiles of zoom {@code z}, spread evenly over its {@code count}, and scales them up. */
    private Zoom zoom(JobSpec spec, MetatilePlan plan, int z, long firstSeq, long count, int k)
            throws IOException, InterruptedException {
        long tiles = plan.tileCount(z);
        if (k == 0) {
            return new Zoom(z, tiles, count, 0, 0, spec.mode() == Mode.TRUNCATE ? 0 : tiles, 0);
        }
        LayerConfig layer = renderer.layers().layer(spec.layer());
        long sampleTiles = 0;
        long sampleBytes = 0;
        long sampleWritten = 0;
        long nanos = 0;
        for (int i = 0; i < k; i++) {
            PlannedMetatile metatile = plan.from(firstSeq + (long) ((i + 0.5) * count / k)).next();
            MetatileTask task = MetatileTask.of("dry-run", metatile.seq(), spec.layer(), metatile.dimensions(),
                    spec.format(), Mode.SEED, metatile.metatile(), metatile.tiles(), metatile.mask(), null);
            long began = System.nanoTime();
            MetatileRenderer.Drawn drawn = renderer.draw(layer, task.metatile(), task.format(), task.dimensions());
            for (TileCoord tile : task.tilesToStore()) {
                Optional<byte[]> encoded = drawn.encode(tile);
                if (encoded.isPresent()) {
                    sampleWritten++;
                    sampleBytes += encoded.get().length;
                }
            }
            nanos += System.nanoTime() - began;
            sampleTiles += metatile.tileCount();
        }
        double scale = (double) tiles / sampleTiles;
        return new Zoom(z, tiles, count, k, Math.round(sampleBytes * scale), Math.round(sampleWritten * scale),
                round(nanos / 1e9 * count / k));
    }

    private static double round(double seconds) {
        return Math.round(seconds * 1000) / 1000.0;
    }
}
