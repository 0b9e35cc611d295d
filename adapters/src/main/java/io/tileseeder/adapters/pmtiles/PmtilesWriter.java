package io.tileseeder.adapters.pmtiles;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.zip.GZIPOutputStream;

/**
 * Writes a PMTiles v3 archive (the PMTiles v3 specification: a 127-byte header, a root directory within the first
 * 16 KiB, JSON metadata, leaf directories, the tile data), its directories and metadata gzip-compressed, the tiles as
 * they are given. Tiles come in ascending {@link TileId} order; a tile whose bytes equal the one's before it at the
 * next id lengthens that entry's run instead of adding one, and a small tile (at most {@link Sharing#maxTileBytes}, as
 * uniform tiles of sea or land are) identical to an earlier one is stored once (by SHA-256; larger ones are not
 * hashed). The data and the entries are
 * written to temporary files as they come, the archive to another beside the target, forced to disk and renamed onto
 * the target by {@link #finish}: no half-written archive is ever under the target's name, and what a writer killed
 * before it finished left beside the target, the next writer of that target deletes. Memory is bounded whatever
 * the number of tiles: the shared contents ({@link Sharing#maxContents} digests), and the root directory's entries
 * while the leaves are written (one per leaf).
 */
public final class PmtilesWriter implements Closeable {

    /** The header's size, fixed by the specification. */
    static final int HEADER_SIZE = 127;
    /** The header and the root directory together must fit in the first 16 KiB. */
    static final int ROOT_LIMIT = 16_384;
    /** Entries tried in the root alone, before leaves: more would not fit in 16 KiB. */
    private static final int ROOT_ENTRIES = 16_384;
    private static final int FIRST_LEAF_SIZE = 4096;
    /** An entry in the entries file: id, offset, length, run. */
    private static final int ENTRY_BYTES = 24;
    /** The suffixes of a writer's temporary files. */
    private static final List<String> LEFTOVERS = List.of(".tiles", ".entries", ".leaves", ".part");
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

    /**
     * Which tiles are looked up among those stored before: tiles of at most {@code maxTileBytes}, and at most
     * {@code maxContents} distinct ones remembered (about 200 bytes each); past that, a new small tile is stored
     * again.
     */
    public record Sharing(int maxTileBytes, int maxContents) {

        /** Tiles up to 4 KiB (a uniform 512 px JPEG is 2 KiB), 250,000 contents: about 50 MB. */
        public static final Sharing DEFAULT = new Sharing(4096, 250_000);
    }

    /** The counts the header gives, and the archive's size. */
    public record Written(long addressedTiles, long entries, long contents, long bytes) {
    }

    private final Path target;
    private final Sharing sharing;
    private final Path data;
    private final OutputStream dataOut;
    private final Path entryFile;
    private final DataOutputStream entryOut;
    private final MessageDigest sha256;
    private final Map<ByteBuffer, Long> shared = new HashMap<>();
    private long id = -1;
    private long offset;
    private int length;
    private int run;
    /** The tile added last, to lengthen its run with the same bytes at the next id. */
    private byte[] lastTile;
    private long entries;
    private long contents;
    private long dataLength;
    private long addressed;
    private boolean finished;

    /** Starts an archive to be written to {@code target} when {@link #finish}ed, sharing {@link Sharing#DEFAULT}. */
    public PmtilesWriter(Path target) throws IOException {
        this(target, Sharing.DEFAULT);
    }

