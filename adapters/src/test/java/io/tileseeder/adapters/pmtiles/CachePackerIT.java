package io.tileseeder.adapters.pmtiles;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.adapters.FreePorts;
import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.adapters.s3.S3Location;
import io.tileseeder.adapters.s3.S3Options;
import io.tileseeder.adapters.s3.S3TestServer;
import io.tileseeder.adapters.s3.S3TileStore;
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
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Caches packed by {@link CachePacker} and read back by go-pmtiles, Protomaps' own reader ({@code SEEDER_PMTILES},
 * built by {@code dev/services up}): its {@code verify} accepts the archive, and every tile its server answers is
 * the cache's, byte for byte; a tile the cache does not hold it does not find.
 */
class CachePackerIT {

    private static final TileCache WORLD = new TileCache("world", TileMatrixSet.WEB_MERCATOR_QUAD);
    private static final CachePacker.About ABOUT = new CachePacker.About(PmtilesWriter.TileType.PNG,
            new double[] {-180, -85.0511287, 180, 85.0511287}, "{\"name\":\"world\"}");
    private static final Path READER = Path.of(S3TestServer.env("SEEDER_PMTILES"));

    @TempDir
    Path dir;

    /**
     * Every tile of z0-6 and half of z8: over 20,000 entries, so leaf directories; ids sorted on disk in 5 runs; most
     * tiles one "sea" tile (shared, runs), every third distinct, and a large tile repeated apart (stored twice: it is
     * too large to be looked up).
     */
    @Test
    void aFolderCacheWithLeavesSpilledSortAndSharedTilesReadsBackTileForTile() throws Exception {
        Path root = dir.resolve("tiles");
        Map<TileCoord, byte[]> tiles = new LinkedHashMap<>();
        byte[] large = new byte[10_000];
        for (int z = 0; z <= 8; z++) {
            if (z == 7) {
                continue;
            }
            int size = 1 << z;
            for (int x = 0; x < (z == 8 ? size / 2 : size); x++) {
                for (int y = 0; y < size; y++) {
                    byte[] tile = (x * 7 + y) % 3 == 0 ? bytes("land " + z + "/" + x + "/" + y) : bytes("sea");
                    tiles.put(TileCoord.of(z, x, y), z == 5 && y == 9 && x % 8 == 1 ? large : tile);
                }
            }
        }
        for (Map.Entry<TileCoord, byte[]> tile : tiles.entrySet()) {
            TileCoord t = tile.getKey();
            Path file = root.resolve(WORLD.path() + "/" + t.z() + "/" + t.x() + "/" + t.y() + ".png");
            Files.createDirectories(file.getParent());
            Files.write(file, tile.getValue());
        }
        Files.createDirectories(root.resolve(WORLD.path() + "/9/0"));
        Files.write(root.resolve(WORLD.path() + "/3/1/2.png.tmp"), bytes("a leftover of a write"));

        Path archive = dir.resolve("out/world.pmtiles");
        Files.createDirectories(archive.getParent());
        CachePacker packer = new CachePacker(new FileTileStore(root), new CachePacker.Limits(3, 16,
                tiles.size() / 5 + 1, new PmtilesWriter.Sharing(4096, 1000)));
        CachePacker.Packed packed = packer.pack(WORLD, TileFormat.PNG, 0, 9, ABOUT, archive);

        assertThat(packed.tiles()).isEqualTo(tiles.size());
        assertThat(packed.minZoom()).isZero();
        assertThat(packed.maxZoom()).isEqualTo(8);
        assertThat(packed.written().entries()).isGreaterThan(20_000);
        ByteBuffer header = header(archive);
        assertThat(header.getLong(48)).as("leaf directories").isPositive();
        assertThat(header.getLong(72)).as("addressed tiles").isEqualTo(tiles.size());
        long distinct = tiles.values().stream().filter(t -> t != large).map(String::new).distinct().count();
        assertThat(header.getLong(88)).as("contents: each distinct small tile once, the large one at each of its 4 "
                + "places").isEqualTo(distinct + 4);
        assertThat(reader("verify", archive.toString())).contains("Completed verify");
        assertReadBack(archive, tiles, TileCoord.of(8, 200, 3));
        try (Stream<Path> left = Files.list(archive.getParent())) {
            assertThat(left).as("nothing beside the archive").containsExactly(archive);
        }
    }

