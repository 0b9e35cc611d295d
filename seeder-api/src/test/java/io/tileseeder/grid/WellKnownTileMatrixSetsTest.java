package io.tileseeder.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The OGC registry's sets against the figures it publishes, the checks of {@link TileMatrixSet#of}, the registry of
 * layer files' sets, and envelopes of CRS84 bboxes in CRSs that bend lines.
 */
class WellKnownTileMatrixSetsTest {

    private static final double PIXEL_METRES = 0.00028;

    @ParameterizedTest
    @CsvSource({
            // id, CRS, first matrix id, matrices, first matrix width x height, its scale denominator (OGC registry)
            "WebMercatorQuad, EPSG:3857, 0, 25, 1, 1, 559082264.0287178",
            "WorldMercatorWGS84Quad, EPSG:3395, 0, 25, 1, 1, 559082264.0287178",
            "EuropeanETRS89_LAEAQuad, EPSG:3035, 0, 16, 1, 1, 62779017.8571428",
            "UPSArcticWGS84Quad, EPSG:5041, 0, 25, 1, 1, 458726544.4",
            "UPSAntarcticWGS84Quad, EPSG:5042, 0, 25, 1, 1, 458726544.4",
            "UTM01WGS84Quad, EPSG:32601, 1, 24, 1, 2, 279072704.500914",
            "UTM31WGS84Quad, EPSG:32631, 1, 24, 1, 2, 279072704.500914",
            "UTM60WGS84Quad, EPSG:32660, 1, 24, 1, 2, 279072704.500914",
    })
    void theRegistrysSetsHaveItsFigures(String id, String crs, String firstMatrix, int matrices, int width, int height,
                                        double scaleDenominator) {
        TileMatrixSet set = TileMatrixSet.byId(id).orElseThrow();

        assertThat(set.crs()).isEqualTo(crs);
        assertThat(set.matrices()).hasSize(matrices);
        assertThat(set.matrix(0).id()).isEqualTo(firstMatrix);
        assertThat(set.matrixWidth(0)).isEqualTo(width);
        assertThat(set.matrixHeight(0)).isEqualTo(height);
        assertThat(set.resolution(0) * set.referenceSystem().metresPerUnit() / PIXEL_METRES)
                .isCloseTo(scaleDenominator, within(scaleDenominator * 1e-9));
        for (int z = 1; z <= set.maxZoom(); z++) {
            assertThat(set.matrixWidth(z)).isEqualTo(2 * set.matrixWidth(z - 1));
            assertThat(set.resolution(z)).isEqualTo(set.resolution(z - 1) / 2);
        }
    }

    /** The register's values (origin, first and last matrices); 26 matrices, a scale series, not a quadtree. */
    @Test
    void canadianNad83LccIsTheRegistersScaleSeriesWithMatricesPastTheDeepestZoom() {
        TileMatrixSet set = TileMatrixSet.byId("CanadianNAD83_LCC").orElseThrow();

        assertThat(set.crs()).isEqualTo("EPSG:3978");
        assertThat(set.isQuad()).isFalse();
        assertThat(set.maxZoom()).isEqualTo(25).isGreaterThan(TileMatrixSet.MAX_ZOOM);
        TileMatrix first = set.matrix(0);
        assertThat(List.of(first.left(), first.top(), first.cellSize())).containsExactly(-34655800.0, 39310000.0,
                38364.6600626534);
        assertThat(List.of(first.matrixWidth(), first.matrixHeight())).containsExactly(5, 5);
        assertThat(List.of(set.matrix(25).matrixWidth(), set.matrix(25).matrixHeight()))
                .containsExactly(2468768, 2625811);
        double[] ottawa = set.project(-75.7, 45.4);
        assertThat(set.overlaps(new Bounds(-76, 45, -75, 46))).isTrue();
        assertThat(ottawa[0]).isBetween(first.left(), first.left() + 5 * 256 * first.cellSize());
    }

    @Test
    void laeaIsNorthingFirstAndTheOthersEastingFirst() {
        assertThat(TileMatrixSet.byId("EuropeanETRS89_LAEAQuad").orElseThrow().referenceSystem().northingFirst())
                .isTrue();
        assertThat(TileMatrixSet.wellKnown()).hasSize(67)
                .filteredOn(s -> s.referenceSystem().northingFirst()).extracting(TileMatrixSet::id)
                .containsExactly("EuropeanETRS89_LAEAQuad");
    }

