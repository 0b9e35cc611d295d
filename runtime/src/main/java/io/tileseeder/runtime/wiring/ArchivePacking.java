package io.tileseeder.runtime.wiring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tileseeder.adapters.bucket.BucketTileStore;
import io.tileseeder.adapters.pmtiles.CachePacker;
import io.tileseeder.adapters.pmtiles.PmtilesWriter;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.ArchivePacker;
import io.tileseeder.port.CacheDocuments;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileStore;
import io.tileseeder.runtime.settings.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * Packs one finished cache of a store into a PMTiles archive, a file or an object of a bucket (written in a work
 * folder, then uploaded in parts): what {@code seeder pack}, {@code seeder seed --pack} and a worker's pack task
 * share.
 */
public final class ArchivePacking implements ArchivePacker {

    private static final Logger LOG = Logger.getLogger(ArchivePacking.class.getName());
    /** Tiles read at once by default. */
    public static final int READERS = 4;
    /** At most this many: each is a thread, and a bucket's requests in flight. */
    public static final int MAX_READERS = 64;
    /** How often a pack says it is alive while it lists, reads, writes and uploads. */
    private static final Duration ALIVE_EVERY = Duration.ofSeconds(5);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The archive's Content-Type in a bucket: PMTiles has no registered media type; clients read it by ranges. */
    private static final String ARCHIVE_TYPE = "application/octet-stream";

    private final Settings settings;
    private final TileStore store;
    private final int readers;
    private final Path workDir;

    /**
     * @param readers tiles read at once, 1 to {@link #MAX_READERS}
     * @param workDir where an archive for a bucket is written before its upload
     */
    public ArchivePacking(Settings settings, TileStore store, int readers, Path workDir) {
        if (readers < 1 || readers > MAX_READERS) {
            throw new IllegalArgumentException("pack readers: " + readers + " is not 1 to " + MAX_READERS);
        }
        this.settings = settings;
        this.store = store;
        this.readers = readers;
        this.workDir = workDir;
    }

    /**
     * Where the archive goes.
     *
     * @param folder where it is written: the target's folder, or the work folder of one for a bucket
     */
    public record Target(String archive, boolean upload, String name, Path folder) {

        /**
         * @param option the argument's name in messages ({@code ARCHIVE}, {@code --pack}, {@code archive})
         * @throws IllegalArgumentException naming what is wrong: no {@code .pmtiles}, a folder missing or read-only
         */
        public static Target of(String archive, Path workDir, String option) {
            if (!archive.toLowerCase(Locale.ROOT).endsWith(".pmtiles")) {
                throw new IllegalArgumentException(option + ": '" + archive + "' does not end in .pmtiles");
            }
            boolean upload = Stores.isBucket(archive);
            Path folder = upload ? Optional.ofNullable(workDir).orElse(Path.of(System.getProperty("java.io.tmpdir")))
                    .toAbsolutePath() : Path.of(archive).toAbsolutePath().getParent();
            if (!Files.isDirectory(folder) || !Files.isWritable(folder)) {
                throw new IllegalArgumentException((upload ? "the work folder" : option) + ": the folder " + folder
                        + (Files.isDirectory(folder) ? " is not writable" : " does not exist"));
            }
            return new Target(archive, upload, archive.substring(archive.lastIndexOf('/') + 1), folder);
        }
    }

    @Override
    public Packed pack(TileCache cache, TileFormat format, String archive, Watch watch)
            throws IOException, InterruptedException {
        LOG.info(() -> "packing " + where(store, cache) + " (" + format.id() + ") into " + archive);
        CachePacker.Packed packed = pack(cache, format, Target.of(archive, workDir, "archive"), watch);
        LOG.info(() -> "packed " + packed.tiles() + " tiles of zooms " + packed.minZoom() + "-" + packed.maxZoom()
                + " into " + archive + ": " + packed.written().bytes() + " bytes");
        return new Packed(packed.tiles(), packed.tileBytes(), packed.written().bytes());
    }

    /**
     * Packs the finished tiles of {@code format} of the cache into the target, telling {@code watch} it is alive every
     * few seconds from another thread meanwhile, and stopping if it says so.
     *
     * @throws IllegalArgumentException if the cache holds no finished tiles of the format, or the format mixes two
     *                                  image types, or the archive's bucket cannot be opened
     * @throws IOException              if the store or the disk fails, or the cache changes while it is packed
     * @throws Stopped                  if the watch said to stop before the archive was under its name
     */
    public CachePacker.Packed pack(TileCache cache, TileFormat format, Target target, Watch watch)
            throws IOException, InterruptedException {
        String where = where(store, cache);
        if (!store.hasMetadata(cache, CacheDocuments.manifest(format))) {
            throw new IllegalArgumentException(where + " holds no finished " + format.id() + " tiles (no "
                    + CacheDocuments.manifest(format) + "; a seed job writes it when it succeeds)");
        }
        PmtilesWriter.TileType type = CachePacker.typeOf(format).orElseThrow(() -> new IllegalArgumentException(
                "a PMTiles archive holds one image type; the cache's format " + format.id() + " mixes two"));
        JsonNode tileJson = JSON.readTree(store.readMetadata(cache, CacheDocuments.tileJson(format))
                .orElseThrow(() -> new IOException(where + " has no " + CacheDocuments.tileJson(format)
                        + " beside its manifest")));
        CachePacker.About about = new CachePacker.About(type, bounds(tileJson), metadata(tileJson, format));
        CachePacker.Limits defaults = CachePacker.Limits.DEFAULT;
        CachePacker packer = new CachePacker(store, new CachePacker.Limits(readers,
                Math.max(defaults.window(), readers), defaults.sortRun(), defaults.sharing()));
        ScheduledExecutorService beat = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform()
                .name("pack-alive").daemon().factory());
        try (BucketTileStore upload = target.upload() ? bucketOf(target) : null) {
            ScheduledFuture<?> beating = beat.scheduleWithFixedDelay(watch::alive, ALIVE_EVERY.toMillis(),
                    ALIVE_EVERY.toMillis(), TimeUnit.MILLISECONDS);
            Path file = target.upload() ? Files.createTempDirectory(target.folder(), "pack-").resolve(target.name())
                    : Path.of(target.archive());
            try {
                CachePacker.Packed packed = packer.pack(cache, format, tileJson.path("minzoom").asInt(0),
                        tileJson.path("maxzoom").asInt(0), about, file, watch::stopped);
                if (upload != null) {
                    if (watch.stopped()) {
                        throw new Stopped();
                    }
                    upload.upload(target.name(), file, ARCHIVE_TYPE);
                }
                return packed;
            } finally {
                beating.cancel(false);
                if (upload != null) {
                    Files.deleteIfExists(file);
                    Files.deleteIfExists(file.getParent());
                }
            }
        } finally {
            beat.shutdownNow();
        }
    }

    /** The cache's place in messages: the store and the cache's folder in it. */
    public static String where(TileStore store, TileCache cache) {
        return store.describe() + "/" + store.layout().folder(cache);
    }

    /** The bucket store of the archive's folder. */
    private BucketTileStore bucketOf(Target target) {
        String folder = target.archive().substring(0, target.archive().length() - target.name().length());
        try {
            return (BucketTileStore) Stores.open(settings.storedAt(folder).store());
        } catch (UncheckedIOException e) {
            throw new IllegalArgumentException("cannot open " + folder + ": " + e.getMessage(), e);
        }
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
