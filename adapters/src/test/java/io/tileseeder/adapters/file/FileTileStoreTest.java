package io.tileseeder.adapters.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.port.TileCache;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.Layout;
import io.tileseeder.port.TileKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FileTileStoreTest {

    private static final TileMatrixSet TMS = TileMatrixSet.WEB_MERCATOR_QUAD;

    @TempDir
    Path root;

    private FileTileStore store;

    @BeforeEach
    void setUp() {
        store = new FileTileStore(root);
    }

    /** Defence in depth: the API checks tile keys against the catalogue, and the store refuses any key leading out. */
    @Test
    void refusesKeysThatLeadOutOfTheStore() throws Exception {
        Path inside = Files.createDirectories(root.resolve("store"));
        Path planted = root.resolve("secret/WebMercatorQuad/0/0/0.png");
        Files.createDirectories(planted.getParent());
        Files.writeString(planted, "outside the store");
        FileTileStore contained = new FileTileStore(inside);

        for (String layer : List.of("../secret", "..", "../../" + root.getFileName() + "/secret",
                root.resolve("secret").toString(), "..\u0000")) {
            TileKey key = new TileKey(layer, TMS, TileCoord.of(0, 0, 0), TileFormat.PNG);
            assertThatThrownBy(() -> contained.read(key)).as("read of layer %s", layer)
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> contained.delete(List.of(key))).as("delete of layer %s", layer)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(planted).hasContent("outside the store");
        assertThat(contained.read(new TileKey("world", TMS, TileCoord.of(0, 0, 0), TileFormat.PNG))).isEmpty();
    }

    @Test
    void writesEachTileAtItsPathDurablyAndLeavesNoTemporaryFile() throws Exception {
        List<EncodedTile> tiles = zoom2Tiles("v1");
        Instant before = Instant.now().minus(1, ChronoUnit.SECONDS);

        store.write(tiles);

        assertThat(Folders.regularFiles(root)).hasSize(16).allMatch(f -> f.matches(
                "world/WebMercatorQuad/2/[0-3]/[0-3]\\.png"));
        for (EncodedTile tile : tiles) {
            Path file = root.resolve("world/WebMercatorQuad/2/" + tile.key().tile().x() + "/" + tile.key().tile().y()
                    + ".png");
            assertThat(store.pathOf(tile.key())).isEqualTo(file);
            assertThat(file).hasBinaryContent(tile.data());
            assertThat(store.read(tile.key())).hasValueSatisfying(bytes -> assertThat(bytes).isEqualTo(tile.data()));
            assertThat(store.lastModified(tile.key())).hasValueSatisfying(t -> assertThat(t).isAfter(before));
        }
        assertThat(Folders.tempFiles(root)).isEmpty();
        assertThat(hiddenFiles()).isEmpty();
    }

    @Test
    void writeReplacesWhatIsThere() throws Exception {
        store.write(zoom2Tiles("old"));
        List<EncodedTile> newer = zoom2Tiles("new");

        store.write(newer);

        for (EncodedTile tile : newer) {
            assertThat(store.read(tile.key()).orElseThrow()).isEqualTo(tile.data());
        }
        assertThat(Folders.regularFiles(root)).hasSize(16);
        assertThat(hiddenFiles()).isEmpty();
    }

    @Test
    void aMissingTileHasNoTimeAndNoBytes() throws Exception {
        TileKey missing = key("world", TMS, TileCoord.of(5, 3, 4));

        assertThat(store.lastModified(missing)).isEmpty();
        assertThat(store.read(missing)).isEmpty();
        assertThat(root).isEmptyDirectory();
    }

    @Test
    void deleteReturnsHowManyTilesExisted() throws Exception {
        List<EncodedTile> tiles = zoom2Tiles("x").subList(0, 3);
        store.write(tiles);
        List<TileKey> keys = new ArrayList<>(tiles.stream().map(EncodedTile::key).toList());
        keys.add(key("world", TMS, TileCoord.of(2, 3, 3)));
        keys.add(key("other", TMS, TileCoord.of(0, 0, 0)));

        assertThat(store.delete(keys)).isEqualTo(3);
        assertThat(Folders.regularFiles(root)).isEmpty();
        assertThat(store.delete(keys)).as("deleting again").isZero();
        for (TileKey key : keys) {
            assertThat(store.lastModified(key)).isEmpty();
        }
    }

    @Test
    void aWriteThatFailsPartWayThrowsAndLeavesNoTemporaryFile() throws Exception {
        List<EncodedTile> tiles = zoom2Tiles("v1");
        // A folder, not empty, where tile 2/1/2.png must go: that tile's rename fails.
        Path blocked = root.resolve("world/WebMercatorQuad/2/1/2.png");
        Files.createDirectories(blocked.resolve("in-the-way"));

        assertThatThrownBy(() -> store.write(tiles)).isInstanceOf(IOException.class)
                .hasMessageContaining("2.png");

        assertThat(Folders.tempFiles(root)).as("temporary files left").isEmpty();
        assertThat(hiddenFiles()).isEmpty();
        assertThat(blocked.resolve("in-the-way")).isDirectory();
        // Every tile is either complete or absent: never a part.
        for (EncodedTile tile : tiles) {
            Path file = store.pathOf(tile.key());
            if (!file.equals(blocked) && Files.exists(file)) {
                assertThat(file).hasBinaryContent(tile.data());
            }
        }
    }

    @Test
    void aFileWhereTheTilesFolderShouldBeFailsTheWriteSayingSo() throws Exception {
        Path folder = root.resolve("world/WebMercatorQuad/2/0");
        Files.createDirectories(folder.getParent());
        Files.writeString(folder, "not a folder");

        assertThatThrownBy(() -> store.write(zoom2Tiles("v1"))).isInstanceOf(IOException.class)
                .hasMessageContaining("a file is in the way")
                .hasMessageContaining(folder.toString());
        assertThat(Folders.regularFiles(root)).containsExactly("world/WebMercatorQuad/2/0");
    }

    @Test
    void aFileWhereAnOuterFolderShouldBeFailsTheWriteNamingThePath() throws Exception {
        Files.createDirectories(root.resolve("world/WebMercatorQuad"));
        Files.writeString(root.resolve("world/WebMercatorQuad/2"), "not a folder");

        assertThatThrownBy(() -> store.write(zoom2Tiles("v1"))).isInstanceOf(IOException.class)
                .hasMessageContaining(root.resolve("world/WebMercatorQuad/2").toString());
        assertThat(Folders.regularFiles(root)).containsExactly("world/WebMercatorQuad/2");
    }

    @Test
    void jpegTilesEndInJpg() throws Exception {
        TileKey key = new TileKey("world", TileMatrixSet.WORLD_CRS84_QUAD, TileCoord.of(1, 3, 1), TileFormat.JPEG);

        store.write(List.of(new EncodedTile(key, new byte[] {1, 2, 3})));

        assertThat(Folders.regularFiles(root)).containsExactly("world/WorldCRS84Quad/1/3/1.jpg");
    }

    @Test
    void metadataGoesBesideTheLayersTiles() throws Exception {
        byte[] doc = "{\"tilejson\": \"3.0.0\"}".getBytes(StandardCharsets.UTF_8);

        store.writeMetadata(new TileCache("world", TMS), "tilejson-png.json", doc, "application/json");

        assertThat(root.resolve("world/WebMercatorQuad/tilejson-png.json")).hasBinaryContent(doc);
        assertThat(Folders.tempFiles(root)).isEmpty();
        assertThat(store.describe()).isEqualTo(root.toAbsolutePath().normalize().toString());
    }

    /** The 16 tiles of zoom 2, each with its own bytes. */
    private static List<EncodedTile> zoom2Tiles(String version) {
        List<EncodedTile> tiles = new ArrayList<>();
        for (TileCoord tile : TMS.fullRange(2)) {
            byte[] data = (version + " " + tile + " ").repeat(1 + tile.x() * 50 + tile.y())
                    .getBytes(StandardCharsets.UTF_8);
            tiles.add(new EncodedTile(key("world", TMS, tile), data));
        }
        return tiles;
    }

    private List<String> hiddenFiles() throws IOException {
        return Folders.regularFiles(root).stream()
                .filter(f -> Arrays.stream(f.split("/")).anyMatch(part -> part.startsWith(".")))
                .toList();
    }

    private static TileKey key(String layer, TileMatrixSet tms, TileCoord tile) {
        return new TileKey(layer, tms, tile, TileFormat.PNG);
    }

    /** A job of a set its layout cannot name is refused at submission, naming the set. */
    @Test
    void aStoreRefusesTheJobsOfASetItsLayoutCannotName() {
        FileTileStore quadkeys = new FileTileStore(root, Layout.QUADKEY);

        assertThat(quadkeys.refuses(job(TileMatrixSet.WORLD_CRS84_QUAD))).hasValueSatisfying(error -> {
            assertThat(error.field()).isEqualTo("tileMatrixSet");
            assertThat(error.reason()).startsWith("the quadkey layout names the tiles of a quadtree");
        });
        assertThat(quadkeys.refuses(job(TileMatrixSet.WEB_MERCATOR_QUAD))).isEmpty();
        assertThat(new FileTileStore(root).refuses(job(TileMatrixSet.WORLD_CRS84_QUAD))).isEmpty();
    }

    private static JobSpec job(TileMatrixSet set) {
        return new JobSpec("world", set, 0, 2, set.crs84Bounds(), TileFormat.PNG, Mode.SEED, MetatileSize.DEFAULT,
                null, 0, Map.of());
    }
}
