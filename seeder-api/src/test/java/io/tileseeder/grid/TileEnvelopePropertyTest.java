package io.tileseeder.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tileseeder.job.ShowFailingCase;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Tile envelopes tile the matrix: no gaps, no overlaps, the whole extent. Checked exhaustively. */
@ExtendWith(ShowFailingCase.class)
class TileEnvelopePropertyTest {

    static Stream<Arguments> tileEnvelopesTileTheMatrixExactly() {
        return everyTileMatrixSetAndZoom(6);
    }

    @ParameterizedTest(name = "{0} zoom {1}")
    @MethodSource
    void tileEnvelopesTileTheMatrixExactly(TileMatrixSet tms, int z) {
        int width = tms.matrixWidth(z);
        int height = tms.matrixHeight(z);
        double minX = Double.POSITIVE_INFINITY;
        double minY = Double.POSITIVE_INFINITY;
        double maxX = Double.NEGATIVE_INFINITY;
        double maxY = Double.NEGATIVE_INFINITY;
        double area = 0;
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                Bounds tile = tms.tileBounds(TileCoord.of(z, x, y));
                assertThat(tile.width()).as("width of %d/%d/%d", z, x, y).isPositive();
                assertThat(tile.height()).as("height of %d/%d/%d", z, x, y).isPositive();
                if (x + 1 < width) {
                    Bounds right = tms.tileBounds(TileCoord.of(z, x + 1, y));
                    assertThat(right.minX()).as("left edge of %d/%d/%d", z, x + 1, y).isEqualTo(tile.maxX());
                    assertThat(right.minY()).isEqualTo(tile.minY());
                    assertThat(right.maxY()).isEqualTo(tile.maxY());
                }
                if (y + 1 < height) {
                    Bounds below = tms.tileBounds(TileCoord.of(z, x, y + 1));
                    assertThat(below.maxY()).as("top edge of %d/%d/%d", z, x, y + 1).isEqualTo(tile.minY());
                    assertThat(below.minX()).isEqualTo(tile.minX());
                    assertThat(below.maxX()).isEqualTo(tile.maxX());
                }
                minX = Math.min(minX, tile.minX());
                minY = Math.min(minY, tile.minY());
                maxX = Math.max(maxX, tile.maxX());
                maxY = Math.max(maxY, tile.maxY());
                area += tile.width() * tile.height();
            }
        }
        Bounds matrix = tms.crsBounds();
        assertThat(new Bounds(minX, minY, maxX, maxY)).isEqualTo(matrix);
        double matrixArea = matrix.width() * matrix.height();
        assertThat(area).isCloseTo(matrixArea, within(matrixArea * 1e-9));
        assertThat(tms.rangeBounds(tms.fullRange(z))).isEqualTo(matrix);
    }

    static Stream<Arguments> tilesAreSquareInCrsUnits() {
        return everyTileMatrixSetAndZoom(TileMatrixSet.MAX_ZOOM);
    }

    @ParameterizedTest(name = "{0} zoom {1}")
    @MethodSource
    void tilesAreSquareInCrsUnits(TileMatrixSet tms, int z) {
        Bounds tile = tms.tileBounds(TileCoord.of(z, tms.matrixWidth(z) - 1, tms.matrixHeight(z) - 1));
        // Edges are differences of world-sized coordinates: allow a few ulps of the world's width.
        double tolerance = tms.crsBounds().width() * 1e-15;
        assertThat(tile.width()).isCloseTo(tms.tileSpan(z), within(tolerance));
        assertThat(tile.height()).isCloseTo(tms.tileSpan(z), within(tolerance));
        assertThat(tms.resolution(z) * TileMatrixSet.TILE_SIZE).isEqualTo(tms.tileSpan(z));
    }

    /** Every tile matrix set with every zoom level {@code 0..maxZoom}. */
    private static Stream<Arguments> everyTileMatrixSetAndZoom(int maxZoom) {
        return TileMatrixSet.builtIn().stream()
                .flatMap(tms -> IntStream.rangeClosed(0, maxZoom).mapToObj(z -> Arguments.of(tms, z)));
    }
}
