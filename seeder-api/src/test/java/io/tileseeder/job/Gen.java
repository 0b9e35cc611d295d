package io.tileseeder.job;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import java.time.Instant;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.StringJoiner;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A small deterministic generator of test inputs, for property tests written as plain JUnit
 * {@code @ParameterizedTest}s with a {@code @MethodSource}.
 *
 * <p>A test's cases come from {@link #cases(long, int, List, Function)}: its hand-picked edge cases first, then
 * random cases, case {@code i} made by its own generator split off a {@link SplittableRandom} with the test's
 * fixed seed. So every run makes the same cases, and case {@code i} depends only on the seed and {@code i}:
 * a failure, reported as {@code case [i] <input>} (see {@link ShowFailingCase}), reproduces exactly by running the
 * test again.
 *
 * <p>Like a property-testing library's generators, the number generators here are biased towards the ends of
 * their range (the minimum, the maximum, zero), the longitudes and latitudes towards tile edges and the
 * world's edge, and the bboxes include zero-size (point) ones.
 */
public final class Gen {

    /** Characters of {@link #text}: plain ones, the ones JSON must escape, and some outside ASCII. */
    private static final char[] TEXT_CHARS = textChars();

    private final SplittableRandom random;

    public Gen(long seed) {
        this(new SplittableRandom(seed));
    }

    private Gen(SplittableRandom random) {
        this.random = random;
    }

    // ---- cases ---------------------------------------------------------------------------------------------

    /**
     * {@code count} cases: the edge cases, then {@code count - edgeCases.size()} cases made by {@code make},
     * the {@code j}-th of them from the {@code j}-th generator split off one seeded with {@code seed}.
     */
    public static <T> Stream<T> cases(long seed, int count, List<? extends T> edgeCases,
                                      Function<Gen, ? extends T> make) {
        if (edgeCases.size() > count) {
            throw new IllegalArgumentException(edgeCases.size() + " edge cases but only " + count + " cases");
        }
        List<T> all = new ArrayList<>(edgeCases);
        SplittableRandom root = new SplittableRandom(seed);
        while (all.size() < count) {
            all.add(make.apply(new Gen(root.split())));
        }
        return all.stream();
    }

    /** {@code count} random cases made by {@code make}, see {@link #cases(long, int, List, Function)}. */
    public static <T> Stream<T> cases(long seed, int count, Function<Gen, ? extends T> make) {
        return cases(seed, count, List.of(), make);
    }

