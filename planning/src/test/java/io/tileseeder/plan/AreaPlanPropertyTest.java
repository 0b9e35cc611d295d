package io.tileseeder.plan;


import io.tileseeder.area.Coverages;
import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileLists;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.grid.TileRange;
import io.tileseeder.grid.WebMercator;
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
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;

/**
 * Plans over areas against the same areas tested tile by tile: every tile of the area in exactly one task, none
 * other, the counts per zoom exact, the numbering dense and resumable anywhere. Coverages are random stars, groups
 * of them and rectangles (with corners on tile edges), clipped to random bboxes; tile lists are random tiles of any
 * zoom level. Zoom levels stop at 6 so that the tiles can be tested one by one.
 */
@ExtendWith(ShowFailingCase.class)
class AreaPlanPropertyTest {

    private static final int MAX_ZOOM = 6;
    private static final GeometryFactory FACTORY = new GeometryFactory();

    static Stream<Named<JobSpec>> aPlanHoldsEveryTileOfItsAreaOnceAndNoOther() {
        return Gen.cases(0xA4EA_0001L, 300, AreaPlanPropertyTest::spec)
                .map(spec -> Named.of(describe(spec), spec));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource
    void aPlanHoldsEveryTileOfItsAreaOnceAndNoOther(JobSpec spec) {
        Predicate<TileCoord> inArea = truth(spec);
        PlanChecks.assertHoldsExactly(MetatilePlan.of(spec), inArea);
    }

    private static JobSpec spec(Gen g) {
        TileMatrixSet tms = g.tileMatrixSet();
        int[] zooms = g.zoomRange(MAX_ZOOM);
        int side = 1 << g.between(0, 3);
        JobArea area;
        Bounds bbox = Bounds.WORLD_CRS84;
        if (g.chance(0.35)) {
            List<TileCoord> tiles = g.list(1, 12, () -> g.tile(tms, MAX_ZOOM + 1));
            area = new JobArea(JobArea.Kind.TILES, null, TileLists.write(tiles.stream().distinct().toList()));
        } else {
            Geometry coverage = null;
            while (coverage == null) {
                if (g.chance(0.5)) {
                    bbox = g.bbox();
                }
                try {
                    coverage = Coverages.parse(geoJson(g), bbox, Integer.MAX_VALUE);
                } catch (Coverages.InvalidCoverageException nothingInTheBbox) {
                    bbox = Bounds.WORLD_CRS84;
                }
            }
            area = new JobArea(JobArea.Kind.COVERAGE, null, Coverages.write(coverage));
        }
        return new JobSpec("world", tms, zooms[0], zooms[1], bbox, TileFormat.PNG, Mode.SEED,
                new MetatileSize(side, side), null, 0, Map.of(), area);
    }

    /** A rectangle with corners from {@link Gen#bbox}, or one to three stars. */
    private static String geoJson(Gen g) {
        if (g.chance(0.3)) {
            Bounds b = g.bbox();
            double w = Math.max(b.width(), 1e-3);
            double h = Math.max(b.height(), 1e-3);
            double x0 = Math.min(b.minX(), 180 - w);
            double y0 = Math.min(b.minY(), 90 - h);
            return polygon(List.of(new double[] {x0, y0}, new double[] {x0 + w, y0}, new double[] {x0 + w, y0 + h},
                    new double[] {x0, y0 + h}));
        }
        List<String> stars = new ArrayList<>();
        int count = g.between(1, 3);
        for (int s = 0; s < count; s++) {
            double cx = g.between(-150.0, 150.0);
            double cy = g.between(-70.0, 70.0);
            double radius = Math.pow(10, g.between(-1.5, 1.3));
            int points = g.between(3, 12);
            List<double[]> ring = new ArrayList<>();
            for (int i = 0; i < points; i++) {
                double angle = 2 * Math.PI * i / points;
                double r = radius * g.between(0.3, 1.0);
                ring.add(new double[] {clamp(cx + r * Math.cos(angle), 180), clamp(cy + r * Math.sin(angle), 90)});
            }
            stars.add(polygon(ring));
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[" + stars.stream()
                .map(p -> "{\"type\":\"Feature\",\"properties\":{},\"geometry\":" + p + "}")
                .collect(Collectors.joining(",")) + "]}";
    }

    private static String polygon(List<double[]> ring) {
        List<double[]> closed = new ArrayList<>(ring);
        closed.add(ring.get(0));
        return "{\"type\":\"Polygon\",\"coordinates\":[[" + closed.stream()
                .map(p -> String.format(Locale.ROOT, "[%.9f,%.9f]", p[0], p[1])).collect(Collectors.joining(","))
                + "]]}";
    }

    private static double clamp(double value, double limit) {
        return Math.max(-limit, Math.min(limit, value));
    }

    /** Whether a tile is in the spec's area, decided for that tile alone. */
    private static Predicate<TileCoord> truth(JobSpec spec) {
        JobArea area = spec.area();
        TileMatrixSet tms = spec.tileMatrixSet();
        if (area.kind() == JobArea.Kind.TILES) {
            List<TileCoord> listed = TileLists.read(area.data());
            return tile -> listed.stream().anyMatch(t -> tile.z() >= t.z()
                    ? tile.x() >> (tile.z() - t.z()) == t.x() && tile.y() >> (tile.z() - t.z()) == t.y()
                    : t.x() >> (t.z() - tile.z()) == tile.x() && t.y() >> (t.z() - tile.z()) == tile.y());
        }
        Geometry projected = Coverages.read(area.data()).intersection(FACTORY.toGeometry(tms == TileMatrixSet.WEB_MERCATOR_QUAD
                ? new Envelope(-180, 180, -WebMercator.MAX_LATITUDE, WebMercator.MAX_LATITUDE)
                : new Envelope(-180, 180, -90, 90)));
        projected.apply((org.locationtech.jts.geom.CoordinateFilter) (Coordinate c) -> {
            double[] xy = tms.project(c.x, c.y);
            c.x = xy[0];
            c.y = xy[1];
        });
        projected.geometryChanged();
        Geometry valid = projected.isValid() ? projected : org.locationtech.jts.geom.util.GeometryFixer.fix(projected);
        Envelope extent = projected.getEnvelopeInternal();
        return tile -> {
            Bounds b = tms.rangeBounds(new TileRange(tile.z(), tile.x(), tile.y(), tile.x(), tile.y()));
            Envelope cell = new Envelope(b.minX(), b.maxX(), b.minY(), b.maxY());
            if (!cell.intersects(extent)) {
                return false;
            }
            double overlap = valid.intersection(FACTORY.toGeometry(cell)).getArea();
            return overlap > 1e-13 * cell.getArea();
        };
    }

    private static String describe(JobSpec spec) {
        String data = spec.area().data();
        return spec.tileMatrixSet() + " z" + spec.minZoom() + "-" + spec.maxZoom() + " " + spec.metatile().width()
                + "x" + spec.metatile().height() + " " + spec.area().kind() + " bbox " + spec.bbox() + " "
                + (data.length() > 300 ? data.substring(0, 300) + "…" : data);
    }
}
