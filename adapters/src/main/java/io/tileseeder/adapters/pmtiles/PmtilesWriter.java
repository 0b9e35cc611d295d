package io.tileseeder.adapters.pmtiles;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * Writes a PMTiles v3 archive (the PMTiles v3 specification: a 127-byte header, a root directory within the first
 * 16 KiB, JSON metadata, leaf directories, the tile data), its directories and metadata gzip-compressed, the tiles as
 * they are given. Tiles come in ascending {@link TileId} order; identical tiles are stored once (by SHA-256), and a
 * tile identical to the one before it at the next id lengthens that entry's run instead of adding one. The data is
 * written to a temporary file as it comes, the archive to another beside the target, forced to disk and renamed onto
 * the target by {@link #finish}: no half-written archive is ever under the target's name. Entries are kept in memory
 * (24 bytes each), and one 32-byte digest per distinct tile.
 */
public final class PmtilesWriter implements Closeable {

    /** The header's size, fixed by the specification. */
    static final int HEADER_SIZE = 127;
    /** The header and the root directory together must fit in the first 16 KiB. */
    static final int ROOT_LIMIT = 16_384;
    private static final byte GZIP = 2;
    private static final byte NO_COMPRESSION = 1;

    /** What the tiles are: the header's tile type. */
    public enum TileType {
        PNG(2), JPEG(3), WEBP(4);

        private final int code;

        TileType(int code) {
            this.code = code;
        }
    }

    /**
     * What the header and metadata say of the archive.
     *
     * @param bounds  west, south, east, north in degrees
     * @param center  longitude, latitude in degrees
     * @param json    the JSON metadata (a TileJSON-like object)
     */
    public record Description(TileType type, int minZoom, int maxZoom, double[] bounds, double[] center,
                              int centerZoom, String json) {
    }

    private final Path target;
    private final Path data;
    private final OutputStream dataOut;
    private final MessageDigest sha256;
    private final Map<ByteBuffer, long[]> contents = new HashMap<>();
    private long[] ids = new long[1024];
    private long[] offsets = new long[1024];
    private int[] lengths = new int[1024];
    private int[] runs = new int[1024];
    private int entries;
    private long dataLength;
    private long addressed;
    private boolean finished;

    /** Starts an archive to be written to {@code target} when {@link #finish}ed. */
    public PmtilesWriter(Path target) throws IOException {
        this.target = target.toAbsolutePath();
        Path folder = this.target.getParent();
        this.data = Files.createTempFile(folder, "." + this.target.getFileName() + ".", ".tiles");
        this.dataOut = Files.newOutputStream(data);
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /**
     * Adds a tile.
     *
     * @throws IllegalArgumentException if the id is not greater than the last one added, or the tile is empty
     */
    public void add(long tileId, byte[] tile) throws IOException {
        if (entries > 0 && tileId < ids[entries - 1] + runs[entries - 1]) {
            throw new IllegalArgumentException("tile id " + tileId + " comes after " + (ids[entries - 1]
                    + runs[entries - 1] - 1) + ": tiles are added in ascending tile id order");
        }
        if (tile.length == 0) {
            throw new IllegalArgumentException("tile id " + tileId + " is empty: a PMTiles tile has a length > 0");
        }
        ByteBuffer digest = ByteBuffer.wrap(sha256.digest(tile));
        long[] stored = contents.get(digest);
        addressed++;
        if (stored != null && entries > 0 && offsets[entries - 1] == stored[0]
                && ids[entries - 1] + runs[entries - 1] == tileId) {
            runs[entries - 1]++;
            return;
        }
        if (stored == null) {
            stored = new long[] {dataLength, tile.length};
            contents.put(digest, stored);
            dataOut.write(tile);
            dataLength += tile.length;
        }
        if (entries == ids.length) {
            int size = entries * 2;
            ids = Arrays.copyOf(ids, size);
            offsets = Arrays.copyOf(offsets, size);
            lengths = Arrays.copyOf(lengths, size);
            runs = Arrays.copyOf(runs, size);
        }
        ids[entries] = tileId;
        offsets[entries] = stored[0];
        lengths[entries] = (int) stored[1];
        runs[entries] = 1;
        entries++;
    }

    /**
     * Writes the archive: header, root directory, metadata, leaf directories, then the tiles; forces it to disk and
     * moves it onto the target.
     *
     * @throws IllegalStateException if no tile was added (a PMTiles directory is never empty)
     */
    public void finish(Description description) throws IOException {
        if (entries == 0) {
            throw new IllegalStateException("no tile was added: a PMTiles archive holds at least one");
        }
        dataOut.close();
        Directories directories = directories();
        byte[] metadata = gzip(description.json().getBytes(StandardCharsets.UTF_8));
        long rootOffset = HEADER_SIZE;
        long metadataOffset = rootOffset + directories.root().length;
        long leavesOffset = metadataOffset + metadata.length;
        long dataOffset = leavesOffset + directories.leaves().length;
        ByteBuffer header = ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        header.put("PMTiles".getBytes(StandardCharsets.US_ASCII)).put((byte) 3);
        header.putLong(rootOffset).putLong(directories.root().length);
        header.putLong(metadataOffset).putLong(metadata.length);
        header.putLong(leavesOffset).putLong(directories.leaves().length);
        header.putLong(dataOffset).putLong(dataLength);
        header.putLong(addressed).putLong(entries).putLong(contents.size());
        header.put((byte) 1).put(GZIP).put(NO_COMPRESSION).put((byte) description.type().code);
        header.put((byte) description.minZoom()).put((byte) description.maxZoom());
        header.putInt(e7(description.bounds()[0])).putInt(e7(description.bounds()[1]));
        header.putInt(e7(description.bounds()[2])).putInt(e7(description.bounds()[3]));
        header.put((byte) description.centerZoom());
        header.putInt(e7(description.center()[0])).putInt(e7(description.center()[1]));
        Path archive = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".part");
        try {
            try (FileChannel out = FileChannel.open(archive, StandardOpenOption.WRITE);
                 FileChannel tiles = FileChannel.open(data, StandardOpenOption.READ)) {
                writeFully(out, ByteBuffer.wrap(header.array()));
                writeFully(out, ByteBuffer.wrap(directories.root()));
                writeFully(out, ByteBuffer.wrap(metadata));
                writeFully(out, ByteBuffer.wrap(directories.leaves()));
                long copied = 0;
                while (copied < dataLength) {
                    copied += tiles.transferTo(copied, dataLength - copied, out);
                }
                out.force(true);
            }
            Files.move(archive, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            finished = true;
        } finally {
            Files.deleteIfExists(archive);
            Files.deleteIfExists(data);
        }
    }

    /** Drops what was written so far unless the archive was finished; the target is left as it was. */
    @Override
    public void close() throws IOException {
        dataOut.close();
        if (!finished) {
            Files.deleteIfExists(data);
        }
    }

    private record Directories(byte[] root, byte[] leaves) {
    }

    /**
     * The root directory alone when it fits the first 16 KiB with the header; else leaves of 4,096 entries (then
     * twice as many, until the root of their first ids fits), each compressed on its own.
     */
    private Directories directories() {
        byte[] root = gzip(serialize(ids, offsets, lengths, runs, 0, entries));
        if (HEADER_SIZE + root.length <= ROOT_LIMIT) {
            return new Directories(root, new byte[0]);
        }
        for (int leafSize = 4096; ; leafSize *= 2) {
            ByteArrayOutputStream leaves = new ByteArrayOutputStream();
            int count = (entries + leafSize - 1) / leafSize;
            long[] rootIds = new long[count];
            long[] rootOffsets = new long[count];
            int[] rootLengths = new int[count];
            for (int i = 0; i < count; i++) {
                int from = i * leafSize;
                byte[] leaf = gzip(serialize(ids, offsets, lengths, runs, from, Math.min(entries, from + leafSize)));
                rootIds[i] = ids[from];
                rootOffsets[i] = leaves.size();
                rootLengths[i] = leaf.length;
                leaves.writeBytes(leaf);
            }
            root = gzip(serialize(rootIds, rootOffsets, rootLengths, new int[count], 0, count));
            if (HEADER_SIZE + root.length <= ROOT_LIMIT) {
                return new Directories(root, leaves.toByteArray());
            }
        }
    }

    /**
     * Entries {@code from} to {@code to} as the specification serializes a directory: their count, then the ids as
     * deltas, the run lengths, the lengths, and the offsets (0 for one right after the previous entry's tile, else the
     * offset plus one), each an unsigned LEB128 varint.
     */
    static byte[] serialize(long[] ids, long[] offsets, int[] lengths, int[] runs, int from, int to) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        varint(out, to - from);
        long last = 0;
        for (int i = from; i < to; i++) {
            varint(out, ids[i] - last);
            last = ids[i];
        }
        for (int i = from; i < to; i++) {
            varint(out, runs[i]);
        }
        for (int i = from; i < to; i++) {
            varint(out, lengths[i]);
        }
        for (int i = from; i < to; i++) {
            boolean next = i > from && offsets[i] == offsets[i - 1] + lengths[i - 1];
            varint(out, next ? 0 : offsets[i] + 1);
        }
        return out.toByteArray();
    }

    private static void varint(ByteArrayOutputStream out, long value) {
        while ((value & ~0x7FL) != 0) {
            out.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }

    private static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static int e7(double degrees) {
        return (int) Math.round(degrees * 10_000_000);
    }

    private static void writeFully(FileChannel out, ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            out.write(bytes);
        }
    }
}
