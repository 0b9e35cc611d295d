package io.tileseeder.adapters.pmtiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Archives read back by a reader written from the specification's text in this test: header, varint directories,
 * leaves, runs and shared contents; what is left behind when writing stops half way.
 */
class PmtilesWriterTest {

    private static final PmtilesWriter.Description WORLD = new PmtilesWriter.Description(PmtilesWriter.TileType.PNG,
            0, 9, new double[] {-180, -85.0511287, 180, 85.0511287}, new double[] {0, 0}, 2,
            "{\"name\":\"world\"}");

    @TempDir
    Path dir;

    @Test
    void everyTileReadsBackAndTheHeaderCountsEntriesRunsAndContents() throws Exception {
        Map<Long, byte[]> tiles = new LinkedHashMap<>();
        byte[] ocean = bytes("ocean");
        for (long id = 0; id < 85; id++) {
            tiles.put(id, id % 7 == 3 ? bytes("land " + id) : ocean);
        }
        Path archive = write(tiles);

        Archive read = new Archive(Files.readAllBytes(archive));
        for (Map.Entry<Long, byte[]> tile : tiles.entrySet()) {
            assertThat(read.tile(tile.getKey())).as("tile %d", tile.getKey()).isEqualTo(tile.getValue());
        }
        assertThat(read.tile(85)).isNull();
        assertThat(read.header.getLong(72)).as("addressed tiles").isEqualTo(85);
        assertThat(read.header.getLong(88)).as("contents: ocean and 12 lands").isEqualTo(13);
        assertThat(read.header.getLong(80)).as("entries: each land, and a run of ocean between").isEqualTo(25);
        assertThat(read.header.get(96)).as("clustered").isEqualTo((byte) 1);
        assertThat(read.header.get(99)).as("PNG").isEqualTo((byte) 2);
        assertThat(read.header.getInt(106)).isEqualTo(-850511287);
        assertThat(new String(gunzip(read.section(24)), StandardCharsets.UTF_8)).isEqualTo("{\"name\":\"world\"}");
    }

    /**
     * 100,000 distinct tiles at irregular ids, of irregular sizes: a directory too large for a root within 16 KiB, so
     * leaves; the root still fits, and every tile is found through them.
     */
    @Test
    void manyEntriesGoToLeavesAndTheRootStaysInTheFirst16KiB() throws Exception {
        Random random = new Random(30);
        Map<Long, byte[]> tiles = new LinkedHashMap<>();
        long id = 0;
        for (int i = 0; i < 100_000; i++) {
            id += 2 + random.nextInt(1000);
            byte[] tile = new byte[1 + random.nextInt(300)];
            random.nextBytes(tile);
            tiles.put(id, tile);
        }
        Path archive = write(tiles);

        Archive read = new Archive(Files.readAllBytes(archive));
        assertThat(read.header.getLong(48)).as("leaves").isPositive();
        assertThat(read.header.getLong(8) + read.header.getLong(16)).isLessThanOrEqualTo(16_384);
        int checked = 0;
        for (Map.Entry<Long, byte[]> tile : tiles.entrySet()) {
            if (checked++ % 37 == 0) {
                assertThat(read.tile(tile.getKey())).isEqualTo(tile.getValue());
                assertThat(read.tile(tile.getKey() + 1)).isNull();
            }
        }
    }

    @Test
    void tilesOutOfOrderOrEmptyAreRefused() throws Exception {
        try (PmtilesWriter writer = new PmtilesWriter(dir.resolve("a.pmtiles"))) {
            writer.add(5, bytes("x"));
            assertThatThrownBy(() -> writer.add(5, bytes("y"))).hasMessageContaining("ascending tile id order");
            assertThatThrownBy(() -> writer.add(6, new byte[0])).hasMessageContaining("a PMTiles tile has a length");
        }
        try (PmtilesWriter writer = new PmtilesWriter(dir.resolve("b.pmtiles"))) {
            assertThatThrownBy(() -> writer.finish(WORLD)).hasMessageContaining("no tile was added");
        }
    }

