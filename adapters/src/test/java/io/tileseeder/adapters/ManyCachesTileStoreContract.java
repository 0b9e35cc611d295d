package io.tileseeder.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileKey;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The {@link TileStoreContract} of a store that holds many caches (a folder, an object store): beside it, the tiles of
 * other layers, tile matrix sets, formats and dimension values, each its own.
 */
public abstract class ManyCachesTileStoreContract extends TileStoreContract {

    @Test
    void jpegAndPngTilesOfTheSamePlaceAreDifferentTiles() throws Exception {
        TileCoord where = TileCoord.of(1, 1, 0);
        TileKey png = new TileKey("world", TMS, where, TileFormat.PNG);
        TileKey jpeg = new TileKey("world", TMS, where, TileFormat.JPEG);

        store().write(List.of(new EncodedTile(png, new byte[] {1}), new EncodedTile(jpeg, new byte[] {2, 2})));

        assertThat(store().read(png)).hasValueSatisfying(b -> assertThat(b).containsExactly(1));
        assertThat(store().read(jpeg)).hasValueSatisfying(b -> assertThat(b).containsExactly(2, 2));
    }

    @Test
    void aZoomHasTilesOnceOneOfItsTilesIsStoredAndDocumentsDoNotCount() throws Exception {
        assertThat(store().hasTiles(new TileCache("world", TMS), 3)).as("an empty store").isFalse();
        store().writeMetadata(new TileCache("world", TMS), "done/png-4x4-skip/3/0/1", new byte[]{1}, "text/plain");
        store().writeMetadata(new TileCache("world", TMS), "3.json", new byte[]{1}, "application/json");
        assertThat(store().hasTiles(new TileCache("world", TMS), 3)).as("documents beside the tiles only").isFalse();

        store().write(List.of(new EncodedTile(new TileKey("world", TMS, TileCoord.of(3, 5, 2), TileFormat.JPEG),
                new byte[]{2})));

        assertThat(store().hasTiles(new TileCache("world", TMS), 3)).as("a tile of another format than png").isTrue();
        assertThat(store().hasTiles(new TileCache("world", TMS), 4)).as("the next zoom").isFalse();
        assertThat(store().hasTiles(new TileCache("world", TileMatrixSet.WORLD_CRS84_QUAD), 3)).as("another tile matrix set")
                .isFalse();
        assertThat(store().hasTiles(new TileCache("other", TMS), 3)).as("another layer").isFalse();
        store().write(List.of(new EncodedTile(key(TileCoord.of(13, 0, 0)), new byte[]{3})));
        assertThat(store().hasTiles(new TileCache("world", TMS), 1)).as("zoom 1 beside zoom 13").isFalse();
        assertThat(store().hasTiles(new TileCache("world", TMS), 13)).isTrue();
    }

