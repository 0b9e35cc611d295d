package io.tileseeder.adapters.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.minio.StatObjectArgs;
import io.minio.StatObjectResponse;
import io.tileseeder.adapters.ManyCachesTileStoreContract;
import io.tileseeder.port.TileCache;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.TileFormat;
import io.tileseeder.outage.RetryPolicy;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.Layout;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link S3TileStore} against the real MinIO of {@code dev/services} (no mock): the {@link ManyCachesTileStoreContract}, then
 * what only S3 has (object layout, headers, failures of the endpoint and the credentials). Each test writes below a
 * fresh random prefix and removes it afterwards.
 */
class S3TileStoreIT extends ManyCachesTileStoreContract {

    /** Nothing listens on port 1 of the loopback: connections are refused at once. */
    private static final String UNREACHABLE = "http://127.0.0.1:1";

    private static S3TestServer server;

    private String prefix;
    private S3TileStore store;
    private final List<String> extraBuckets = new ArrayList<>();

    @BeforeAll
    static void server() {
        server = new S3TestServer();
    }

    @BeforeEach
    void setUp() throws IOException {
        prefix = S3TestServer.randomPrefix();
        store = newStore(prefix, S3Options.defaults());
    }

    @AfterEach
    void tearDown() throws Exception {
        store.close();
        server.deleteAll(prefix);
        for (String bucket : extraBuckets) {
            server.client.removeBucket(io.minio.RemoveBucketArgs.builder().bucket(bucket).build());
        }
    }

    @Override
    protected TileStore store() {
        return store;
    }

    @Override
    protected Optional<byte[]> readMetadata(TileCache cache, String name) throws IOException {
        return server.document(prefix, Layout.XYZ, cache, name);
    }

    @Test
    void tilesAreObjectsAtPrefixLayerMatrixSetZxy() throws Exception {
        store.write(List.of(
                new EncodedTile(key(TileCoord.of(2, 1, 3)), new byte[] {1}),
                new EncodedTile(new TileKey("world", TileMatrixSet.WORLD_CRS84_QUAD, TileCoord.of(1, 3, 1),
                        TileFormat.JPEG), new byte[] {2})));
        store.writeMetadata(new TileCache("world", TMS), "tilejson-png.json", new byte[] {3}, "application/json");

        assertThat(server.list(prefix)).containsExactly(
                prefix + "/world/WebMercatorQuad/2/1/3.png",
                prefix + "/world/WebMercatorQuad/tilejson-png.json",
                prefix + "/world/WorldCRS84Quad/1/3/1.jpg");
        assertThat(store.describe()).isEqualTo("s3://" + S3TestServer.BUCKET + "/" + prefix);
        assertThat(store.publicUrl()).isEqualTo(server.endpoint.replaceAll("/+$", "") + "/"
                + S3TestServer.BUCKET + "/" + prefix);
    }

    /** A file larger than a part (an archive) goes up in parts: the object is the file, byte for byte. */
    @Test
    void aLargeFileIsUploadedInPartsAndReadsBackWhole() throws Exception {
        java.nio.file.Path file = java.nio.file.Files.createTempFile("upload-", ".pmtiles");
        try {
            byte[] block = new byte[1 << 20];
            new java.util.Random(30).nextBytes(block);
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            try (var out = java.nio.file.Files.newOutputStream(file)) {
                for (int i = 0; i < 70; i++) {
                    block[0] = (byte) i;
                    out.write(block);
                    sha.update(block);
                }
            }

            store.upload("archives/world.pmtiles", file, "application/octet-stream");

            String object = prefix + "/archives/world.pmtiles";
            StatObjectResponse stat = stat(object);
            assertThat(stat.size()).isEqualTo(70L << 20);
            assertThat(stat.etag()).as("a multipart upload's ETag ends in its part count").endsWith("-2");
            assertThat(stat.contentType()).isEqualTo("application/octet-stream");
            assertThat(java.security.MessageDigest.getInstance("SHA-256").digest(server.get(object).orElseThrow()))
                    .isEqualTo(sha.digest());
        } finally {
            java.nio.file.Files.delete(file);
        }
    }

