package io.tileseeder.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.grid.TileCoord;
import io.tileseeder.port.TileCache;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.StoredTile;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link TileStore} promises, whatever it stores tiles in. A store's test extends this and says how to
 * get a fresh, empty store and how to read a metadata document back by its own means.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class TileStoreContract {

    protected static final TileMatrixSet TMS = TileMatrixSet.WEB_MERCATOR_QUAD;

    /** A store with nothing in it, the same one for the whole test method. */
    protected abstract TileStore store();

    /** The document at {@code {cache}/{name}} in the store, read without the TileStore port. */
    protected abstract Optional<byte[]> readMetadata(TileCache cache, String name) throws IOException;

    @Test
    void whatIsWrittenReadsBackByteForByte() throws Exception {
        List<EncodedTile> tiles = tiles("v1", 2);

        store().write(tiles);

        for (EncodedTile tile : tiles) {
            assertThat(store().read(tile.key())).as(tile.key().path())
                    .hasValueSatisfying(bytes -> assertThat(bytes).isEqualTo(tile.data()));
        }
    }

    @Test
    void manyTilesAreLookedUpInOneGoWithTheSameTimesAsOneByOne() throws Exception {
        List<EncodedTile> tiles = tiles("v1", 3);
        TileKey missing = key(TileCoord.of(5, 3, 4));
        store().write(tiles);
        List<TileKey> keys = new ArrayList<>(tiles.stream().map(EncodedTile::key).toList());
        keys.add(1, missing);

        var found = store().lastModified(keys);

        assertThat(found).containsOnlyKeys(tiles.stream().map(EncodedTile::key).toList());
        for (EncodedTile tile : tiles) {
            assertThat(found.get(tile.key())).isEqualTo(store().lastModified(tile.key()).orElseThrow());
        }
        assertThat(store().lastModified(List.of(missing))).isEmpty();
    }

    @Test
    void whatIsStoredOfATileHoldsItsBytesAndNoOthers() throws Exception {
        List<EncodedTile> tiles = tiles("v1", 3);
        TileKey missing = key(TileCoord.of(5, 3, 4));
        store().write(tiles);
        List<TileKey> keys = new ArrayList<>(tiles.stream().map(EncodedTile::key).toList());
        keys.add(missing);

        var found = store().stored(keys);

        assertThat(found).containsOnlyKeys(tiles.stream().map(EncodedTile::key).toList());
        for (EncodedTile tile : tiles) {
            StoredTile stored = found.get(tile.key());
            assertThat(stored.lastModified()).isEqualTo(store().lastModified(tile.key()).orElseThrow());
            assertThat(stored.holds(tile.data())).as(tile.key().path()).isTrue();
            assertThat(stored.holds(new byte[] {42})).isFalse();
        }
    }

    @Test
    void aWrittenTileHasATimeAndAMissingOneHasNone() throws Exception {
        Instant before = Instant.now().minus(2, ChronoUnit.SECONDS);
        EncodedTile tile = tiles("v1", 1).get(0);
        TileKey missing = key(TileCoord.of(5, 3, 4));

        store().write(List.of(tile));

        assertThat(store().lastModified(tile.key())).hasValueSatisfying(t -> assertThat(t)
                .isAfter(before).isBefore(Instant.now().plus(2, ChronoUnit.SECONDS)));
        assertThat(store().lastModified(missing)).isEmpty();
        assertThat(store().read(missing)).isEmpty();
    }

    @Test
    void aSecondWriteReplacesTheFirst() throws Exception {
        store().write(tiles("old", 2));
        List<EncodedTile> newer = tiles("newer and longer", 2);

        store().write(newer);

        for (EncodedTile tile : newer) {
            assertThat(store().read(tile.key()).orElseThrow()).isEqualTo(tile.data());
        }
    }

    @Test
    void manyTilesInOneWriteAreAllStored() throws Exception {
        List<EncodedTile> tiles = tiles("many", 3); // 64 tiles

        store().write(tiles);

        assertThat(tiles).hasSize(64);
        for (EncodedTile tile : tiles) {
            assertThat(store().read(tile.key()).orElseThrow()).as(tile.key().path()).isEqualTo(tile.data());
        }
    }

    @Test
    void deleteRemovesTheTilesAndCountsThoseThatExisted() throws Exception {
        List<EncodedTile> tiles = tiles("x", 2).subList(0, 5);
        store().write(tiles);
        List<TileKey> keys = new ArrayList<>(tiles.stream().map(EncodedTile::key).toList());
        keys.add(key(TileCoord.of(2, 3, 3)));
        keys.add(new TileKey("other", TMS, TileCoord.of(0, 0, 0), TileFormat.PNG));
        EncodedTile kept = tiles("x", 2).get(10);
        store().write(List.of(kept));

        assertThat(store().delete(keys)).isEqualTo(5);

        for (TileKey key : keys) {
            assertThat(store().lastModified(key)).as(key.path()).isEmpty();
            assertThat(store().read(key)).as(key.path()).isEmpty();
        }
        assertThat(store().read(kept.key())).as("a tile not named").isPresent();
        assertThat(store().delete(keys)).as("deleting again").isZero();
        assertThat(store().delete(List.of())).as("deleting nothing").isZero();
    }

    @Test
    void metadataIsStoredBesideTheLayersTiles() throws Exception {
        byte[] doc = "{\"tilejson\": \"3.0.0\"}".getBytes(StandardCharsets.UTF_8);

        store().writeMetadata(new TileCache("world", TMS), "tilejson-png.json", doc, "application/json");

        assertThat(readMetadata(new TileCache("world", TMS), "tilejson-png.json")).hasValueSatisfying(b -> assertThat(b)
                .isEqualTo(doc));
        assertThat(readMetadata(new TileCache("world", TMS), "absent.json")).isEmpty();
    }

    @Test
    void aDocumentCanBeLookedUpAndDeletedAndOnlyThoseNamedGo() throws Exception {
        byte[] mark = "job-1\n".getBytes(StandardCharsets.UTF_8);
        String first = "done/png-4x4-skip/3/0/1";
        String second = "done/png-4x4-skip/3/1/1";
        store().writeMetadata(new TileCache("world", TMS), first, mark, "text/plain");
        store().writeMetadata(new TileCache("world", TMS), second, mark, "text/plain");
        store().write(List.of(new EncodedTile(key(TileCoord.of(3, 0, 4)), mark)));

        assertThat(store().hasMetadata(new TileCache("world", TMS), first)).isTrue();
        assertThat(store().hasMetadata(new TileCache("world", TMS), "done/png-4x4-skip/3/0/2")).isFalse();
        assertThat(store().hasMetadata(new TileCache("other", TMS), first)).as("another layer's").isFalse();

        store().deleteMetadata(new TileCache("world", TMS), List.of(first, "done/png-4x4-store/3/0/1", first));

        assertThat(store().hasMetadata(new TileCache("world", TMS), first)).isFalse();
        assertThat(store().hasMetadata(new TileCache("world", TMS), second)).isTrue();
        assertThat(store().read(key(TileCoord.of(3, 0, 4)))).as("a tile beside them").isPresent();
        store().deleteMetadata(new TileCache("world", TMS), List.of());
        assertThat(store().hasMetadata(new TileCache("world", TMS), second)).isTrue();
    }

    /** What the TileJSON's zoom range is made of: a truncate that deletes every tile of a zoom narrows it. */
    @Test
    void aZoomWhoseTilesAreAllDeletedHasNoTiles() throws Exception {
        TileKey kept = key(TileCoord.of(4, 3, 1));
        List<TileKey> deleted = List.of(key(TileCoord.of(4, 1, 1)), key(TileCoord.of(4, 2, 1)));
        store().write(List.of(new EncodedTile(kept, new byte[]{1}), new EncodedTile(deleted.get(0), new byte[]{2}),
                new EncodedTile(deleted.get(1), new byte[]{3})));

        store().delete(deleted);
        assertThat(store().hasTiles(new TileCache("world", TMS), 4)).as("one tile of the zoom left").isTrue();

        store().delete(List.of(kept));
        assertThat(store().hasTiles(new TileCache("world", TMS), 4)).as("every tile of the zoom deleted").isFalse();
    }

    @Test
    void aDocumentReadsBackAndAMissingOneIsEmpty() throws Exception {
        TileCache cache = new TileCache("world", TMS);
        store().writeMetadata(cache, "tilejson-png.json", "{\"tilejson\":\"3.0.0\"}".getBytes(), "application/json");

        assertThat(store().readMetadata(cache, "tilejson-png.json")).hasValue("{\"tilejson\":\"3.0.0\"}".getBytes());
        assertThat(store().readMetadata(cache, "manifest-png.json")).isEmpty();
        assertThat(store().readMetadata(new TileCache("other", TMS), "tilejson-png.json")).isEmpty();
    }

    @Test
    void writingNothingIsANoOp() throws Exception {
        store().write(List.of());

        assertThat(store().lastModified(key(TileCoord.of(0, 0, 0)))).isEmpty();
    }

    @Test
    void describeSaysWhereTilesGo() {
        assertThat(store().describe()).isNotBlank();
    }

    protected static TileKey key(TileCoord tile) {
        return new TileKey("world", TMS, tile, TileFormat.PNG);
    }

    /** All tiles of zoom {@code z} (4^z of them), each with its own bytes. */
    protected static List<EncodedTile> tiles(String version, int z) {
        List<EncodedTile> tiles = new ArrayList<>();
        for (TileCoord tile : TMS.fullRange(z)) {
            byte[] data = (version + " " + tile + " ").repeat(1 + tile.x() * 7 + tile.y())
                    .getBytes(StandardCharsets.UTF_8);
            tiles.add(new EncodedTile(key(tile), data));
        }
        return tiles;
    }
}
