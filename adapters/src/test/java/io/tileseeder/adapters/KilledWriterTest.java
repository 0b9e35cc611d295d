package io.tileseeder.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.adapters.mbtiles.MbtilesTileStore;
import io.tileseeder.adapters.pmtiles.CachePacker;
import io.tileseeder.adapters.pmtiles.PmtilesWriter;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The single-file writers killed with SIGKILL in a process of their own, mid-way: an MBTiles file keeps every
 * transaction whole (each metatile's tiles all there or none) and passes SQLite's integrity check; a pack leaves the
 * archive that was there before, or the whole new one, never a part, and the next pack of that target removes what
 * the killed one left beside it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KilledWriterTest {

    private static final TileCache WORLD = new TileCache("world", TileMatrixSet.WEB_MERCATOR_QUAD);
    private static final int BATCH = 16;

    @TempDir
    Path dir;

    @Test
    void anMbtilesFileKilledMidWriteKeepsWholeTransactions() throws Exception {
        Path file = dir.resolve("world.mbtiles");
        int committed = killAfter(20, MbtilesWriting.class, file.toString());

        try (Connection sql = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = sql.createStatement()) {
            try (ResultSet check = statement.executeQuery("PRAGMA integrity_check")) {
                check.next();
                assertThat(check.getString(1)).isEqualTo("ok");
            }
            try (ResultSet batches = statement.executeQuery("SELECT tile_column, count(*) FROM map "
                    + "WHERE zoom_level = 12 GROUP BY tile_column")) {
                int whole = 0;
                while (batches.next()) {
                    assertThat(batches.getInt(2)).as("batch %d", batches.getInt(1)).isEqualTo(BATCH);
                    whole++;
                }
                assertThat(whole).as("every batch reported committed is there").isGreaterThanOrEqualTo(committed);
            }
        }
        try (MbtilesTileStore store = new MbtilesTileStore(file)) {
            store.write(List.of(new EncodedTile(new TileKey(WORLD, TileCoord.of(12, 0, 100), TileFormat.PNG),
                    new byte[] {1})));
            assertThat(store.read(new TileKey(WORLD, TileCoord.of(12, 0, 100), TileFormat.PNG))).isPresent();
        }
    }

    @Test
    void aPackKilledMidWayLeavesTheArchiveBeforeOrTheWholeNewOne() throws Exception {
        Path tiles = dir.resolve("tiles");
        FileTileStore store = new FileTileStore(tiles);
        List<EncodedTile> written = new ArrayList<>();
        for (int x = 0; x < 128; x++) {
            for (int y = 0; y < 64; y++) {
                written.add(new EncodedTile(new TileKey(WORLD, TileCoord.of(7, x, y), TileFormat.PNG),
                        ("tile " + x + "/" + y).repeat(20).getBytes(StandardCharsets.UTF_8)));
            }
        }
        store.write(written);
        Path expected = dir.resolve("expected/world.pmtiles");
        Files.createDirectories(expected.getParent());
        pack(tiles, expected);
        Path archive = dir.resolve("out/world.pmtiles");
        Files.createDirectories(archive.getParent());
        Files.writeString(archive, "the archive before");

        killAfter(1, Packing.class, tiles.toString(), archive.toString());

        byte[] left = Files.readAllBytes(archive);
        assertThat(left.length == 18 ? new String(left, StandardCharsets.UTF_8) : "the new archive")
                .isIn("the archive before", "the new archive");
        if (left.length != 18) {
            assertThat(left).isEqualTo(Files.readAllBytes(expected));
        }
        pack(tiles, archive);
        assertThat(archive).hasSameBinaryContentAs(expected);
        try (Stream<Path> files = Files.list(archive.getParent())) {
            assertThat(files).as("the killed pack's temporary files removed").containsExactly(archive);
        }
    }

    private static void pack(Path tiles, Path archive) throws Exception {
        pack(new FileTileStore(tiles), archive);
    }

    private static void pack(TileStore store, Path archive) throws Exception {
        new CachePacker(store, CachePacker.Limits.DEFAULT).pack(WORLD, TileFormat.PNG, 0, 7,
                new CachePacker.About(PmtilesWriter.TileType.PNG, new double[] {-180, -85, 180, 85}, "{}"), archive);
    }

    /**
     * Starts {@code main} in a JVM of its own, kills it with SIGKILL once it has printed {@code lines} lines (each
     * one a step it finished), and returns how many it had printed by then.
     */
    private static int killAfter(int lines, Class<?> main, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(), "-cp",
                System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        int read = 0;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            while (read < lines && out.readLine() != null) {
                read++;
            }
            process.destroyForcibly();
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(read).as("lines printed before the kill").isEqualTo(lines);
        return read;
    }

    /** Writes batches of {@link #BATCH} tiles (one column of zoom 12 each) until killed, a line after each. */
    static final class MbtilesWriting {
        public static void main(String[] args) throws IOException {
            try (MbtilesTileStore store = new MbtilesTileStore(Path.of(args[0]))) {
                for (int x = 0; ; x++) {
                    List<EncodedTile> batch = new ArrayList<>();
                    for (int y = 0; y < BATCH; y++) {
                        batch.add(new EncodedTile(new TileKey(WORLD, TileCoord.of(12, x, y), TileFormat.PNG),
                                ("tile " + x + "/" + y).repeat(50).getBytes(StandardCharsets.UTF_8)));
                    }
                    store.write(batch);
                    System.out.println(x);
                    System.out.flush();
                }
            }
        }
    }

    /** Packs the cache into the archive, saying so once it has read 1,000 tiles: the archive is half-written then. */
    static final class Packing {
        public static void main(String[] args) throws Exception {
            AtomicInteger reads = new AtomicInteger();
            TileStore store = new ForwardingTileStore(new FileTileStore(Path.of(args[0]))) {
                @Override
                public Optional<byte[]> read(TileKey key) throws IOException {
                    if (reads.incrementAndGet() == 1000) {
                        System.out.println("1,000 tiles read");
                        System.out.flush();
                    }
                    return super.read(key);
                }
            };
            pack(store, Path.of(args[1]));
        }
    }
}