    /** Closed before it is finished, a writer leaves nothing: no archive, no temporary file, the old archive kept. */
    @Test
    void anArchiveNotFinishedLeavesNothingBehindAndTheOldOneUntouched() throws Exception {
        Path target = dir.resolve("world.pmtiles");
        Files.writeString(target, "the archive before");
        try (PmtilesWriter writer = new PmtilesWriter(target)) {
            writer.add(0, bytes("tile"));
        }
        assertThat(Files.readString(target)).isEqualTo("the archive before");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).containsExactly(target);
        }
    }

    private Path write(Map<Long, byte[]> tiles) throws IOException {
        Path target = dir.resolve("world.pmtiles");
        try (PmtilesWriter writer = new PmtilesWriter(target)) {
            for (Map.Entry<Long, byte[]> tile : tiles.entrySet()) {
                writer.add(tile.getKey(), tile.getValue());
            }
            writer.finish(WORLD);
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).as("no temporary file left").containsExactly(target);
        }
        return target;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] gunzip(byte[] bytes) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
            return in.readAllBytes();
        }
    }

    /** An archive read as the specification describes it. */
    private static final class Archive {

        final ByteBuffer header;
        final byte[] bytes;

        Archive(byte[] bytes) {
            this.bytes = bytes;
            this.header = ByteBuffer.wrap(bytes, 0, 127).slice().order(ByteOrder.LITTLE_ENDIAN);
            assertThat(new String(bytes, 0, 7, StandardCharsets.US_ASCII)).isEqualTo("PMTiles");
            assertThat(bytes[7]).isEqualTo((byte) 3);
        }

        /** The section whose offset is at {@code field} of the header and length right after it. */
        byte[] section(int field) {
            long offset = header.getLong(field);
            return Arrays.copyOfRange(bytes, (int) offset, (int) (offset + header.getLong(field + 8)));
        }

        byte[] tile(long id) throws IOException {
            byte[] directory = gunzip(section(8));
            for (int depth = 0; depth < 4; depth++) {
                long[][] entries = decode(directory);
                long[] found = null;
                for (long[] entry : entries) {
                    if (entry[0] <= id) {
                        found = entry;
                    }
                }
                if (found == null) {
                    return null;
                }
                if (found[3] == 0) {
                    long leaves = header.getLong(40);
                    directory = gunzip(Arrays.copyOfRange(bytes, (int) (leaves + found[1]),
                            (int) (leaves + found[1] + found[2])));
                    continue;
                }
                if (id >= found[0] + found[3]) {
                    return null;
                }
                long data = header.getLong(56);
                return Arrays.copyOfRange(bytes, (int) (data + found[1]), (int) (data + found[1] + found[2]));
            }
            throw new AssertionError("directories deeper than 4");
        }

        /** Entries as {id, offset, length, run}: the specification's columns, deltas and offset zeroing undone. */
        static long[][] decode(byte[] directory) {
            ByteBuffer in = ByteBuffer.wrap(directory);
            int count = (int) varint(in);
            long[][] entries = new long[count][4];
            long id = 0;
            for (int i = 0; i < count; i++) {
                id += varint(in);
                entries[i][0] = id;
            }
            for (int i = 0; i < count; i++) {
                entries[i][3] = varint(in);
            }
            for (int i = 0; i < count; i++) {
                entries[i][2] = varint(in);
            }
            for (int i = 0; i < count; i++) {
                long value = varint(in);
                entries[i][1] = value == 0 && i > 0 ? entries[i - 1][1] + entries[i - 1][2] : value - 1;
            }
            assertThat(in.hasRemaining()).isFalse();
            return entries;
        }

        static long varint(ByteBuffer in) {
            long value = 0;
            for (int shift = 0; ; shift += 7) {
                byte b = in.get();
                value |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return value;
                }
            }
        }
    }
}