    @Test
    void ofRefusesEachInconsistencyNamingTheSetAndMatrix() {
        TileMatrix a = new TileMatrix("a", 100, 0, 1000, 256, 256, 2, 2);
        Crs crs = Crs.of("EPSG:2056", false);

        assertThatThrownBy(() -> TileMatrixSet.of("bad id", crs, List.of(a))).hasMessageContaining("'bad id'");
        assertThatThrownBy(() -> TileMatrixSet.of("s", crs, List.of())).hasMessageContaining("s: need 1 to 30");
        assertThatThrownBy(() -> TileMatrixSet.of("s", crs, List.of(a, new TileMatrix("a", 50, 0, 1000, 256, 256, 4, 4))))
                .hasMessageContaining("matrix a: the id is used twice");
        assertThatThrownBy(() -> TileMatrixSet.of("s", crs, List.of(a, new TileMatrix("b", 100, 0, 1000, 256, 256, 4, 4))))
                .hasMessageContaining("tile matrix set s, matrix b: the cell size 100.0 is not smaller");
        assertThatThrownBy(() -> TileMatrixSet.of("s", crs, List.of(new TileMatrix("r", 1, 0, 0, 256, 512, 1, 1))))
                .hasMessageContaining("matrix r: tiles must be square");
        assertThatThrownBy(() -> TileMatrixSet.of("s", crs, List.of(new TileMatrix("t", 1, 0, 0, 8, 8, 1, 1))))
                .hasMessageContaining("matrix t: tiles must be 16 to 4096 px, got 8");
        assertThatThrownBy(() -> TileMatrixSet.of("s", crs, List.of(new TileMatrix("h", 1, 0, 0, 256, 256, 1 << 26, 1))))
                .hasMessageContaining("matrix h: at most");
    }

    @Test
    void aLayerFilesSetIsFoundByIdAndCannotTakeAnotherDefinitionOrAWellKnownId() {
        Crs crs = Crs.of("EPSG:2056", false);
        TileMatrixSet own = TileMatrixSet.of("TestOwnGrid", crs, List.of(new TileMatrix("0", 100, 2e6, 1.4e6, 256,
                256, 2, 1)));

        assertThat(TileMatrixSet.register(own)).isSameAs(own);
        assertThat(TileMatrixSet.register(TileMatrixSet.of("TestOwnGrid", crs, own.matrices()))).isSameAs(own);
        assertThat(TileMatrixSet.byId("TestOwnGrid")).containsSame(own);
        assertThatThrownBy(() -> TileMatrixSet.register(TileMatrixSet.of("TestOwnGrid", crs,
                List.of(new TileMatrix("0", 50, 2e6, 1.4e6, 256, 256, 2, 1)))))
                .hasMessageContaining("TestOwnGrid is defined twice");
        assertThatThrownBy(() -> TileMatrixSet.register(TileMatrixSet.of("UTM31WGS84Quad", crs, own.matrices())))
                .hasMessageContaining("UTM31WGS84Quad is a well-known set");
    }

    /**
     * Every point of a bbox, on a grid four times finer than the envelope's sampling, lies in its envelope: bboxes
     * anywhere in each CRS's area of use (Europe for LAEA, north of 60° for UPS North, 3° to 15° E for UTM 32N).
     */
    @Test
    void theProjectedEnvelopeHoldsEveryPointOfTheBbox() {
        Random random = new Random(28);
        List<TileMatrixSet> sets = List.of(TileMatrixSet.byId("EuropeanETRS89_LAEAQuad").orElseThrow(),
                TileMatrixSet.byId("UPSArcticWGS84Quad").orElseThrow(),
                TileMatrixSet.byId("UTM32WGS84Quad").orElseThrow());
        List<Bounds> areasOfUse = List.of(new Bounds(-35, 25, 45, 85), new Bounds(-180, 60, 180, 90),
                new Bounds(3, -80, 15, 84));
        for (int run = 0; run < 300; run++) {
            TileMatrixSet set = sets.get(run % sets.size());
            Bounds area = areasOfUse.get(run % sets.size());
            double lon0 = area.minX() + random.nextDouble() * area.width();
            double lat0 = area.minY() + random.nextDouble() * area.height();
            Bounds bbox = new Bounds(lon0, lat0, lon0 + random.nextDouble() * (area.maxX() - lon0),
                    lat0 + random.nextDouble() * (area.maxY() - lat0));
            Bounds envelope = set.projectedEnvelope(bbox);
            for (int i = 0; i <= 128; i++) {
                for (int j = 0; j <= 128; j++) {
                    double[] xy = set.project(bbox.minX() + bbox.width() * i / 128,
                            bbox.minY() + bbox.height() * j / 128);
                    if (!Double.isNaN(xy[0])) {
                        assertThat(envelope.minX() <= xy[0] && xy[0] <= envelope.maxX()
                                && envelope.minY() <= xy[1] && xy[1] <= envelope.maxY())
                                .as("%s: %s of %s in %s", set, java.util.Arrays.toString(xy), bbox, envelope).isTrue();
                    }
                }
            }
        }
    }

    @Test
    void crs84BoundsOfLaeaCoverEurope() {
        Bounds europe = TileMatrixSet.byId("EuropeanETRS89_LAEAQuad").orElseThrow().crs84Bounds();

        assertThat(europe.minX()).isLessThan(-10);
        assertThat(europe.maxX()).isGreaterThan(30);
        assertThat(europe.minY()).isLessThan(36);
        assertThat(europe.maxY()).isGreaterThan(70);
        assertThat(TileMatrixSet.byId("UPSArcticWGS84Quad").orElseThrow().crs84Bounds().maxY())
                .isCloseTo(90, within(1e-9));
    }
}
