package io.tileseeder.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tileseeder.adapters.pmtiles.CachePacker;
import io.tileseeder.adapters.pmtiles.PmtilesWriter;
import io.tileseeder.adapters.bucket.BucketTileStore;
import io.tileseeder.coordinator.job.Manifest;
import io.tileseeder.coordinator.job.TileJson;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileStore;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.runtime.wiring.Stores;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Packs one finished cache of a store into a PMTiles archive, a file or an S3 object (written in a work folder, then
 * uploaded in parts): what {@code seeder pack} and {@code seeder seed --pack} share.
 */
final class Packing {

    /** Tiles read at once unless {@code --readers} says otherwise. */
    static final int READERS = 4;
    /** At most this many: each is a thread, and an S3 store's requests in flight. */
    static final int MAX_READERS = 64;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The archive's Content-Type on S3: PMTiles has no registered media type; clients read it by range requests. */
    private static final String ARCHIVE_TYPE = "application/octet-stream";

    private Packing() {
    }

    /**
     * Where the archive goes.
     *
     * @param folder where it is written: the target's folder, or the work folder of one for a bucket
     */
    record Target(String archive, boolean upload, String name, Path folder) {

        /**
         * @param option the argument's name in messages ({@code ARCHIVE}, {@code --pack})
         * @throws IllegalArgumentException naming what is wrong: no {@code .pmtiles}, a folder missing or read-only
         */
        static Target of(String archive, Path workDir, String option) {
            if (!archive.toLowerCase(Locale.ROOT).endsWith(".pmtiles")) {
                throw new IllegalArgumentException(option + ": '" + archive + "' does not end in .pmtiles");
            }
            boolean upload = Stores.isBucket(archive);
            Path folder = upload ? Optional.ofNullable(workDir).orElse(Path.of(System.getProperty("java.io.tmpdir")))
                    .toAbsolutePath() : Path.of(archive).toAbsolutePath().getParent();
            if (!Files.isDirectory(folder) || !Files.isWritable(folder)) {
                throw new IllegalArgumentException((upload ? "--work-dir" : option) + ": the folder " + folder
                        + (Files.isDirectory(folder) ? " is not writable" : " does not exist"));
            }
            return new Target(archive, upload, archive.substring(archive.lastIndexOf('/') + 1), folder);
        }
    }

    /**
     * Packs the cache, prints what the archive holds on {@code out}; returns the exit status, having printed an
     * {@code error:} line on {@code err} unless 0.
     *
     * @param format the tiles' format; null: the one finished in the cache
     */
    static int pack(Settings settings, TileStore store, TileCache cache, String format, int readers, Target target,
                    PrintWriter out, PrintWriter err) throws InterruptedException {
        String where = store.describe() + "/" + store.layout().folder(cache);
        Optional<BucketTileStore> upload;
        try {
            upload = target.upload() ? Optional.of((BucketTileStore) Stores.open(settings.storedAt(
                    target.archive().substring(0, target.archive().length() - target.name().length())).store()))
                    : Optional.empty();
        } catch (IllegalArgumentException | UncheckedIOException e) {
            err.println("error: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        try {
            TileFormat finished = finishedFormat(store, cache, format, where);
            PmtilesWriter.TileType type = CachePacker.typeOf(finished).orElseThrow(() -> new IllegalArgumentException(
                    "a PMTiles archive holds one image type; the cache's format " + finished.id() + " mixes two"));
            JsonNode tileJson = JSON.readTree(store.readMetadata(cache, TileJson.fileName(finished))
                    .orElseThrow(() -> new IOException(where + " has no " + TileJson.fileName(finished)
                            + " beside its manifest")));
            CachePacker.About about = new CachePacker.About(type, bounds(tileJson), metadata(tileJson, finished));
            CachePacker.Limits defaults = CachePacker.Limits.DEFAULT;
            CachePacker packer = new CachePacker(store, new CachePacker.Limits(readers,
                    Math.max(defaults.window(), readers), defaults.sortRun(), defaults.sharing()));
            Path file = target.upload() ? Files.createTempDirectory(target.folder(), "pack-").resolve(target.name())
                    : Path.of(target.archive());
            CachePacker.Packed packed = packer.pack(cache, finished, tileJson.path("minzoom").asInt(0),
                    tileJson.path("maxzoom").asInt(0), about, file);
            if (upload.isPresent()) {
                try {
                    upload.get().upload(target.name(), file, ARCHIVE_TYPE);
                } finally {
                    Files.deleteIfExists(file);
                    Files.deleteIfExists(file.getParent());
                }
            }
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
        } finally {
            upload.ifPresent(s3 -> close(s3, err));
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

    /** The TileJSON's bounds (west, south, east, north), the whole Web Mercator world if it has none. */
    private static double[] bounds(JsonNode tileJson) {
        JsonNode bounds = tileJson.path("bounds");
        if (bounds.size() != 4) {
            return new double[] {-180, -85.0511287798066, 180, 85.0511287798066};
        }
        return new double[] {bounds.get(0).asDouble(), bounds.get(1).asDouble(), bounds.get(2).asDouble(),
                bounds.get(3).asDouble()};
    }

    /**
     * The archive's JSON metadata: the cache's TileJSON (with {@code name} and {@code attribution}, the keys the PMTiles
     * specification names for viewers) but what describes the cache's URLs, and the tiles' {@code format}.
     */
    private static String metadata(JsonNode tileJson, TileFormat format) throws IOException {
        ObjectNode metadata = tileJson.deepCopy();
        metadata.remove(List.of("tilejson", "tiles", "scheme"));
        metadata.put("format", format.extension());
        return JSON.writeValueAsString(metadata);
    }
}