    /**
     * A value as a test case's name: records as {@code Name[component=value, ...]}, strings in double quotes with
     * quotes, backslashes and control characters escaped as in Java source (a newline as backslash-n, U+0001 as
     * backslash-u0001), so that the name stays on one line and shows exactly what was generated.
     */
    public static String describe(Object value) {
        if (value instanceof CharSequence text) {
            return quote(text.toString());
        }
        if (value instanceof Record record) {
            StringJoiner components = new StringJoiner(", ", record.getClass().getSimpleName() + "[", "]");
            for (RecordComponent component : record.getClass().getRecordComponents()) {
                try {
                    components.add(component.getName() + "=" + describe(component.getAccessor().invoke(record)));
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
            return components.toString();
        }
        if (value instanceof Map<?, ?> map) {
            StringJoiner entries = new StringJoiner(", ", "{", "}");
            map.forEach((k, v) -> entries.add(describe(k) + "=" + describe(v)));
            return entries.toString();
        }
        if (value instanceof Collection<?> collection) {
            StringJoiner elements = new StringJoiner(", ", "[", "]");
            collection.forEach(e -> elements.add(describe(e)));
            return elements.toString();
        }
        return String.valueOf(value);
    }

    private static String quote(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                default -> {
                    if (Character.isISOControl(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    // ---- numbers and choices -------------------------------------------------------------------------------

    /** True with probability {@code p}. */
    public boolean chance(double p) {
        return random.nextDouble() < p;
    }

    /** An int in {@code min..max} (both included); one time in ten exactly {@code min} or {@code max}. */
    public int between(int min, int max) {
        if (min > max) {
            throw new IllegalArgumentException(min + " > " + max);
        }
        if (chance(0.1)) {
            return random.nextBoolean() ? min : max;
        }
        return (int) random.nextLong(min, (long) max + 1);
    }

    /** A long in {@code min..max} (both included); one time in ten exactly {@code min} or {@code max}. */
    public long between(long min, long max) {
        if (min > max) {
            throw new IllegalArgumentException(min + " > " + max);
        }
        if (chance(0.1)) {
            return random.nextBoolean() ? min : max;
        }
        if (max < Long.MAX_VALUE) {
            return random.nextLong(min, max + 1);
        }
        return min == Long.MIN_VALUE ? random.nextLong() : random.nextLong(min - 1, max) + 1;
    }

    /**
     * A double in {@code min..max}: one time in ten {@code min}, {@code max} or (when in range) 0; otherwise
     * half the time rounded to two decimals, half the time with all its digits.
     */
    public double between(double min, double max) {
        if (!(min <= max)) {
            throw new IllegalArgumentException(min + " > " + max);
        }
        if (chance(0.1)) {
            return min <= 0 && 0 <= max ? oneOf(min, max, 0.0) : oneOf(min, max);
        }
        double value = min + random.nextDouble() * (max - min);
        if (random.nextBoolean()) {
            value = Math.round(value * 100) / 100.0;
        }
        return Math.max(min, Math.min(max, value));
    }

    /** A long {@code >= 0} of any magnitude, evenly over the number of bits; now and then 0, 1 or the largest. */
    public long nonNegativeLong() {
        if (chance(0.1)) {
            return oneOf(0L, 1L, Long.MAX_VALUE);
        }
        int bits = random.nextInt(64);
        return random.nextLong(bits == 63 ? Long.MAX_VALUE : 1L << bits);
    }

    /** An int {@code >= 0} of any magnitude, evenly over the number of bits; now and then 0, 1 or the largest. */
    public int nonNegativeInt() {
        if (chance(0.1)) {
            return oneOf(0, 1, Integer.MAX_VALUE);
        }
        int bits = random.nextInt(32);
        return random.nextInt(bits == 31 ? Integer.MAX_VALUE : 1 << bits);
    }

    @SafeVarargs
    public final <T> T oneOf(T... values) {
        return values[random.nextInt(values.length)];
    }

    public <T> T oneOf(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    public <E extends Enum<E>> E oneOf(Class<E> type) {
        return oneOf(type.getEnumConstants());
    }

    /** Null with probability {@code p}, else a value from {@code value}. */
    public <T> T orNull(double p, Supplier<T> value) {
        return chance(p) ? null : value.get();
    }

    public <T> List<T> list(int minSize, int maxSize, Supplier<T> element) {
        int size = between(minSize, maxSize);
        List<T> list = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            list.add(element.get());
        }
        return list;
    }

    /** A map of {@code 0..maxSize} entries (fewer only if {@code key} keeps repeating itself). */
    public <K, V> Map<K, V> map(int maxSize, Supplier<K> key, Supplier<V> value) {
        int size = between(0, maxSize);
        Map<K, V> map = new LinkedHashMap<>();
        for (int attempt = 0; map.size() < size && attempt < 100 * size; attempt++) {
            map.put(key.get(), value.get());
        }
        return map;
    }

    /**
     * Text of {@code minLength..maxLength} characters from a-z, 0-9 and {@code - _ / space " \ newline tab
     * U+0001 é ß 地 図}; one time in ten of the shortest length.
     */
    public String text(int minLength, int maxLength) {
        int length = chance(0.1) ? minLength : between(minLength, maxLength);
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(TEXT_CHARS[random.nextInt(TEXT_CHARS.length)]);
        }
        return text.toString();
    }

    // ---- the grid and jobs ---------------------------------------------------------------------------------

    public TileMatrixSet tileMatrixSet() {
        return oneOf(TileMatrixSet.builtIn());
    }

    /** Metatile sizes with sides {@code 1..maxSide}. */
    public MetatileSize metatileSize(int maxSide) {
        return new MetatileSize(between(1, maxSide), between(1, maxSide));
    }

    /** Zoom ranges {min, max} with {@code 0 <= min <= max <= maxZoom}. */
    public int[] zoomRange(int maxZoom) {
        int a = between(0, maxZoom);
        int b = between(0, maxZoom);
        return new int[] {Math.min(a, b), Math.max(a, b)};
    }

    /**
     * Longitudes: anywhere in -180..180, on a tile edge of some zoom level (the awkward case for "touching
     * is not intersecting"), or on the world's edge.
     */
    public double longitude() {
        int pick = random.nextInt(10);
        return pick < 6 ? between(-180.0, 180.0) : pick < 9 ? onGrid(-180, 360, 9) : oneOf(-180.0, 0.0, 180.0);
    }

    /** Latitudes: anywhere in -90..90, on a WorldCRS84Quad tile edge, or on the poles / equator. */
    public double latitude() {
        int pick = random.nextInt(10);
        return pick < 6 ? between(-90.0, 90.0) : pick < 9 ? onGrid(-90, 180, 8) : oneOf(-90.0, 0.0, 90.0);
    }

    /** CRS84 bboxes, one in ten of them a point (zero width and height); others may be zero wide or high. */
    public Bounds bbox() {
        if (chance(0.1)) {
            double x = longitude();
            double y = latitude();
            return new Bounds(x, y, x, y);
        }
        double x0 = longitude();
        double y0 = latitude();
        double x1 = longitude();
        double y1 = latitude();
        return new Bounds(Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1));
    }

    /** Specs for planning: any tile matrix set, bbox, zoom range within {@code 0..maxZoom}, metatile side up to {@code maxSide}. */
    public JobSpec planningSpec(int maxZoom, int maxSide) {
        TileMatrixSet tms = tileMatrixSet();
        Bounds bbox = bbox();
        int[] zooms = zoomRange(maxZoom);
        return Fixtures.spec(tms, bbox, zooms[0], zooms[1], metatileSize(maxSide));
    }

    /** Instants between 1970 and 2100 with nanosecond precision. */
    public Instant instant() {
        return Instant.ofEpochSecond(between(0L, 4_102_444_800L), between(0, 999_999_999));
    }

    /** Tiles of some zoom level up to {@code maxZoom} that exist in {@code tms}; often on the matrix's edge. */
    public TileCoord tile(TileMatrixSet tms, int maxZoom) {
        int z = between(0, maxZoom);
        return new TileCoord(z, between(0, tms.matrixWidth(z) - 1), between(0, tms.matrixHeight(z) - 1));
    }

    /** Values {@code origin + i * extent / 2^k} for some level {@code k <= maxLevel}. */
    private double onGrid(double origin, double extent, int maxLevel) {
        int k = between(0, maxLevel);
        return origin + between(0, 1 << k) * (extent / (1 << k));
    }

    private static char[] textChars() {
        StringBuilder chars = new StringBuilder();
        for (char c = 'a'; c <= 'z'; c++) {
            chars.append(c);
        }
        for (char c = '0'; c <= '9'; c++) {
            chars.append(c);
        }
        chars.append("-_/ \"\\\n\t\u0001éß地図");
        return chars.toString().toCharArray();
    }
}
