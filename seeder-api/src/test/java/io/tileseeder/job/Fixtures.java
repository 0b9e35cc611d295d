package io.tileseeder.job;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;

/**
 * Shared test fixtures for the seeder-api tests: a small layer catalog, job limits, request builders and jqwik
 * arbitraries for the grid arithmetic.
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

    public static final LayerCatalog CATALOG = catalog(WORLD, ROADS);

    /** One million tiles per job (world z0–9 in WebMercatorQuad fits, z0–10 does not), four labels. */
    public static final JobLimits LIMITS = new JobLimits(1_000_000, 4);

    public static final Instant SOME_INSTANT = Instant.parse("2024-05-01T12:30:00.123456789Z");

    private Fixtures() {
    }

    public static LayerCatalog catalog(LayerInfo... layers) {
        Map<String, LayerInfo> byName = Stream.of(layers)
                .collect(Collectors.toUnmodifiableMap(LayerInfo::name, Function.identity()));
        return new LayerCatalog() {
            @Override
            public Optional<LayerInfo> find(String name) {
                return Optional.ofNullable(byName.get(name));
            }

            @Override
            public Collection<LayerInfo> all() {
                return byName.values();
            }
        };
    }

    public static JobSpecValidator validator() {
        return new JobSpecValidator(CATALOG, LIMITS);
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

    // ---- jqwik arbitraries -------------------------------------------------------------------------------

    public static Arbitrary<TileMatrixSet> tileMatrixSets() {
        return Arbitraries.of(TileMatrixSet.class);
    }

    public static Arbitrary<MetatileSize> metatileSizes(int maxSide) {
        Arbitrary<Integer> side = Arbitraries.integers().between(1, maxSide);
        return Combinators.combine(side, side).as(MetatileSize::new);
    }

    /** Zoom ranges {min, max} with {@code 0 <= min <= max <= maxZoom}. */
    public static Arbitrary<int[]> zoomRanges(int maxZoom) {
        Arbitrary<Integer> zoom = Arbitraries.integers().between(0, maxZoom);
        return Combinators.combine(zoom, zoom).as((a, b) -> new int[] {Math.min(a, b), Math.max(a, b)});
    }

    /**
     * Longitudes: anywhere in -180..180, on a tile edge of some zoom level (the awkward case for "touching
     * is not intersecting"), or on the world's edge.
     */
    public static Arbitrary<Double> longitudes() {
        return Arbitraries.frequencyOf(
                tuple(6, Arbitraries.doubles().between(-180, 180)),
                tuple(3, onGrid(-180, 360, 9)),
                tuple(1, Arbitraries.of(-180.0, 0.0, 180.0)));
    }

    /** Latitudes: anywhere in -90..90, on a WorldCRS84Quad tile edge, or on the poles / equator. */
    public static Arbitrary<Double> latitudes() {
        return Arbitraries.frequencyOf(
                tuple(6, Arbitraries.doubles().between(-90, 90)),
                tuple(3, onGrid(-90, 180, 8)),
                tuple(1, Arbitraries.of(-90.0, 0.0, 90.0)));
    }

    /** CRS84 bboxes, including degenerate (zero width or height) ones. */
    public static Arbitrary<Bounds> bboxes() {
        Arbitrary<Double> lon = longitudes();
        Arbitrary<Double> lat = latitudes();
        Arbitrary<Bounds> general = Combinators.combine(lon, lat, lon, lat).as((x0, y0, x1, y1) ->
                new Bounds(Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)));
        Arbitrary<Bounds> points = Combinators.combine(lon, lat).as((x, y) -> new Bounds(x, y, x, y));
        return Arbitraries.frequencyOf(tuple(9, general), tuple(1, points));
    }

    /** Specs for planning: any tile matrix set, bbox, zoom range within {@code 0..maxZoom}, metatile side up to {@code maxSide}. */
    public static Arbitrary<JobSpec> planningSpecs(int maxZoom, int maxSide) {
        return Combinators.combine(tileMatrixSets(), bboxes(), zoomRanges(maxZoom), metatileSizes(maxSide))
                .as((tms, bbox, zooms, size) -> spec(tms, bbox, zooms[0], zooms[1], size));
    }

    /** Instants between 1970 and 2100 with nanosecond precision. */
    public static Arbitrary<Instant> instants() {
        return Combinators.combine(Arbitraries.longs().between(0, 4_102_444_800L),
                Arbitraries.integers().between(0, 999_999_999)).as(Instant::ofEpochSecond);
    }

    /** Tiles of some zoom level up to {@code maxZoom} that exist in {@code tms}. */
    public static Arbitrary<TileCoord> tiles(TileMatrixSet tms, int maxZoom) {
        return Arbitraries.integers().between(0, maxZoom).flatMap(z -> Combinators.combine(
                        Arbitraries.integers().between(0, tms.matrixWidth(z) - 1),
                        Arbitraries.integers().between(0, tms.matrixHeight(z) - 1))
                .as((x, y) -> new TileCoord(z, x, y)));
    }

    /** Values {@code origin + i * extent / 2^k} for some level {@code k <= maxLevel}. */
    private static Arbitrary<Double> onGrid(double origin, double extent, int maxLevel) {
        return Arbitraries.integers().between(0, maxLevel).flatMap(k -> Arbitraries.integers()
                .between(0, 1 << k).map(i -> origin + i * (extent / (1 << k))));
    }

    private static <T> Tuple2<Integer, Arbitrary<? extends T>> tuple(int weight, Arbitrary<? extends T> arbitrary) {
        return Tuple.of(weight, arbitrary);
    }
}