    @Test
    void tilesCarryTheirFormatsContentTypeAndTheCacheControl() throws Exception {
        TileKey png = key(TileCoord.of(1, 0, 0));
        TileKey jpeg = new TileKey("world", TMS, TileCoord.of(1, 1, 0), TileFormat.JPEG);

        store.write(List.of(new EncodedTile(png, new byte[] {1}), new EncodedTile(jpeg, new byte[] {2})));
        store.writeMetadata(new TileCache("world", TMS), "tilejson-png.json", new byte[] {3}, "application/json");

        StatObjectResponse pngStat = stat(store.objectName(png));
        assertThat(pngStat.contentType()).isEqualTo("image/png");
        assertThat(pngStat.headers().get("Cache-Control")).isEqualTo("public, max-age=86400");
        assertThat(stat(store.objectName(jpeg)).contentType()).isEqualTo("image/jpeg");
        StatObjectResponse doc = stat(prefix + "/world/WebMercatorQuad/tilejson-png.json");
        assertThat(doc.contentType()).isEqualTo("application/json");
        assertThat(doc.headers().get("Cache-Control")).isEqualTo("public, max-age=86400");
    }

    @Test
    void jpegPngTilesShareOneUrlPatternAndCarryTheTypeOfTheImageEachHolds() throws Exception {
        TileKey edge = new TileKey("world", TMS, TileCoord.of(3, 1, 2), TileFormat.JPEG_PNG);
        TileKey inland = new TileKey("world", TMS, TileCoord.of(3, 2, 2), TileFormat.JPEG_PNG);
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 26, '\n'};
        byte[] jpeg = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0};

        store.write(List.of(new EncodedTile(edge, png), new EncodedTile(inland, jpeg)));

        assertThat(store.objectName(edge)).endsWith("/world/WebMercatorQuad/3/1/2.jpeg-png");
        assertThat(stat(store.objectName(edge)).contentType()).isEqualTo("image/png");
        assertThat(stat(store.objectName(inland)).contentType()).isEqualTo("image/jpeg");
    }

    @Test
    void theCacheControlIsConfigurable() throws Exception {
        String otherPrefix = prefix + "/other";
        try (S3TileStore other = newStore(otherPrefix, S3Options.defaults().withCacheControl("no-cache"))) {
            TileKey key = key(TileCoord.of(0, 0, 0));
            other.write(List.of(new EncodedTile(key, new byte[] {1})));

            assertThat(stat(other.objectName(key)).headers().get("Cache-Control")).isEqualTo("no-cache");
        }
    }

    @Test
    void deletesMoreThanOneBatchOfObjects() throws Exception {
        List<EncodedTile> tiles = new ArrayList<>();
        for (TileCoord tile : TMS.fullRange(6)) { // 4096 tiles, keep 1100 of them
            if (tiles.size() == S3Bucket.DELETE_BATCH + 100) {
                break;
            }
            tiles.add(new EncodedTile(key(tile), new byte[] {(byte) tile.x(), (byte) tile.y()}));
        }
        store.write(tiles);
        List<TileKey> keys = new ArrayList<>(tiles.stream().map(EncodedTile::key).toList());
        keys.add(key(TileCoord.of(7, 0, 0)));

        assertThat(store.delete(keys)).isEqualTo(1100);

        assertThat(server.list(prefix)).isEmpty();
    }

    @Test
    void aMissingBucketIsCreated() throws Exception {
        String bucket = "tileseeder-it-" + UUID.randomUUID().toString().substring(0, 8);
        extraBuckets.add(bucket);
        try (S3TileStore created = new S3TileStore(server.endpoint, server.accessKey, server.secretKey,
                server.region, new S3Location(bucket, ""), 4, RetryPolicy.DEFAULT)) {
            TileKey key = key(TileCoord.of(0, 0, 0));
            created.write(List.of(new EncodedTile(key, new byte[] {9})));

            assertThat(created.read(key)).hasValueSatisfying(b -> assertThat(b).containsExactly(9));
            assertThat(created.describe()).isEqualTo("s3://" + bucket);
            assertThat(created.delete(List.of(key))).isEqualTo(1);
        }
    }

    @Test
    void anUnreachableEndpointFailsTheConstructorNamingItAfterBoundedRetries() {
        long start = System.nanoTime();

        assertThatThrownBy(() -> new S3TileStore(UNREACHABLE, server.accessKey, server.secretKey, server.region,
                new S3Location(S3TestServer.BUCKET, prefix), 4, RetryPolicy.DEFAULT))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(UNREACHABLE)
                .hasMessageContaining(S3TestServer.BUCKET)
                .hasMessageContaining("gave up after 5 attempts")
                .hasMessageContaining("Connection refused");

        // 4 backoffs of at most 100 + 200 + 400 + 800 ms, and refused connections answer at once.
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void tilesThatCannotReachTheEndpointFailTheWriteNamingThemAfterBoundedRetries() throws Exception {
        try (S3TileStore unreachable = new S3TileStore(UNREACHABLE, server.accessKey, server.secretKey,
                server.region, new S3Location(S3TestServer.BUCKET, prefix),
                S3Options.defaults().withEnsureBucket(false).withRetry(
                        new RetryPolicy(3, Duration.ofMillis(50), Duration.ofMillis(200))))) {
            List<EncodedTile> tiles = tiles("v1", 1);
            long start = System.nanoTime();

            assertThatThrownBy(() -> unreachable.write(tiles)).isInstanceOf(IOException.class)
                    .hasMessageContaining("cannot store 4 of 4 objects")
                    .hasMessageContaining(UNREACHABLE)
                    .hasMessageContaining("gave up after 3 attempts")
                    .hasMessageContaining(prefix + "/world/WebMercatorQuad/1/0/0.png")
                    .hasMessageContaining("Connection refused");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        }
    }

    @Test
    void wrongCredentialsFailTheConstructorAtOnceSayingSo() {
        long start = System.nanoTime();

        assertThatThrownBy(() -> new S3TileStore(server.endpoint, server.accessKey, "not-the-secret",
                server.region, new S3Location(S3TestServer.BUCKET, prefix),
                4, new RetryPolicy(5, Duration.ofSeconds(30), Duration.ofSeconds(30))))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(server.endpoint)
                .hasMessageContaining("HTTP 403")
                .hasMessageContaining("check the access key and secret key")
                .hasMessageNotContaining("attempt");

        // No retry: one retry alone would have waited at least 15 s; a first answer on a loaded machine takes far less.
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void wrongCredentialsFailAWriteAtOnceNamingTheTileAndTheS3Code() throws Exception {
        try (S3TileStore refused = new S3TileStore(server.endpoint, "no-such-access-key", server.secretKey,
                server.region, new S3Location(S3TestServer.BUCKET, prefix), S3Options.defaults()
                        .withEnsureBucket(false)
                        .withRetry(new RetryPolicy(5, Duration.ofSeconds(30), Duration.ofSeconds(30))))) {
            TileKey key = key(TileCoord.of(0, 0, 0));
            long start = System.nanoTime();

            assertThatThrownBy(() -> refused.write(List.of(new EncodedTile(key, new byte[] {1}))))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(prefix + "/world/WebMercatorQuad/0/0/0.png")
                    .hasMessageContaining("InvalidAccessKeyId (HTTP 403)")
                    .hasMessageNotContaining("attempt");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("no retry, which would wait at least 15 s")
                    .isLessThan(Duration.ofSeconds(10));
        }
        assertThat(server.list(prefix)).isEmpty();
    }

    @Test
    void aTileGivenTwiceInOneWriteIsStoredOnceWithTheLastBytes() throws Exception {
        TileKey key = key(TileCoord.of(0, 0, 0));

        store.write(List.of(new EncodedTile(key, "first".getBytes(StandardCharsets.UTF_8)),
                new EncodedTile(key, "second".getBytes(StandardCharsets.UTF_8))));

        assertThat(new String(store.read(key).orElseThrow(), StandardCharsets.UTF_8)).isEqualTo("second");
    }

    @Test
    void aStoreWithOneRequestInFlightStillStoresEverything() throws Exception {
        try (S3TileStore serial = newStore(prefix + "/serial", S3Options.defaults().withMaxInFlight(1))) {
            List<EncodedTile> tiles = tiles("serial", 2);

            serial.write(tiles);

            for (EncodedTile tile : tiles) {
                assertThat(serial.read(tile.key()).orElseThrow()).isEqualTo(tile.data());
            }
        }
    }

    private S3TileStore newStore(String keyPrefix, S3Options options) throws IOException {
        return new S3TileStore(server.endpoint, server.accessKey, server.secretKey, server.region,
                new S3Location(S3TestServer.BUCKET, keyPrefix), options);
    }

    private static StatObjectResponse stat(String object) throws Exception {
        return server.client.statObject(StatObjectArgs.builder().bucket(S3TestServer.BUCKET).object(object).build());
    }
}
