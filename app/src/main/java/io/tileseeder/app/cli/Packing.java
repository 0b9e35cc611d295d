package io.tileseeder.app.cli;

import io.tileseeder.adapters.pmtiles.CachePacker;
import io.tileseeder.coordinator.job.Manifest;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.ArchivePacker;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileStore;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.runtime.wiring.ArchivePacking;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** What {@code seeder pack} and {@code seeder seed --pack} share: finding the cache's format, packing, telling. */
final class Packing {

    private Packing() {
    }

    /**
     * Packs the cache, prints what the archive holds on {@code out}; returns the exit status, having printed an
     * {@code error:} line on {@code err} unless 0.
     *
     * @param format the tiles' format; null: the one finished in the cache
     */
    static int pack(Settings settings, TileStore store, TileCache cache, String format, int readers,
                    ArchivePacking.Target target, PrintWriter out, PrintWriter err) throws InterruptedException {
        String where = ArchivePacking.where(store, cache);
        try {
            TileFormat finished = finishedFormat(store, cache, format, where);
            CachePacker.Packed packed = new ArchivePacking(settings, store, readers, target.folder())
                    .pack(cache, finished, target, ArchivePacker.Watch.NONE);
            out.printf(Locale.ROOT, "packed %,d tiles of zooms %d-%d from %s into %s: %,d entries, %,d contents, "
                            + "%,d bytes (the tiles: %,d bytes)%n", packed.tiles(), packed.minZoom(), packed.maxZoom(),
                    where, target.archive(), packed.written().entries(), packed.written().contents(),
                    packed.written().bytes(), packed.tileBytes());
            return ExitCodes.SUCCEEDED;
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return ExitCodes.USAGE;
        } catch (IOException | UncheckedIOException e) {
            err.println("error: cannot pack " + where + " into " + target.archive() + ": " + e.getMessage());
            return ExitCodes.FAILED;
        }
    }

    /** Closes a store the command opened. */
    static void close(TileStore store, PrintWriter err) {
        if (store instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                err.println("warning: closing the store: " + e.getMessage());
            }
        }
    }

    /**
     * The format whose tiles a job finished in the cache (its manifest is there), {@code format} if given.
     *
     * @throws IllegalArgumentException if there is none, or several and no {@code format}
     */
    private static TileFormat finishedFormat(TileStore store, TileCache cache, String format, String where)
            throws IOException {
        List<TileFormat> finished = new ArrayList<>();
        for (TileFormat candidate : TileFormat.values()) {
            if (store.hasMetadata(cache, Manifest.fileName(candidate))) {
                finished.add(candidate);
            }
        }
        Optional<TileFormat> named = Optional.ofNullable(format).map(id -> TileFormat.byId(id).orElseThrow(() ->
                new IllegalArgumentException("--format: unknown '" + id + "'; one of " + String.join(", ",
                        Arrays.stream(TileFormat.values()).map(TileFormat::id).toList()))));
        if (named.isPresent() && !finished.contains(named.get())) {
            throw new IllegalArgumentException(where + " holds no finished " + named.get().id() + " tiles (no "
                    + Manifest.fileName(named.get()) + ")" + formats(finished));
        }
        if (named.isPresent()) {
            return named.get();
        }
        if (finished.isEmpty()) {
            throw new IllegalArgumentException(where + " holds no finished cache: no manifest-{format}.json there "
                    + "(a seed job writes it when it succeeds)");
        }
        if (finished.size() > 1) {
            throw new IllegalArgumentException(where + " holds finished tiles of several formats: name one with "
                    + "--format" + formats(finished));
        }
        return finished.get(0);
    }

    private static String formats(List<TileFormat> formats) {
        return formats.isEmpty() ? "" : "; it holds " + String.join(", ", formats.stream().map(TileFormat::id).toList());
    }
}
