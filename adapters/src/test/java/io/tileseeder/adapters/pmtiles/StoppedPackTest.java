package io.tileseeder.adapters.pmtiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.ArchivePacker;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A pack told to stop (its job ended, its worker closes) while it lists the cache or writes the archive: it stops
 * within the tiles between two questions, and leaves the archive of before and none of its temporary files.
 */
class StoppedPackTest {

    private static final TileCache WORLD = new TileCache("world", TileMatrixSet.WEB_MERCATOR_QUAD);
    private static final CachePacker.About ABOUT = new CachePacker.About(PmtilesWriter.TileType.PNG,
            new double[] {-180, -85, 180, 85}, "{}");

    @TempDir
    Path dir;

    /** @param askedBefore how often the pack asks before it is told to stop: 2 stops it listing, 5 writing */
    @ParameterizedTest
    @ValueSource(ints = {2, 5})
    void aStoppedPackLeavesTheArchiveBeforeAndNoTemporaryFile(int askedBefore) throws Exception {
        Path tiles = dir.resolve("tiles");
        List<EncodedTile> written = new ArrayList<>();
        for (int x = 0; x < 64; x++) {
            for (int y = 0; y < 64; y++) {
                written.add(new EncodedTile(new TileKey(WORLD, TileCoord.of(6, x, y), TileFormat.PNG),
                        ("tile " + x + "/" + y).getBytes(StandardCharsets.UTF_8)));
            }
        }
        FileTileStore store = new FileTileStore(tiles);
        store.write(written);
        Path out = Files.createDirectories(dir.resolve("out"));
        Path archive = Files.writeString(out.resolve("world.pmtiles"), "the archive before");
        AtomicLong asked = new AtomicLong();

        assertThatThrownBy(() -> new CachePacker(store, CachePacker.Limits.DEFAULT).pack(WORLD, TileFormat.PNG, 0, 6,
                ABOUT, archive, () -> asked.incrementAndGet() >= askedBefore))
                .isInstanceOf(ArchivePacker.Stopped.class);

        // 4,096 tiles, asked every 1,024: four times while listing, then while writing.
        assertThat(asked).hasValue(askedBefore);
        assertThat(Files.readString(archive)).isEqualTo("the archive before");
        try (Stream<Path> left = Files.list(out)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactly("world.pmtiles");
        }
    }
}
