package io.tileseeder.job;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Shared test fixtures of the seeder-api and planning tests (seeder-api's test-jar): a small layer catalog, job
 * limits, request builders and the generated planning specs of the property tests (the generators themselves are in
 * {@link Gen}).
 */
public final class Fixtures {

    /** The default metatile of the {@code world} layer; deliberately not {@link MetatileSize#DEFAULT}. */
    public static final MetatileSize WORLD_METATILE = new MetatileSize(8, 8);

    /** {@code world}: zoom 0–10, both tile matrix sets, png and jpeg. */
    public static final LayerInfo WORLD = new LayerInfo("world", "World", "© test", 0, 10,
            Set.of(TileMatrixSet.WEB_MERCATOR_QUAD, TileMatrixSet.WORLD_CRS84_QUAD),
            Set.of(TileFormat.PNG, TileFormat.JPEG), WORLD_METATILE);

    /** {@code roads}: zoom 5–14, WebMercatorQuad and png only. */
    public static final LayerInfo ROADS = new LayerInfo("roads", "Roads", "© test", 5, 14,
            Set.of(TileMatrixSet.WEB_MERCATOR_QUAD), Set.of(TileFormat.PNG), MetatileSize.DEFAULT);

    public static final LayerCatalog CATALOG = LayerCatalog.of(WORLD, ROADS);

    /** One million tiles per job (world z0–9 in WebMercatorQuad fits, z0–10 does not), four labels. */
    public static final JobLimits LIMITS = new JobLimits(1_000_000, 4, 100_000, 100_000);

    public static final Instant SOME_INSTANT = Instant.parse("2024-05-01T12:30:00.123456789Z");

    private Fixtures() {
    }

    /** A minimal valid request: layer {@code world}, zoom 0–2, everything else defaulted. */
    public static JobRequest minimalRequest() {
        return new JobRequest("world", null, new JobRequest.Zoom(0, 2), null, null, null, null, null, null, null);
    }

    /** A spec made directly (not through the validator), for the planning arithmetic. */
    public static JobSpec spec(TileMatrixSet tms, Bounds bbox, int minZoom, int maxZoom, MetatileSize metatile) {
        return new JobSpec("world", tms, minZoom, maxZoom, bbox, TileFormat.PNG, Mode.SEED, metatile, null, 0,
                Map.of());
    }

    /** A request's bbox as Jackson would read it: a mutable, null-tolerant list. */
    public static List<Double> bbox(double... values) {
        return Arrays.stream(values).boxed().collect(Collectors.toCollection(ArrayList::new));
    }

    // ---- generated inputs for the property tests (see Gen) -----------------------------------------------

    /**
     * {@code count} specs for the planning arithmetic with zoom levels up to {@code maxZoom} and metatile sides
     * up to {@code maxSide}: the {@link #planningEdgeCases edge cases}, then random ones from {@link Gen#planningSpec}.
     */
    public static Stream<JobSpec> planningSpecs(long seed, int count, int maxZoom, int maxSide) {
        return Gen.cases(seed, count, planningEdgeCases(maxZoom, maxSide), g -> g.planningSpec(maxZoom, maxSide));
    }

    /**
     * For each tile matrix set: the whole world at zoom 0 alone and at every zoom; a point on a tile corner at
     * the deepest zoom; a point inside a tile; a point on the world's corner; a bbox on tile edges. Among them
     * zoom 0 and {@code maxZoom} alone, metatiles of 1x1 and {@code maxSide x maxSide}, and thin ones.
     */
    public static List<JobSpec> planningEdgeCases(int maxZoom, int maxSide) {
        MetatileSize one = new MetatileSize(1, 1);
        MetatileSize largest = new MetatileSize(maxSide, maxSide);
        List<JobSpec> specs = new ArrayList<>();
        for (TileMatrixSet tms : TileMatrixSet.builtIn()) {
            specs.add(spec(tms, Bounds.WORLD_CRS84, 0, 0, one));
            specs.add(spec(tms, Bounds.WORLD_CRS84, 0, maxZoom, largest));
            specs.add(spec(tms, new Bounds(0, 0, 0, 0), maxZoom, maxZoom, one));
            specs.add(spec(tms, new Bounds(7.44, 46.95, 7.44, 46.95), 0, maxZoom, new MetatileSize(maxSide, 1)));
            specs.add(spec(tms, new Bounds(180, -90, 180, -90), 0, maxZoom, new MetatileSize(3, 2)));
            specs.add(spec(tms, new Bounds(-45, 0, 45, 45), Math.min(2, maxZoom), maxZoom, new MetatileSize(1, maxSide)));
        }
        return specs;
    }

    /** A planning spec in a line, for a test case's name: {@code WorldCRS84Quad z0-8 bbox [...] metatile 8x8}. */
    public static String describe(JobSpec spec) {
        Bounds b = spec.bbox();
        return spec.tileMatrixSet() + " z" + spec.minZoom() + "-" + spec.maxZoom() + " bbox [" + b.minX() + ", "
                + b.minY() + ", " + b.maxX() + ", " + b.maxY() + "] metatile " + spec.metatile().width() + "x"
                + spec.metatile().height();
    }
}