    /** A cache on S3 (the dev MinIO), listed a page at a time and read 8 GetObjects at once. */
    @Test
    void anS3CacheIsPackedTheSame() throws Exception {
        S3TestServer server = new S3TestServer();
        String prefix = S3TestServer.randomPrefix();
        try (S3TileStore store = new S3TileStore(server.endpoint, server.accessKey, server.secretKey, server.region,
                new S3Location(S3TestServer.BUCKET, prefix), S3Options.defaults())) {
            Map<TileCoord, byte[]> tiles = new LinkedHashMap<>();
            List<EncodedTile> written = new ArrayList<>();
            for (int z = 0; z <= 5; z++) {
                for (int x = 0; x < 1 << z; x++) {
                    for (int y = 0; y < 1 << z; y += 1 + z % 2) {
                        byte[] tile = bytes(y % 4 == 0 ? "sea" : "land " + z + "/" + x + "/" + y);
                        tiles.put(TileCoord.of(z, x, y), tile);
                        written.add(new EncodedTile(new TileKey(WORLD, TileCoord.of(z, x, y), TileFormat.PNG), tile));
                    }
                }
            }
            store.write(written);
            Path archive = dir.resolve("world.pmtiles");
            CachePacker.Packed packed = new CachePacker(store, new CachePacker.Limits(8, 64, 1 << 20,
                    PmtilesWriter.Sharing.DEFAULT)).pack(WORLD, TileFormat.PNG, 0, 5, ABOUT, archive);

            assertThat(packed.tiles()).isEqualTo(tiles.size());
            assertThat(reader("verify", archive.toString())).contains("Completed verify");
            assertReadBack(archive, tiles, TileCoord.of(3, 2, 1));
        } finally {
            server.deleteAll(prefix);
        }
    }

    /** Every tile through go-pmtiles's own server, and one the cache does not hold, which it must not find. */
    private void assertReadBack(Path archive, Map<TileCoord, byte[]> tiles, TileCoord missing) throws Exception {
        int port = FreePorts.next();
        Process server = new ProcessBuilder(READER.toString(), "serve", archive.getParent().toString(),
                "--interface=127.0.0.1", "--port=" + port).redirectErrorStream(true).start();
        CountDownLatch serving = new CountDownLatch(1);
        Thread log = Thread.ofVirtual().start(() -> drain(server, serving));
        try (HttpClient http = HttpClient.newHttpClient()) {
            String base = "http://127.0.0.1:" + port + "/world/";
            assertThat(serving.await(30, TimeUnit.SECONDS)).as("go-pmtiles serve says it serves").isTrue();
            awaitListening(port, server);
            int checked = 0;
            for (Map.Entry<TileCoord, byte[]> tile : tiles.entrySet()) {
                TileCoord t = tile.getKey();
                HttpResponse<byte[]> answer = get(http, base + t.z() + "/" + t.x() + "/" + t.y() + ".png");
                assertThat(answer.statusCode()).as("tile %s", t).isEqualTo(200);
                assertThat(answer.body()).as("tile %s", t).isEqualTo(tile.getValue());
                checked++;
            }
            assertThat(checked).isEqualTo(tiles.size());
            assertThat(tiles).doesNotContainKey(missing);
            assertThat(get(http, base + missing.z() + "/" + missing.x() + "/" + missing.y() + ".png").statusCode())
                    .as("tile %s, not in the cache", missing).isEqualTo(204);
        } finally {
            server.destroy();
            server.waitFor();
            log.join();
        }
    }

    /** Reads what go-pmtiles prints, to its end, counting {@code serving} down at its "Serving" line. */
    private static void drain(Process server, CountDownLatch serving) {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.contains("Serving")) {
                    serving.countDown();
                }
            }
        } catch (IOException e) {
            // the process is gone: nothing more to read
        }
    }

    /**
     * go-pmtiles prints its "Serving" line just before it listens: connects until it does (a refused connection comes
     * back at once), at most 10 s.
     */
    private static void awaitListening(int port, Process server) throws IOException {
        Instant deadline = Instant.now().plusSeconds(10);
        while (true) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return;
            } catch (ConnectException e) {
                assertThat(server.isAlive()).as("go-pmtiles serve is running").isTrue();
                assertThat(Instant.now()).as("go-pmtiles serve listens within 10 s of saying so").isBefore(deadline);
                Thread.onSpinWait();
            }
        }
    }

    private static HttpResponse<byte[]> get(HttpClient http, String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private String reader(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(READER.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as("go-pmtiles %s:%n%s", String.join(" ", args), output).isZero();
        return output;
    }

    private static ByteBuffer header(Path archive) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(PmtilesWriter.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel in = FileChannel.open(archive)) {
            in.read(header, 0);
        }
        return header;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
