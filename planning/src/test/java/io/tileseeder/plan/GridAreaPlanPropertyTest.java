package io.tileseeder.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.area.Coverages;
import io.tileseeder.area.Projection;
import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.Crs;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileLists;
import io.tileseeder.grid.TileMatrix;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.Gen;
import io.tileseeder.job.JobArea;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.Mode;
import io.tileseeder.job.ShowFailingCase;
import io.tileseeder.job.TileFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.util.GeometryFixer;

/**
 * Plans over coverages on tile matrix sets that are not quadtrees, against the coverage tested tile by tile with JTS:
 * random Swiss LV95 sets (3 to 6 matrices, resolutions any decreasing list, matrix sizes those that cover the
 * country's bbox, so their last column and row reach past it), random polygons over Switzerland and beyond it,
 * metatiles of any size (not only powers of two, not only squares). Every tile of the coverage in exactly one task,
 * none other, the counts per zoom exact, the numbering dense and resumable anywhere; and tile lists on the same sets.
 */
@ExtendWith(ShowFailingCase.class)
class GridAreaPlanPropertyTest {

    private static final GeometryFactory FACTORY = new GeometryFactory();
    private static final Crs LV95 = Crs.of("EPSG:2056", false);

    static Stream<Named<JobSpec>> aPlanHoldsEveryTileOfItsCoverageOnceAndNoOther() {
        return Gen.cases(0x6A1D_0028L, 200, GridAreaPlanPropertyTest::spec)
                .map(spec -> Named.of(Gen.describe(spec.tileMatrixSet().matrices()) + " " + spec.metatile() + " "
                        + spec.area().data(), spec));
    }

    @ParameterizedTest(name = "[{index}]")
    @MethodSource
    void aPlanHoldsEveryTileOfItsCoverageOnceAndNoOther(JobSpec spec) {
        TileMatrixSet tms = spec.tileMatrixSet();
        assertThat(tms.isQuad()).isFalse();
        Geometry truth = projected(spec);
        PlanChecks.assertHoldsExactly(MetatilePlan.of(spec), tile -> inCoverage(truth, tms, tile));
    }

    static Stream<Named<JobSpec>> aPlanOfATileListHoldsEveryTileOverlappingAListedTileOnceAndNoOther() {
        return Gen.cases(0x6A1D_0029L, 200, GridAreaPlanPropertyTest::tileListSpec)
                .map(spec -> Named.of(Gen.describe(spec.tileMatrixSet().matrices()) + " " + spec.metatile() + " z"
                        + spec.minZoom() + "-" + spec.maxZoom() + " " + spec.area().data().replace('\n', ' '), spec));
    }

    /**
     * A listed tile's ancestors and descendants on a set whose matrices do not nest: every tile of the job's zoom
     * levels whose interior overlaps a listed tile, tested here with the rectangles' coordinates alone.
     */
    @ParameterizedTest(name = "[{index}]")
    @MethodSource
    void aPlanOfATileListHoldsEveryTileOverlappingAListedTileOnceAndNoOther(JobSpec spec) {
        TileMatrixSet tms = spec.tileMatrixSet();
        List<Bounds> listed = TileLists.read(spec.area().data()).stream().map(tms::tileBounds).toList();
        PlanChecks.assertHoldsExactly(MetatilePlan.of(spec), tile -> {
            Bounds b = tms.tileBounds(tile);
            double dx = b.width() * 1e-6;
            double dy = b.height() * 1e-6;
            return listed.stream().anyMatch(l -> b.minX() + dx <= l.maxX() && b.maxX() - dx >= l.minX()
                    && b.minY() + dy <= l.maxY() && b.maxY() - dy >= l.minY());
        });
    }

    /** The coverage in LV95, as the plan's area is: projected once, densified, fixed if projection made it invalid. */
    private static Geometry projected(JobSpec spec) {
        Geometry projected = Projection.project(Coverages.read(spec.area().data()), spec.tileMatrixSet());
        return projected.isValid() ? projected : GeometryFixer.fix(projected);
    }

