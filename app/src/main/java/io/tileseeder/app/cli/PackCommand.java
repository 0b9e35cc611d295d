package io.tileseeder.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tileseeder.adapters.pmtiles.CachePacker;
import io.tileseeder.adapters.pmtiles.PmtilesWriter;
import io.tileseeder.adapters.s3.S3TileStore;
import io.tileseeder.coordinator.job.Manifest;
import io.tileseeder.coordinator.job.TileJson;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.TileStore;
import io.tileseeder.runtime.wiring.Stores;
import io.tileseeder.server.Engines;
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
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code seeder pack}: packs a finished cache of Web Mercator tiles into one PMTiles archive. */
@Command(name = "pack", mixinStandardHelpOptions = true, exitCodeOnInvalidInput = ExitCodes.USAGE,
        description = {"Packs a finished cache of Web Mercator tiles into one PMTiles v3 archive: tiles in Hilbert "
                + "order, identical tiles stored once, runs of repeats in one entry.",
                "The archive is written beside its target and renamed onto it once it is on disk, or uploaded to S3 in "
                        + "parts that show under its name only once all are in: a pack that stops half way leaves no "
                        + "archive under the target's name.",
                "Exit status: 0 packed, 1 bad usage, 2 failed."})
final class PackCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The archive's Content-Type on S3: PMTiles has no registered media type; clients read it by range requests. */
    private static final String ARCHIVE_TYPE = "application/octet-stream";

    private final Engines engines;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "CACHE",
            description = "The cache's folder: {store}/{layer}/WebMercatorQuad (then a folder per dimension value), "
                    + "a folder or s3://BUCKET/PREFIX/... (S3 endpoint and credentials as for seed).")
    String cache;

    @Parameters(index = "1", paramLabel = "ARCHIVE",
            description = "The archive to write, ending in .pmtiles: a file, or s3://BUCKET/PREFIX/NAME.pmtiles (written "
                    + "in --work-dir first, then uploaded in parts).")
    String archive;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where an archive for S3 is written before it is uploaded (default: the system's temporary "
                    + "folder); it needs the archive's size free.")
    Path workDir;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "The tiles' format, when the cache holds finished tiles of several (png, jpeg, webp, ...).")
    String format;

    @Option(names = "--readers", paramLabel = "N", defaultValue = "4",
            description = "Tiles read at once (default: ${DEFAULT-VALUE}).")
    int readers;

    PackCommand(Engines engines) {
        this.engines = engines;
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        CacheAddress address;
        try {
            address = CacheAddress.parse(cache);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "CACHE: " + e.getMessage());
        }
        if (!archive.toLowerCase(Locale.ROOT).endsWith(".pmtiles")) {
            throw new ParameterException(spec.commandLine(), "ARCHIVE: '" + archive + "' does not end in .pmtiles");
        }
        boolean upload = archive.startsWith("s3://");
        String name = archive.substring(archive.lastIndexOf('/') + 1);
        Path folder = upload ? Optional.ofNullable(workDir).orElse(Path.of(System.getProperty("java.io.tmpdir")))
                .toAbsolutePath() : Path.of(archive).toAbsolutePath().getParent();
        if (!Files.isDirectory(folder) || !Files.isWritable(folder)) {
            throw new ParameterException(spec.commandLine(), (upload ? "--work-dir" : "ARCHIVE") + ": the folder "
                    + folder + (Files.isDirectory(folder) ? " is not writable" : " does not exist"));
        }
        if (readers < 1) {
            throw new ParameterException(spec.commandLine(), "--readers must be at least 1, got " + readers);
        }
        TileStore store;
        Optional<S3TileStore> target;
        try {
            store = Stores.open(engines.settings().storedAt(address.store()).store());
            target = upload ? Optional.of((S3TileStore) Stores.open(engines.settings().storedAt(
                    archive.substring(0, archive.length() - name.length())).store())) : Optional.empty();
        } catch (IllegalArgumentException | UncheckedIOException e) {
            err.println("error: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        try {
            TileFormat finished = finishedFormat(store, address);
            PmtilesWriter.TileType type = CachePacker.typeOf(finished).orElseThrow(() -> new IllegalArgumentException(
                    "a PMTiles archive holds one image type; the cache's format " + finished.id() + " mixes two"));
            JsonNode tileJson = JSON.readTree(store.readMetadata(address.cache(), TileJson.fileName(finished))
                    .orElseThrow(() -> new IOException(where(store, address) + " has no " + TileJson.fileName(finished)
                            + " beside its manifest")));
            CachePacker.About about = new CachePacker.About(type, bounds(tileJson), metadata(tileJson, finished));
            CachePacker.Limits defaults = CachePacker.Limits.DEFAULT;
            CachePacker packer = new CachePacker(store, new CachePacker.Limits(readers,
                    Math.max(defaults.window(), readers), defaults.sortRun(), defaults.sharing()));
            Path file = upload ? Files.createTempDirectory(folder, "pack-").resolve(name) : Path.of(archive);
            CachePacker.Packed packed = packer.pack(address.cache(), finished, tileJson.path("minzoom").asInt(0),
                    tileJson.path("maxzoom").asInt(0), about, file);
            if (target.isPresent()) {
                try {
                    target.get().upload(name, file, ARCHIVE_TYPE);
                } finally {
                    Files.deleteIfExists(file);
                    Files.deleteIfExists(file.getParent());
                }
            }
            out.printf(Locale.ROOT, "packed %,d tiles of zooms %d-%d from %s into %s: %,d entries, %,d contents, "
                            + "%,d bytes (the tiles: %,d bytes)%n", packed.tiles(), packed.minZoom(), packed.maxZoom(),
                    where(store, address), archive, packed.written().entries(), packed.written().contents(),
                    packed.written().bytes(), packed.tileBytes());
            return ExitCodes.SUCCEEDED;
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return ExitCodes.USAGE;
        } catch (IOException | UncheckedIOException e) {
            err.println("error: cannot pack " + where(store, address) + " into " + archive + ": " + e.getMessage());
            return ExitCodes.FAILED;
        } finally {
            close(store, err);
            target.ifPresent(s3 -> close(s3, err));
        }
    }

    private static void close(TileStore store, PrintWriter err) {
        if (store instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                err.println("warning: closing the store: " + e.getMessage());
            }
        }
    }

    /**
     * The format whose tiles a job finished in the cache (its manifest is there), {@code --format}'s if given.
     *
     * @throws IllegalArgumentException if there is none, or several and no {@code --format}
     */
    private TileFormat finishedFormat(TileStore store, CacheAddress address) throws IOException {
        List<TileFormat> finished = new ArrayList<>();
        for (TileFormat candidate : TileFormat.values()) {
            if (store.hasMetadata(address.cache(), Manifest.fileName(candidate))) {
                finished.add(candidate);
            }
        }
        Optional<TileFormat> named = Optional.ofNullable(format).map(id -> TileFormat.byId(id).orElseThrow(() ->
                new IllegalArgumentException("--format: unknown '" + id + "'; one of " + String.join(", ",
                        Arrays.stream(TileFormat.values()).map(TileFormat::id).toList()))));
        if (named.isPresent() && !finished.contains(named.get())) {
            throw new IllegalArgumentException(where(store, address) + " holds no finished " + named.get().id()
                    + " tiles (no " + Manifest.fileName(named.get()) + ")" + formats(finished));
        }
        if (named.isPresent()) {
            return named.get();
        }
        if (finished.isEmpty()) {
            throw new IllegalArgumentException(where(store, address) + " holds no finished cache: no manifest-"
                    + "{format}.json there (a seed job writes it when it succeeds)");
        }
        if (finished.size() > 1) {
            throw new IllegalArgumentException(where(store, address) + " holds finished tiles of several formats: "
                    + "name one with --format" + formats(finished));
        }
        return finished.get(0);
    }

    private static String formats(List<TileFormat> formats) {
        return formats.isEmpty() ? "" : "; it holds " + String.join(", ", formats.stream().map(TileFormat::id).toList());
    }

    private static String where(TileStore store, CacheAddress address) {
        return store.describe() + "/" + address.cache().path();
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
