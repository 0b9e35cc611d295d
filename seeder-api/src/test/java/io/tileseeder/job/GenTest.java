package io.tileseeder.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The generator behind the property tests: deterministic, in range, and as varied as the tests need, edge
 * cases included.
 */
class GenTest {

    @Test
    void theSameSeedMakesTheSameCasesAndACaseDependsOnlyOnSeedAndIndex() {
        List<JobSpec> first = Fixtures.planningSpecs(7, 200, 8, 8).toList();

        assertThat(Fixtures.planningSpecs(7, 200, 8, 8).toList()).isEqualTo(first);
        assertThat(Fixtures.planningSpecs(7, 50, 8, 8).toList()).isEqualTo(first.subList(0, 50));
        assertThat(Fixtures.planningSpecs(8, 200, 8, 8).toList()).isNotEqualTo(first);
    }

    @Test
    void planningSpecsStartWithTheEdgeCases() {
        List<JobSpec> edgeCases = Fixtures.planningEdgeCases(8, 8);
        List<JobSpec> specs = Fixtures.planningSpecs(1, 200, 8, 8).toList();

        assertThat(specs).hasSize(200).startsWith(edgeCases.toArray(JobSpec[]::new));
        assertCovers(edgeCases.stream(), 8, 8);
    }

    @Test
    void randomPlanningSpecsCoverTheEdgeCasesToo() {
        // Without the hand-picked ones: what the random generator alone makes in 200 cases, for a few seeds.
        for (long seed = 1; seed <= 5; seed++) {
            List<JobSpec> specs = Gen.cases(seed, 200, g -> g.planningSpec(8, 8)).toList();

            assertCovers(specs.stream(), 8, 8);
            assertThat(specs.stream().map(JobSpec::bbox).distinct().count()).as("distinct bboxes").isGreaterThan(150);
        }
    }

    @Test
    void tilesLieInTheMatrixAndReachItsEdgesAndZoomLevels() {
        for (TileMatrixSet tms : TileMatrixSet.builtIn()) {
            List<TileCoord> tiles = Gen.cases(3, 1000, g -> g.tile(tms, TileMatrixSet.MAX_ZOOM)).toList();

            assertThat(tiles).allMatch(t -> t.z() <= TileMatrixSet.MAX_ZOOM
                    && t.x() < tms.matrixWidth(t.z()) && t.y() < tms.matrixHeight(t.z()));
            assertThat(tiles).anyMatch(t -> t.z() == 0).anyMatch(t -> t.z() == TileMatrixSet.MAX_ZOOM)
                    .anyMatch(t -> t.z() > 0 && t.x() == 0 && t.y() == 0)
                    .anyMatch(t -> t.z() > 0 && t.x() == tms.matrixWidth(t.z()) - 1)
                    .anyMatch(t -> t.z() > 0 && t.y() == tms.matrixHeight(t.z()) - 1);
        }
    }

    @Test
    void numbersStayInRangeAndReachItsEnds() {
        List<Integer> ints = Gen.cases(4, 1000, g -> g.between(3, 9)).toList();
        List<Double> doubles = Gen.cases(4, 1000, g -> g.between(-85.05, 85.05)).toList();
        List<Long> longs = Gen.cases(4, 1000, Gen::nonNegativeLong).toList();

        assertThat(ints).allMatch(i -> i >= 3 && i <= 9).contains(3, 4, 5, 6, 7, 8, 9);
        assertThat(doubles).allMatch(d -> d >= -85.05 && d <= 85.05).contains(-85.05, 0.0, 85.05)
                .anyMatch(d -> d != Math.round(d * 100) / 100.0);
        assertThat(longs).allMatch(l -> l >= 0).contains(0L, 1L, Long.MAX_VALUE)
                .anyMatch(l -> l > 0 && l < 1000).anyMatch(l -> l > 1L << 40 && l < Long.MAX_VALUE);
    }

    @Test
    void textUsesEveryAwkwardCharacterAndIsSometimesEmpty() {
        List<String> texts = Gen.cases(5, 300, g -> g.text(0, 30)).toList();

        assertThat(texts).allMatch(t -> t.length() <= 30).contains("");
        for (char c : "-_/ \"\\\n\t\u0001éß地図".toCharArray()) {
            assertThat(texts).as("a text with U+%04X", (int) c).anyMatch(t -> t.indexOf(c) >= 0);
        }
    }

    @Test
    void aCaseIsDescribedOnOneLineWithItsStringsQuotedAndEscaped() {
        record Case(String text, Map<Long, String> map, List<String> list, Instant time) {
        }
        Case c = new Case("a\"b\\c\nd\te\u0001地 ", Map.of(1L, ""), List.of(" "), null);

        assertThat(Gen.describe(c)).isEqualTo(
                "Case[text=\"a\\\"b\\\\c\\nd\\te\\u0001地 \", map={1=\"\"}, list=[\" \"], time=null]");
    }

    /** Both tile matrix sets, point / edge-aligned / world bboxes, zoom 0 and maxZoom alone, 1x1 and the largest metatile. */
    private static void assertCovers(Stream<JobSpec> cases, int maxZoom, int maxSide) {
        List<JobSpec> specs = cases.toList();
        Predicate<Double> onTileEdge = v -> v * 512 == Math.rint(v * 512);
        assertThat(specs).allMatch(s -> s.minZoom() >= 0 && s.minZoom() <= s.maxZoom() && s.maxZoom() <= maxZoom)
                .anyMatch(s -> s.tileMatrixSet() == TileMatrixSet.WEB_MERCATOR_QUAD)
                .anyMatch(s -> s.tileMatrixSet() == TileMatrixSet.WORLD_CRS84_QUAD)
                .anyMatch(s -> s.bbox().width() == 0 && s.bbox().height() == 0)
                .anyMatch(s -> s.bbox().width() > 0 && s.bbox().height() > 0)
                .anyMatch(s -> onTileEdge.test(s.bbox().minX()) && onTileEdge.test(s.bbox().maxX())
                        && onTileEdge.test(s.bbox().minY()) && onTileEdge.test(s.bbox().maxY())
                        && s.bbox().width() > 0 && s.bbox().height() > 0)
                .anyMatch(s -> s.bbox().minX() == -180 || s.bbox().maxX() == 180)
                .anyMatch(s -> s.bbox().minY() == -90 || s.bbox().maxY() == 90)
                .anyMatch(s -> s.minZoom() == 0 && s.maxZoom() == 0)
                .anyMatch(s -> s.minZoom() == maxZoom)
                .anyMatch(s -> s.minZoom() == 0 && s.maxZoom() == maxZoom)
                .anyMatch(s -> s.metatile().equals(new MetatileSize(1, 1)))
                .anyMatch(s -> s.metatile().equals(new MetatileSize(maxSide, maxSide)));
    }
}
