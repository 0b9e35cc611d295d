package io.tileseeder.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TileMatrixTest {

    @Test
    void theBoundsRunFromTheTopLeftCornerByTheTilesSpans() {
        // A matrix of TileCloud-chain's sample swissgrid: 5 m/px, 256 px tiles, origin at (2420000, 1350000).
        TileMatrix matrix = new TileMatrix("7", 5, 2_420_000, 1_350_000, 256, 256, 375, 250);

        assertThat(matrix.tileSpanX()).isEqualTo(1280);
        assertThat(matrix.tileSpanY()).isEqualTo(1280);
        assertThat(matrix.bounds()).isEqualTo(new Bounds(2_420_000, 1_350_000 - 250 * 1280.0,
                2_420_000 + 375 * 1280.0, 1_350_000));
    }

    @Test
    void aMatrixWithoutCellsOrTilesIsRefusedNamingIt() {
        assertThatThrownBy(() -> new TileMatrix("z3", 0, 0, 0, 256, 256, 1, 1))
                .hasMessage("matrix z3: cellSize must be positive, got 0.0");
        assertThatThrownBy(() -> new TileMatrix("z3", Double.NaN, 0, 0, 256, 256, 1, 1))
                .hasMessageContaining("cellSize must be positive");
        assertThatThrownBy(() -> new TileMatrix("z3", 1, Double.POSITIVE_INFINITY, 0, 256, 256, 1, 1))
                .hasMessage("matrix z3: the point of origin must be finite");
        assertThatThrownBy(() -> new TileMatrix("z3", 1, 0, 0, 256, 256, 0, 1))
                .hasMessage("matrix z3: tile and matrix sizes must be positive, got 256x256 px, 0x1 tiles");
    }
}
