package io.tileseeder.adapters.bucket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.adapters.ManyCachesTileStoreContract;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.job.Digests;
import io.tileseeder.job.TileFormat;
import io.tileseeder.outage.RetryPolicy;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.Layout;
import io.tileseeder.port.StoreUnavailableException;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * A cloud's {@link BucketTileStore} against that cloud's emulator of {@code dev/services} (no mock): the
 * {@link ManyCachesTileStoreContract} in each layout, then what is read back with the cloud's own SDK (where each tile's
 * object is, its Content-Type and Cache-Control, a large upload), deletes past one batch request, and the failures
 * of the credentials and of the endpoint. Each test writes below a fresh random prefix and removes it afterwards.
 */
public abstract class BucketStoreContract extends ManyCachesTileStoreContract {

    /** What the cloud's SDK says of an object. */
    public record Seen(String contentType, String cacheControl, byte[] data) {
    }

    @Parameter
    protected Layout layout;

    protected String prefix;
    private BucketTileStore store;

    @TempDir
    protected Path temp;

    /** A store below {@code prefix} of the tests' bucket, in {@code layout}. */
    protected abstract BucketTileStore open(String prefix, Layout layout, RetryPolicy retry) throws IOException;

    /** A store of the tests' bucket whose credentials are refused (by the service, or as they are read). */
    protected abstract BucketTileStore openRefused(String prefix) throws IOException;

    /** What the error of {@link #openRefused} says. */
    protected abstract String refusal();

    /** A store of an endpoint nothing listens on. */
    protected abstract BucketTileStore openUnreachable(String prefix, RetryPolicy retry) throws IOException;

    /** Every object below {@code prefix}, read with the cloud's SDK, by name. */
    protected abstract Map<String, Seen> objects(String prefix) throws IOException;

    /** Deletes everything below {@code prefix} with the cloud's SDK. */
    protected abstract void deleteAll(String prefix) throws IOException;

    /** The batch size of the cloud's delete requests. */
    protected abstract int deleteBatch();

    /** Nothing listens on port 1 of the loopback: connections are refused at once. */
    protected static final String UNREACHABLE = "http://127.0.0.1:1";

    protected static String randomPrefix() {
        return "it/" + UUID.randomUUID();
    }

    @BeforeEach
    void setUp() throws IOException {
        prefix = randomPrefix();
        store = open(prefix, layout, RetryPolicy.DEFAULT);
    }

    @AfterEach
    void tearDown() throws IOException {
        store.close();
        deleteAll(prefix);
    }

    @Override
    protected TileStore store() {
        return store;
    }

    @Override
    protected Optional<byte[]> readMetadata(TileCache cache, String name) throws IOException {
        return Optional.ofNullable(objects(prefix).get(prefix + "/" + layout.folder(cache) + "/" + name))
                .map(Seen::data);
    }

    @Test
    void eachTileIsAnObjectWhereItsLayoutSaysWithItsContentTypeAndTheCacheControl() throws Exception {
        TileKey png = key(TileCoord.of(3, 5, 2));
        TileKey jpeg = new TileKey("world", TMS, TileCoord.of(3, 1, 0), TileFormat.JPEG);
        TileCache cache = new TileCache("world", TMS);

        store.write(List.of(new EncodedTile(png, new byte[] {7}), new EncodedTile(jpeg, new byte[] {8})));
        store.writeMetadata(cache, "tilejson-png.json", new byte[] {3}, "application/json");

        Map<String, Seen> objects = objects(prefix);
        assertThat(objects).containsOnlyKeys(prefix + "/" + layout.path(png), prefix + "/" + layout.path(jpeg),
                prefix + "/" + layout.folder(cache) + "/tilejson-png.json");
        Seen tile = objects.get(prefix + "/" + layout.path(png));
        assertThat(tile.data()).containsExactly(7);
        assertThat(tile.contentType()).isEqualTo("image/png");
        assertThat(tile.cacheControl()).isEqualTo(BucketTileStore.DEFAULT_CACHE_CONTROL);
        assertThat(objects.get(prefix + "/" + layout.path(jpeg)).contentType()).isEqualTo("image/jpeg");
        assertThat(objects.get(prefix + "/" + layout.folder(cache) + "/tilejson-png.json").contentType())
                .isEqualTo("application/json");
    }

    /** A reseed tells unchanged tiles by the MD5 the service keeps, without reading them. */
    @Test
    void theStoredDigestOfATileIsTheMd5OfItsBytes() throws Exception {
        TileKey key = key(TileCoord.of(2, 1, 1));
        byte[] data = "a tile".getBytes(java.nio.charset.StandardCharsets.UTF_8);

        store.write(List.of(new EncodedTile(key, data)));

        assertThat(store.stored(List.of(key)).get(key).md5()).isEqualTo(Digests.md5(data));
    }

    @Test
    void deletesPastOneBatchRequestDeleteEveryTileAndCountThoseThatExisted() throws Exception {
        List<EncodedTile> tiles = new ArrayList<>();
        for (int x = 0; tiles.size() < deleteBatch() + 20; x++) {
            tiles.add(new EncodedTile(key(TileCoord.of(10, x, 7)), new byte[] {(byte) x}));
        }
        store.write(tiles);
        List<TileKey> keys = new ArrayList<>(tiles.stream().map(EncodedTile::key).toList());
        keys.add(key(TileCoord.of(10, 1000, 1000)));

        assertThat(store.delete(keys)).isEqualTo(tiles.size());
        assertThat(objects(prefix)).isEmpty();
        store.write(tiles);
        assertThat(store.deleteCache(new TileCache("world", TMS))).isEqualTo(tiles.size());
        assertThat(objects(prefix)).isEmpty();
    }

    /** A file (an archive) goes up whole, in blocks or chunks: the object is the file, byte for byte. */
    @Test
    void aFileIsUploadedAndReadsBackWhole() throws Exception {
        Path file = temp.resolve("world.pmtiles");
        byte[] block = new byte[1 << 20];
        new Random(30).nextBytes(block);
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        try (OutputStream out = Files.newOutputStream(file)) {
            for (int i = 0; i < 20; i++) {
                block[0] = (byte) i;
                out.write(block);
                sha.update(block);
            }
        }

        store.upload("archives/world.pmtiles", file, "application/vnd.pmtiles");

        Seen archive = objects(prefix).get(prefix + "/archives/world.pmtiles");
        assertThat(archive.contentType()).isEqualTo("application/vnd.pmtiles");
        assertThat(MessageDigest.getInstance("SHA-256").digest(archive.data())).isEqualTo(sha.digest());
    }

    @Test
    void refusedCredentialsFailAtOnceNamingTheStore() {
        assertThatThrownBy(() -> openRefused(randomPrefix()).close())
                .isInstanceOf(IOException.class).isNotInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining(refusal());
    }

    @Test
    void anEndpointThatCannotBeReachedIsAnOutageOnceTheRetriesAreSpent() {
        RetryPolicy quick = new RetryPolicy(2, Duration.ofMillis(10), Duration.ofMillis(10));
        assertThatThrownBy(() -> openUnreachable(randomPrefix(), quick).close())
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("cannot look up bucket").hasMessageContaining("gave up after 2 attempts")
                .hasMessageContaining("cannot connect");
    }
}