    public PmtilesWriter(Path target, Sharing sharing) throws IOException {
        this.target = target.toAbsolutePath();
        this.sharing = sharing;
        Path folder = this.target.getParent();
        removeLeftovers(folder, this.target.getFileName().toString());
        this.data = Files.createTempFile(folder, "." + this.target.getFileName() + ".", ".tiles");
        this.entryFile = Files.createTempFile(folder, "." + this.target.getFileName() + ".", ".entries");
        this.dataOut = new BufferedOutputStream(Files.newOutputStream(data), 1 << 16);
        this.entryOut = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(entryFile), 1 << 16));
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /**
     * Deletes what a writer of the same target killed before it finished left beside it: its hidden temporary files
     * ({@code .NAME.*.tiles}, {@code .entries}, {@code .leaves}, {@code .part}). Two writers of one target at once
     * are not supported: each would rename its archive onto the other's.
     */
    private static void removeLeftovers(Path folder, String name) throws IOException {
        String prefix = "." + name + ".";
        try (DirectoryStream<Path> leftovers = Files.newDirectoryStream(folder, path -> {
            String file = path.getFileName().toString();
            return file.startsWith(prefix) && LEFTOVERS.stream().anyMatch(file::endsWith);
        })) {
            for (Path leftover : leftovers) {
                Files.deleteIfExists(leftover);
            }
        }
    }

    /**
     * Adds a tile. The writer keeps the array until the next tile is added: do not change it.
     *
     * @throws IllegalArgumentException if the id is not greater than the last one added, or the tile is empty
     */
    public void add(long tileId, byte[] tile) throws IOException {
        if (id >= 0 && tileId < id + run) {
            throw new IllegalArgumentException("tile id " + tileId + " comes after " + (id + run - 1)
                    + ": tiles are added in ascending tile id order");
        }
        if (tile.length == 0) {
            throw new IllegalArgumentException("tile id " + tileId + " is empty: a PMTiles tile has a length > 0");
        }
        addressed++;
        if (id >= 0 && id + run == tileId && Arrays.equals(tile, lastTile)) {
            run++;
            return;
        }
        boolean small = tile.length <= sharing.maxTileBytes();
        ByteBuffer digest = small ? ByteBuffer.wrap(sha256.digest(tile)) : null;
        Long stored = small ? shared.get(digest) : null;
        try {
            if (stored == null) {
                dataOut.write(tile);
            }
            if (id >= 0) {
                writeEntry();
            }
        } catch (IOException e) {
            throw notWritten(e);
        }
        if (stored == null) {
            stored = dataLength;
            if (small && shared.size() < sharing.maxContents()) {
                shared.put(digest, stored);
            }
            dataLength += tile.length;
            contents++;
        }
        id = tileId;
        offset = stored;
        length = tile.length;
        run = 1;
        lastTile = tile;
    }

    private void writeEntry() throws IOException {
        entryOut.writeLong(id);
        entryOut.writeLong(offset);
        entryOut.writeInt(length);
        entryOut.writeInt(run);
        entries++;
    }

    /**
     * Writes the archive: header, root directory, metadata, leaf directories, then the tiles; forces it to disk and
     * moves it onto the target.
     *
     * @throws IllegalStateException if no tile was added (a PMTiles directory is never empty)
     */
    public Written finish(Description description) throws IOException {
        if (id < 0) {
            throw new IllegalStateException("no tile was added: a PMTiles archive holds at least one");
        }
        try {
            return write(description);
        } catch (IOException e) {
            throw notWritten(e);
        }
    }

    /**
     * A failure to write the archive or its temporary files beside it (a full disk), naming the archive: the
     * operating system's message names no file.
     */
    private IOException notWritten(IOException e) {
        return new IOException("cannot write " + target + ": " + e.getMessage(), e);
    }

    private Written write(Description description) throws IOException {
        writeEntry();
        entryOut.close();
        dataOut.close();
        Path leaves = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".leaves");
        // Not a temporary file's owner-only permissions: the archive gets those of any new file (the umask's).
        Path archive = Files.createFile(target.resolveSibling("." + target.getFileName() + "."
                + UUID.randomUUID() + ".part"));
        try {
            byte[] root = directories(leaves);
            long leavesLength = Files.size(leaves);
            byte[] metadata = gzip(description.json().getBytes(StandardCharsets.UTF_8));
            long rootOffset = HEADER_SIZE;
            long metadataOffset = rootOffset + root.length;
            long leavesOffset = metadataOffset + metadata.length;
            long dataOffset = leavesOffset + leavesLength;
            ByteBuffer header = ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
            header.put("PMTiles".getBytes(StandardCharsets.US_ASCII)).put((byte) 3);
            header.putLong(rootOffset).putLong(root.length);
            header.putLong(metadataOffset).putLong(metadata.length);
            header.putLong(leavesOffset).putLong(leavesLength);
            header.putLong(dataOffset).putLong(dataLength);
            header.putLong(addressed).putLong(entries).putLong(contents);
            header.put((byte) 1).put(GZIP).put(NO_COMPRESSION).put((byte) description.type().code);
            header.put((byte) description.minZoom()).put((byte) description.maxZoom());
            header.putInt(e7(description.bounds()[0])).putInt(e7(description.bounds()[1]));
            header.putInt(e7(description.bounds()[2])).putInt(e7(description.bounds()[3]));
            header.put((byte) description.centerZoom());
            header.putInt(e7(description.center()[0])).putInt(e7(description.center()[1]));
            try (FileChannel out = FileChannel.open(archive, StandardOpenOption.WRITE)) {
                writeFully(out, ByteBuffer.wrap(header.array()));
                writeFully(out, ByteBuffer.wrap(root));
                writeFully(out, ByteBuffer.wrap(metadata));
                append(out, leaves, leavesLength);
                append(out, data, dataLength);
                out.force(true);
            }
            Files.move(archive, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            forceFolder(target.getParent());
            finished = true;
            return new Written(addressed, entries, contents, dataOffset + dataLength);
        } finally {
            Files.deleteIfExists(archive);
            Files.deleteIfExists(leaves);
            Files.deleteIfExists(data);
            Files.deleteIfExists(entryFile);
        }
    }

    /**
     * Drops what was written so far unless the archive was finished; the target is left as it was. The temporary
     * files go even when closing them fails (a disk that is full cannot take their last buffered bytes).
     */
    @Override
    public void close() throws IOException {
        try {
            try {
                dataOut.close();
            } finally {
                entryOut.close();
            }
        } finally {
            if (!finished) {
                Files.deleteIfExists(data);
                Files.deleteIfExists(entryFile);
            }
        }
    }

    /**
     * The root directory, gzip-compressed: all the entries when they fit the first 16 KiB with the header; else one
     * entry per leaf, the leaves written to {@code leaves}, each compressed on its own, of 4,096 entries (then 1.5
     * times as many, until the root fits). The entries are read back from their file one leaf at a time.
     */
    private byte[] directories(Path leaves) throws IOException {
        if (entries <= ROOT_ENTRIES) {
            Block all = read(0, (int) entries);
            byte[] root = gzip(serialize(all.ids, all.offsets, all.lengths, all.runs, 0, all.count));
            if (HEADER_SIZE + root.length <= ROOT_LIMIT) {
                return root;
            }
        }
        for (long leafSize = FIRST_LEAF_SIZE; ; leafSize += leafSize / 2) {
            int leafCount = (int) ((entries + leafSize - 1) / leafSize);
            long[] rootIds = new long[leafCount];
            long[] rootOffsets = new long[leafCount];
            int[] rootLengths = new int[leafCount];
            long written = 0;
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(leaves), 1 << 16)) {
                for (int i = 0; i < leafCount; i++) {
                    Block leaf = read(i * leafSize, (int) Math.min(leafSize, entries - i * leafSize));
                    byte[] bytes = gzip(serialize(leaf.ids, leaf.offsets, leaf.lengths, leaf.runs, 0, leaf.count));
                    rootIds[i] = leaf.ids[0];
                    rootOffsets[i] = written;
                    rootLengths[i] = bytes.length;
                    out.write(bytes);
                    written += bytes.length;
                }
            }
            byte[] root = gzip(serialize(rootIds, rootOffsets, rootLengths, new int[leafCount], 0, leafCount));
            if (HEADER_SIZE + root.length <= ROOT_LIMIT) {
                return root;
            }
        }
    }

    /** Entries read back from the entries file. */
    private record Block(long[] ids, long[] offsets, int[] lengths, int[] runs, int count) {
    }

    /** {@code count} entries from the {@code first}, read from the entries file. */
    private Block read(long first, int count) throws IOException {
        Block block = new Block(new long[count], new long[count], new int[count], new int[count], count);
        try (FileChannel in = FileChannel.open(entryFile, StandardOpenOption.READ)) {
            in.position(first * ENTRY_BYTES);
            DataInputStream entriesIn = new DataInputStream(new BufferedInputStream(Channels.newInputStream(in),
                    1 << 16));
            for (int i = 0; i < count; i++) {
                block.ids[i] = entriesIn.readLong();
                block.offsets[i] = entriesIn.readLong();
                block.lengths[i] = entriesIn.readInt();
                block.runs[i] = entriesIn.readInt();
            }
        }
        return block;
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

    private static void append(FileChannel out, Path file, long length) throws IOException {
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            long copied = 0;
            while (copied < length) {
                copied += in.transferTo(copied, length - copied, out);
            }
        }
    }

    /** Makes the rename durable: the folder's entry forced to disk. */
    private static void forceFolder(Path folder) throws IOException {
        try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    private static void writeFully(FileChannel out, ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            out.write(bytes);
        }
    }
}