    /** The caches of a layer with dimensions: listed by a document they hold, deleted whole, one at a time. */
    @Test
    void theCachesOfALayersDimensionsAreListedByTheirDocumentAndDeletedWhole() throws Exception {
        TileCache noon = cache("2026-11-26T12:00:00Z", "night");
        TileCache later = cache("2026-11-26T12:05:00Z", "night");
        TileCache filtered = cache("2026-11-26T12:00:00Z", "network='gas'");
        TileCache prefixOfAnother = cache("2026-11-26T12:00:00Z", "nigh");
        for (TileCache cache : List.of(noon, later, filtered, prefixOfAnother)) {
            store().write(List.of(new EncodedTile(new TileKey(cache, TileCoord.of(3, 1, 2), TileFormat.PNG),
                    new byte[] {1}), new EncodedTile(new TileKey(cache, TileCoord.of(0, 0, 0), TileFormat.JPEG),
                    new byte[] {2})));
            store().writeMetadata(cache, "done/png-4x4-skip/0/0/0", new byte[] {3}, "text/plain");
            store().writeMetadata(cache, "manifest-png.json", new byte[] {'{', '}'}, "application/json");
        }
        store().writeMetadata(later, "tilejson-png.json", new byte[] {'{', '}'}, "application/json");
        TileCache set = new TileCache("radar", TMS);
        store().writeMetadata(set, "WMTSCapabilities-png.xml", new byte[] {'<'}, "application/xml");

        assertThat(store().cachesWith(set, 2, "manifest-png.json")).containsExactly(
                "2026-11-26T12:00:00Z/network%3D%27gas%27", "2026-11-26T12:00:00Z/nigh",
                "2026-11-26T12:00:00Z/night", "2026-11-26T12:05:00Z/night");
        assertThat(store().cachesWith(set, 2, "tilejson-png.json")).containsExactly("2026-11-26T12:05:00Z/night");
        assertThat(store().cachesWith(new TileCache("other", TMS), 2, "manifest-png.json")).isEmpty();

        assertThat(store().deleteCache(noon)).as("two tiles, a marker, a manifest").isEqualTo(4);

        assertThat(store().cachesWith(set, 2, "manifest-png.json")).containsExactly(
                "2026-11-26T12:00:00Z/network%3D%27gas%27", "2026-11-26T12:00:00Z/nigh", "2026-11-26T12:05:00Z/night");
        assertThat(store().read(new TileKey(noon, TileCoord.of(3, 1, 2), TileFormat.PNG))).isEmpty();
        assertThat(store().hasTiles(noon, 3)).isFalse();
        assertThat(store().hasMetadata(noon, "done/png-4x4-skip/0/0/0")).isFalse();
        assertThat(store().read(new TileKey(prefixOfAnother, TileCoord.of(3, 1, 2), TileFormat.PNG)))
                .as("a cache whose folder name starts like the deleted one's").isPresent();
        assertThat(store().hasMetadata(set, "WMTSCapabilities-png.xml")).isTrue();
        assertThat(store().deleteCache(noon)).as("a cache deleted already").isZero();
    }

    /**
     * What a pack reads: every tile of one zoom and format, more than a listing page (1000), none of another zoom,
     * format, layer or cache, nor the documents and done markers beside them.
     */
    @Test
    void aZoomsTilesOfOneFormatAreListedAndNothingElse() throws Exception {
        Set<TileCoord> written = new HashSet<>();
        List<EncodedTile> tiles = new ArrayList<>();
        for (int x = 0; x < 64; x++) {
            for (int y = 0; y < 20; y++) {
                TileCoord tile = TileCoord.of(6, x, y * 3);
                written.add(tile);
                tiles.add(new EncodedTile(key(tile), new byte[] {(byte) x}));
            }
        }
        tiles.add(new EncodedTile(key(TileCoord.of(5, 1, 1)), new byte[] {1}));
        tiles.add(new EncodedTile(new TileKey("world", TMS, TileCoord.of(6, 1, 2), TileFormat.JPEG), new byte[] {1}));
        tiles.add(new EncodedTile(new TileKey("other", TMS, TileCoord.of(6, 1, 2), TileFormat.PNG), new byte[] {1}));
        tiles.add(new EncodedTile(new TileKey(cache("2026-11-26T12:00:00Z", "night"), TileCoord.of(6, 1, 2),
                TileFormat.PNG), new byte[] {1}));
        store().write(tiles);
        store().writeMetadata(new TileCache("world", TMS), "done/png-4x4-skip/6/0/0", new byte[] {1}, "text/plain");
        store().writeMetadata(new TileCache("world", TMS), "6.json", new byte[] {1}, "application/json");

        List<TileCoord> listed = new ArrayList<>();
        store().list(new TileCache("world", TMS), 6, TileFormat.PNG, listed::add);

        assertThat(listed).hasSize(written.size()).containsExactlyInAnyOrderElementsOf(written);
        List<TileCoord> none = new ArrayList<>();
        store().list(new TileCache("world", TMS), 7, TileFormat.PNG, none::add);
        assertThat(none).as("a zoom with no tile").isEmpty();
        store().list(new TileCache("world", TMS), 6, TileFormat.WEBP, none::add);
        assertThat(none).as("a format with no tile").isEmpty();
    }

    private static TileCache cache(String time, String style) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("TIME", time);
        values.put("STYLES", style);
        return new TileCache("radar", TMS, new DimensionValues(values));
    }
}
