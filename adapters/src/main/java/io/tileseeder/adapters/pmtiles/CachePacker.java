package io.tileseeder.adapters.pmtiles;

import io.tileseeder.grid.TileCoord;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.ArchivePacker;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.PrimitiveIterator;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;

/**
 * Packs a finished cache of Web Mercator tiles into one PMTiles archive: lists the tiles of each zoom, sorts their
 * tile ids (on disk past {@link Limits#sortRun} ids), reads the tiles in that order, {@link Limits#readers} at once
 * and at most {@link Limits#window} ahead, and hands them to a {@link PmtilesWriter}. Memory stays bounded whatever
 * the cache's size: the sort's buffer, the read-ahead window, the writer's shared contents.
 */
public final class CachePacker {

    /**
     * @param readers tiles read at once (a folder: threads reading files; S3: GetObjects in flight)
     * @param window  tiles read ahead of the one being written, at most
     * @param sortRun tile ids sorted in memory, 8 bytes each, before the sort goes to disk
     */
    public record Limits(int readers, int window, int sortRun, PmtilesWriter.Sharing sharing) {

        public Limits {
            if (readers < 1 || window < readers || sortRun < 1) {
                throw new IllegalArgumentException("readers " + readers + ", window " + window + ", sort run "
                        + sortRun + ": each at least 1, and the window at least the readers");
            }
        }

        /** Four readers, 256 tiles ahead, 4 million ids (32 MB) sorted in memory. */
        public static final Limits DEFAULT = new Limits(4, 256, 4 << 20, PmtilesWriter.Sharing.DEFAULT);
    }

    /** What the archive holds: its tiles, their bytes in the cache, their zooms, and the writer's counts. */
    public record Packed(long tiles, long tileBytes, int minZoom, int maxZoom, PmtilesWriter.Written written) {
    }

    /** What the header and metadata say, but the zooms, which are those the cache holds. */
    public record About(PmtilesWriter.TileType type, double[] bounds, String json) {
    }

    /** How often, in tiles, a pack asks whether to stop. */
    private static final int CHECK_EVERY = 1024;

    private final TileStore store;
    private final Limits limits;

    public CachePacker(TileStore store, Limits limits) {
        this.store = store;
        this.limits = limits;
    }

    /** The archive's tile type for the cache's format, or empty for one that mixes two ({@code jpeg-png}). */
    public static Optional<PmtilesWriter.TileType> typeOf(TileFormat format) {
        return switch (format) {
            case PNG, PNG8 -> Optional.of(PmtilesWriter.TileType.PNG);
            case JPEG -> Optional.of(PmtilesWriter.TileType.JPEG);
            case WEBP, WEBP_LOSSLESS -> Optional.of(PmtilesWriter.TileType.WEBP);
            case JPEG_PNG -> Optional.empty();
        };
    }

    /**
     * Packs the tiles of zooms {@code minZoom} to {@code maxZoom} of the cache into {@code target}, replacing what is
     * there once the archive is durable.
     *
     * @throws IOException if the cache holds no tile of those zooms, a tile listed is gone when read (the cache
     *                     changed while it was packed), or the store or the disk fails
     */
    public Packed pack(TileCache cache, TileFormat format, int minZoom, int maxZoom, About about, Path target)
            throws IOException, InterruptedException {
        return pack(cache, format, minZoom, maxZoom, about, target, () -> false);
    }

    /**
     * As {@link #pack(TileCache, TileFormat, int, int, About, Path)}, asking {@code stopped} every
     * {@value #CHECK_EVERY} tiles listed and written.
     *
     * @throws ArchivePacker.Stopped once {@code stopped} says so; the target is left as it was
     */
    public Packed pack(TileCache cache, TileFormat format, int minZoom, int maxZoom, About about, Path target,
                       BooleanSupplier stopped) throws IOException, InterruptedException {
        Path folder = target.toAbsolutePath().getParent();
        try (LongSorter ids = new LongSorter(folder, limits.sortRun())) {
            int first = -1;
            int last = -1;
            for (int z = minZoom; z <= maxZoom; z++) {
                long before = ids.size();
                try {
                    store.list(cache, z, format, tile -> {
                        add(ids, tile);
                        check(ids.size(), stopped);
                    });
                } catch (UncheckedIOException e) {
                    throw e.getCause();
                }
                if (ids.size() > before) {
                    first = first < 0 ? z : first;
                    last = z;
                }
            }
            if (ids.size() == 0) {
                throw new IOException(store.describe() + "/" + store.layout().folder(cache) + " holds no " + format.id()
                        + " tile of zooms " + minZoom + "-" + maxZoom);
            }
            try (PmtilesWriter writer = new PmtilesWriter(target, limits.sharing())) {
                long tileBytes = write(cache, format, ids.sorted(), writer, stopped);
                double[] bounds = about.bounds();
                PmtilesWriter.Written written = writer.finish(new PmtilesWriter.Description(about.type(), first, last,
                        bounds, new double[] {(bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2}, first,
                        about.json()));
                return new Packed(ids.size(), tileBytes, first, last, written);
            }
        }
    }

    /** Throws {@link ArchivePacker.Stopped} if {@code stopped} says so, asked at every {@value #CHECK_EVERY}th tile. */
    private static void check(long tiles, BooleanSupplier stopped) {
        if (tiles % CHECK_EVERY == 0 && stopped.getAsBoolean()) {
            throw new ArchivePacker.Stopped();
        }
    }

    private static void add(LongSorter ids, TileCoord tile) {
        try {
            ids.add(TileId.of(tile.z(), tile.x(), tile.y()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads the tiles in id order, {@link Limits#readers} at a time and at most a window ahead, into the writer;
     * returns their bytes.
     */
    private long write(TileCache cache, TileFormat format, PrimitiveIterator.OfLong ids, PmtilesWriter writer,
                       BooleanSupplier stopped) throws IOException, InterruptedException {
        ExecutorService readers = Executors.newFixedThreadPool(limits.readers(), Thread.ofPlatform()
                .name("pack-read-", 0).daemon().factory());
        try {
            ArrayDeque<Read> ahead = new ArrayDeque<>(limits.window());
            long bytes = 0;
            long written = 0;
            while (ids.hasNext() || !ahead.isEmpty()) {
                check(++written, stopped);
                while (ids.hasNext() && ahead.size() < limits.window()) {
                    long id = ids.nextLong();
                    long[] zxy = TileId.zxy(id);
                    TileKey key = new TileKey(cache, TileCoord.of((int) zxy[0], (int) zxy[1], (int) zxy[2]), format);
                    ahead.add(new Read(id, key, readers.submit(() -> store.read(key))));
                }
                Read next = ahead.poll();
                byte[] tile = next.get().orElseThrow(() -> new IOException("tile " + next.key.path()
                        + " was listed but is gone: the cache changed while it was packed; pack it again once no job "
                        + "writes to it"));
                writer.add(next.id, tile);
                bytes += tile.length;
            }
            return bytes;
        } finally {
            readers.shutdownNow();
        }
    }

    private record Read(long id, TileKey key, Future<Optional<byte[]>> tile) {

        Optional<byte[]> get() throws IOException, InterruptedException {
            try {
                return tile.get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                throw new IOException("cannot read tile " + key.path() + ": " + e.getCause(), e.getCause());
            }
        }
    }
}
