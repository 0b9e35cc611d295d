package io.tileseeder.app.cli;

import io.tileseeder.job.JobRequest;
import io.tileseeder.server.dryrun.DryRun;
import java.io.PrintWriter;
import java.util.Locale;

/** A dry run's estimate as {@code seeder submit --dry-run} prints it: one line per zoom, then the totals. */
final class DryRunTable {

    private static final String ROW = "%6s %14s %11s %8s %15s %12s %10s%n";

    private DryRunTable() {
    }

    static void print(PrintWriter out, DryRun.Estimate estimate) {
        JobRequest job = estimate.spec();
        out.printf(Locale.ROOT, "DRY RUN %s z%d-%d (%s, %s, %s): %,d tiles in %,d metatiles%n", job.layer(),
                job.zoom().min(), job.zoom().max(), job.tileMatrixSet(), job.format(), job.mode(), estimate.tiles(),
                estimate.metatiles());
        out.printf(Locale.ROOT, ROW, "zoom", "tiles", "metatiles", "sampled", "bytes", "stored", "render s");
        for (DryRun.Zoom zoom : estimate.zooms()) {
            out.printf(Locale.ROOT, ROW, zoom.zoom(), number(zoom.tiles()), number(zoom.metatiles()),
                    number(zoom.sampledMetatiles()), number(zoom.bytes()), number(zoom.tilesWritten()),
                    String.format(Locale.ROOT, "%.2f", zoom.renderSeconds()));
        }
        out.printf(Locale.ROOT, ROW, "total", number(estimate.tiles()), number(estimate.metatiles()),
                number(estimate.sampledMetatiles()), number(estimate.bytes()), number(estimate.tilesWritten()),
                String.format(Locale.ROOT, "%.2f", estimate.renderSeconds()));
        out.printf(Locale.ROOT, "estimate: %,d bytes in %,d stored tiles; %.1f s of rendering, %.1f s for one worker "
                        + "rendering %d metatiles at once (from %d metatiles rendered in %.1f s; storing not counted)%n",
                estimate.bytes(), estimate.tilesWritten(), estimate.renderSeconds(), estimate.seconds(),
                estimate.parallelism(), estimate.sampledMetatiles(), estimate.sampleSeconds());
        out.flush();
    }

    private static String number(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }
}
