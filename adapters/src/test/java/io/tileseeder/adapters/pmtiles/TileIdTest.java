package io.tileseeder.adapters.pmtiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** PMTiles v3 tile ids: the specification's examples, and every tile of a zoom once, in a walk of neighbours. */
class TileIdTest {

    @Test
    void theSpecificationsExamples() {
        assertThat(TileId.of(0, 0, 0)).isZero();
        assertThat(TileId.of(1, 0, 0)).isEqualTo(1);
        assertThat(TileId.of(1, 0, 1)).isEqualTo(2);
        assertThat(TileId.of(1, 1, 1)).isEqualTo(3);
        assertThat(TileId.of(1, 1, 0)).isEqualTo(4);
        assertThat(TileId.of(2, 0, 0)).isEqualTo(5);
        assertThat(TileId.firstOf(12)).isEqualTo((long) (Math.pow(4, 12) - 1) / 3);
    }

    /** A Hilbert curve visits each cell once, each step to a neighbour: zoom 6's 4,096 tiles. */
    @Test
    void eachZoomIsOneWalkOfNeighboursFromTheTopLeft() {
        int z = 6;
        int n = 1 << z;
        long[][] byId = new long[n * n][];
        for (int x = 0; x < n; x++) {
            for (int y = 0; y < n; y++) {
                long id = TileId.of(z, x, y);
                assertThat(id - TileId.firstOf(z)).isBetween(0L, (long) n * n - 1);
                assertThat(byId[(int) (id - TileId.firstOf(z))]).isNull();
                byId[(int) (id - TileId.firstOf(z))] = new long[] {x, y};
            }
        }
        assertThat(byId[0]).containsExactly(0, 0);
        for (int i = 1; i < byId.length; i++) {
            assertThat(Math.abs(byId[i][0] - byId[i - 1][0]) + Math.abs(byId[i][1] - byId[i - 1][1])).isEqualTo(1);
        }
    }

    @Test
    void anIdGivesBackItsTile() {
        Random random = new Random(29);
        for (int i = 0; i < 10_000; i++) {
            int z = random.nextInt(TileId.MAX_ZOOM + 1);
            long x = random.nextLong(1L << z);
            long y = random.nextLong(1L << z);
            long id = TileId.of(z, x, y);
            assertThat(TileId.zxy(id)).containsExactly(z, x, y);
        }
    }

    @Test
    void aTileOutsideItsZoomIsRefused() {
        assertThatThrownBy(() -> TileId.of(2, 4, 0)).hasMessageContaining("tile 2/4/0 is outside zoom 2");
        assertThatThrownBy(() -> TileId.of(31, 0, 0)).hasMessageContaining("zoom 31 is not 0..30");
    }
}