    /** A tile is in the coverage if the coverage meets its interior (the rectangle shrunk by a millionth of a tile). */
    private static boolean inCoverage(Geometry coverage, TileMatrixSet tms, TileCoord tile) {
        Bounds b = tms.tileBounds(tile);
        double dx = b.width() * 1e-6;
        double dy = b.height() * 1e-6;
        return coverage.intersects(FACTORY.toGeometry(new Envelope(b.minX() + dx, b.maxX() - dx, b.minY() + dy,
                b.maxY() - dy)));
    }

    private static JobSpec spec(Gen g) {
        TileMatrixSet tms = set(g);
        int maxZoom = tms.maxZoom();
        int minZoom = g.between(0, maxZoom);
        Geometry coverage = Coverages.parse(polygon(g), Bounds.WORLD_CRS84, Integer.MAX_VALUE);
        JobArea area = new JobArea(JobArea.Kind.COVERAGE, null, Coverages.write(coverage));
        return new JobSpec("world", tms, minZoom, maxZoom, Bounds.WORLD_CRS84, TileFormat.PNG, Mode.SEED,
                new MetatileSize(g.between(1, 5), g.between(1, 5)), null, 0, Map.of(), area);
    }

    /** One to six tiles anywhere in the set, on any of its zoom levels (the job's or others). */
    private static JobSpec tileListSpec(Gen g) {
        TileMatrixSet tms = set(g);
        int maxZoom = tms.maxZoom();
        int minZoom = g.between(0, maxZoom);
        List<TileCoord> tiles = g.list(1, 6, () -> {
            int z = g.between(0, maxZoom);
            return new TileCoord(z, g.between(0, tms.matrixWidth(z) - 1),
                    g.between(0, tms.matrixHeight(z) - 1));
        });
        JobArea area = new JobArea(JobArea.Kind.TILES, null,
                TileLists.write(tiles.stream().distinct().sorted(TileLists.ORDER).toList()));
        return new JobSpec("world", tms, minZoom, maxZoom, Bounds.WORLD_CRS84, TileFormat.PNG, Mode.SEED,
                new MetatileSize(g.between(1, 5), g.between(1, 5)), null, 0, Map.of(), area);
    }

    /** A Swiss LV95 set of 3 to 6 matrices, each resolution 1.3 to 3 times finer than the last, 256 or 512 px. */
    private static TileMatrixSet set(Gen g) {
        int levels = g.between(3, 6);
        List<TileMatrix> matrices = new ArrayList<>();
        double resolution = g.between(300.0, 2000.0);
        int tile = g.oneOf(256, 512);
        for (int i = 0; i < levels; i++) {
            double span = tile * resolution;
            matrices.add(new TileMatrix(Integer.toString(i), resolution, 2420000, 1350000, tile, tile,
                    (int) Math.ceil(480000 / span), (int) Math.ceil(320000 / span)));
            resolution /= g.between(1.3, 3.0);
        }
        return TileMatrixSet.of("GridPlanTest", LV95, matrices);
    }

    /**
     * A star around a point of Switzerland or its neighbours, 0.05° to 3° across, or (one time in four) a rectangle
     * holding most of the country, so that whole quadrants of a matrix lie inside it.
     */
    private static String polygon(Gen g) {
        if (g.chance(0.25)) {
            double west = g.between(4.0, 7.0);
            double south = g.between(44.0, 46.5);
            double east = g.between(9.0, 12.0);
            double north = g.between(47.0, 49.0);
            return String.format(Locale.ROOT, "{\"type\":\"Polygon\",\"coordinates\":[[[%f,%f],[%f,%f],[%f,%f],"
                    + "[%f,%f],[%f,%f]]]}", west, south, east, south, east, north, west, north, west, south);
        }
        double cx = g.between(5.0, 11.5);
        double cy = g.between(45.0, 48.5);
        double radius = Math.pow(10, g.between(-1.3, 0.5));
        int points = g.between(3, 10);
        List<String> ring = new ArrayList<>();
        for (int i = 0; i < points; i++) {
            double angle = 2 * Math.PI * i / points;
            double r = radius * g.between(0.3, 1.0);
            ring.add(String.format(Locale.ROOT, "[%.9f,%.9f]", cx + r * Math.cos(angle), cy + r * Math.sin(angle)));
        }
        ring.add(ring.getFirst());
        return "{\"type\":\"Polygon\",\"coordinates\":[[" + ring.stream().collect(Collectors.joining(",")) + "]]}";
    }
}
