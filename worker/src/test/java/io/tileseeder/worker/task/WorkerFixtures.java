package io.tileseeder.worker.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.grid.TileRange;
import io.tileseeder.job.JobLimits;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import io.tileseeder.layer.LayerCatalogConfig;
import io.tileseeder.layer.LayerCatalogFile;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.message.TileCounts;
import io.tileseeder.plan.JobSpecValidator;
import io.tileseeder.plan.MetatilePlan;
import io.tileseeder.plan.PlannedMetatile;
import io.tileseeder.port.MetatileLock;
import io.tileseeder.port.TileKey;
import io.tileseeder.render.RenderFixtures;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import javax.imageio.ImageIO;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.CoordinateSequenceFilter;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.index.strtree.STRtree;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.geojson.GeoJsonReader;
import org.locationtech.jts.operation.overlayng.OverlayNG;
import org.locationtech.jts.operation.overlayng.OverlayNGRobust;

/**
 * Shared fixtures of the worker tests (store, task, layer; the catalogues and colours are {@link RenderFixtures}'):
 * job specs and their tasks, an in-test {@link MetatileLock},
 * helpers to look at a tile folder, the WebMercator / CRS84 pixel arithmetic, and an independent "where is
 * land" oracle computed with JTS from the bundled countries.
 */
public final class WorkerFixtures {

    public static final String WORLD = "world";
    public static final JobLimits LIMITS = new JobLimits(1_000_000, 32, 100_000, 100_000);
    public static final Duration LOCK_WAIT = Duration.ofSeconds(5);

    private static final String COUNTRIES = "layers/world/countries.geojson";

    private static final Map<TileMatrixSet, STRtree> LAND = new HashMap<>();

    /**
     * Waits until {@code condition} holds, looking every millisecond (the test's timeout bounds it): the threads it
     * waits for get the cores, which a spinning test thread would take from them on a loaded machine.
     */
    static void await(BooleanSupplier condition) {
        while (!condition.getAsBoolean()) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    private WorkerFixtures() {
    }

    /** The catalogue of one layer, "box": the rectangle 10..20° E, 10..20° N, written into {@code dir}/config. */
    public static LayerCatalogConfig boxCatalog(Path dir) throws IOException {
        Path config = Files.createDirectories(dir.resolve("config"));
        Files.writeString(config.resolve("box.geojson"), RenderFixtures.rectangleGeoJson(10, 10, 20, 20));
        return LayerCatalogFile.read(RenderFixtures.writeCatalog(config,
                RenderFixtures.catalogYaml(RenderFixtures.layerYaml("box", "box.geojson", "skip"))));
    }

    // ---- jobs and tasks -------------------------------------------------------------------------------------

    public static JobSpec spec(LayerCatalogConfig catalog, String layer, TileMatrixSet tms, int minZoom, int maxZoom,
                               Mode mode, Instant refreshBefore) {
        return spec(catalog, layer, tms, minZoom, maxZoom, null, mode, refreshBefore);
    }

    /** @param bbox {@code [minLon, minLat, maxLon, maxLat]}, or null for the world */
    public static JobSpec spec(LayerCatalogConfig catalog, String layer, TileMatrixSet tms, int minZoom, int maxZoom,
                               List<Double> bbox, Mode mode, Instant refreshBefore) {
        return new JobSpecValidator(catalog, LIMITS).validate(new JobRequest(layer, tms.id(),
                new JobRequest.Zoom(minZoom, maxZoom), bbox, "png", mode.id(), null, refreshBefore, null, null));
    }

    public static JobSpec worldSpec(TileMatrixSet tms, int minZoom, int maxZoom, Mode mode, Instant refreshBefore) {
        return spec(RenderFixtures.bundledCatalog(), WORLD, tms, minZoom, maxZoom, mode, refreshBefore);
    }

    /** Every task of the spec's plan, as a worker receives them. */
    public static List<MetatileTask> tasks(String jobId, JobSpec spec) {
        List<MetatileTask> tasks = new ArrayList<>();
        for (PlannedMetatile planned : MetatilePlan.of(spec)) {
            tasks.add(MetatileTask.of(jobId, planned.seq(), spec.layer(), spec.format(), spec.mode(),
                    planned.metatile(), planned.tiles(), planned.mask(), spec.refreshBefore()));
        }
        return tasks;
    }

    /** The results of running a list of tasks, per task and in total. */
    public record Run(List<MetatileTask> tasks, List<TileCounts> counts) {
        public TileCounts total() {
            return counts.stream().reduce(TileCounts.ZERO, TileCounts::plus);
        }
    }

    /** Runs every task through the processor; each must get its lock. */
    public static Run runAll(MetatileProcessor processor, List<MetatileTask> tasks)
            throws IOException, InterruptedException {
        List<TileCounts> counts = new ArrayList<>();
        for (MetatileTask task : tasks) {
            Optional<TileCounts> result = processor.process(task);
            assertThat(result).as("task %s got its lock", task.metatileKey()).isPresent();
            counts.add(result.get());
        }
        return new Run(tasks, counts);
    }

    /** Every tile of zoom levels {@code minZoom..maxZoom}. */
    public static Set<TileCoord> allTiles(TileMatrixSet tms, int minZoom, int maxZoom) {
        Set<TileCoord> tiles = new TreeSet<>(TILE_ORDER);
        for (int z = minZoom; z <= maxZoom; z++) {
            tms.fullRange(z).forEach(tiles::add);
        }
        return tiles;
    }

    public static final java.util.Comparator<TileCoord> TILE_ORDER = java.util.Comparator
            .comparingInt(TileCoord::z).thenComparingInt(TileCoord::x).thenComparingInt(TileCoord::y);

    // ---- store ----------------------------------------------------------------------------------------------

    public static TileKey key(String layer, TileMatrixSet tms, TileCoord tile) {
        return new TileKey(layer, tms, tile, TileFormat.PNG);
    }

    public static Path tilePath(Path root, String layer, TileMatrixSet tms, TileCoord tile) {
        return root.resolve(layer).resolve(tms.id()).resolve(Integer.toString(tile.z()))
                .resolve(Integer.toString(tile.x())).resolve(tile.y() + ".png");
    }

    /** Parses a stored tile path {@code layer/tms/z/x/y.png}; fails on anything else. */
    public static TileCoord parseTilePath(String relative, String layer, TileMatrixSet tms) {
        String prefix = layer + "/" + tms.id() + "/";
        assertThat(relative).as("stored file").startsWith(prefix).matches(".*/\\d+/\\d+/\\d+\\.png");
        String[] parts = relative.substring(prefix.length(), relative.length() - ".png".length()).split("/");
        assertThat(parts).as("z/x/y of %s", relative).hasSize(3);
        return new TileCoord(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
    }

    public static BufferedImage decodePng(Path file) throws IOException {
        BufferedImage image = ImageIO.read(file.toFile());
        assertThat(image).as("ImageIO decodes %s", file).isNotNull();
        return image;
    }

    // ---- lock -----------------------------------------------------------------------------------------------

    /** A map of semaphores: the simplest correct {@link MetatileLock}, which counts what it hands out. */
    public static final class MapLock implements MetatileLock {
        private final Map<String, Semaphore> locks = new ConcurrentHashMap<>();
        private final AtomicInteger acquired = new AtomicInteger();
        private final AtomicInteger released = new AtomicInteger();

        @Override
        public Optional<Lease> tryLock(String metatileKey, Duration wait) throws InterruptedException {
            Semaphore lock = locks.computeIfAbsent(metatileKey, key -> new Semaphore(1));
            if (!lock.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS)) {
                return Optional.empty();
            }
            acquired.incrementAndGet();
            AtomicInteger once = new AtomicInteger();
            return Optional.of(() -> {
                if (once.getAndIncrement() == 0) {
                    released.incrementAndGet();
                    lock.release();
                }
            });
        }

        public int acquired() {
            return acquired.get();
        }

        public int released() {
            return released.get();
        }

        public boolean isHeld(String metatileKey) {
            Semaphore lock = locks.get(metatileKey);
            return lock != null && lock.availablePermits() == 0;
        }
    }

    // ---- pixel arithmetic -----------------------------------------------------------------------------------

    /** A pixel of a tile: which tile, and the pixel's column and row in it. */
    public record TilePixel(TileCoord tile, int px, int py) {
    }

    /**
     * The pixel that holds CRS84 {@code (lon, lat)} at zoom {@code z}, from the standard formulas: WebMercator
     * {@code x = (lon + 180) / 360 · 256 · 2^z}, {@code y = (1 − ln(tan φ + sec φ) / π) / 2 · 256 · 2^z};
     * WorldCRS84Quad {@code x = (lon + 180) / 360 · 512 · 2^z}, {@code y = (90 − lat) / 180 · 256 · 2^z}.
     */
    public static TilePixel pixelOf(TileMatrixSet tms, int z, double lon, double lat) {
        double gx;
        double gy;
        if (tms == TileMatrixSet.WEB_MERCATOR_QUAD) {
            double size = 256.0 * (1 << z);
            double phi = Math.toRadians(lat);
            gx = (lon + 180) / 360 * size;
            gy = (1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2 * size;
        } else {
            gx = (lon + 180) / 360 * 512.0 * (1 << z);
            gy = (90 - lat) / 180 * 256.0 * (1 << z);
        }
        int x = (int) Math.floor(gx);
        int y = (int) Math.floor(gy);
        return new TilePixel(new TileCoord(z, x / 256, y / 256), x % 256, y % 256);
    }

    // ---- independent land oracle ----------------------------------------------------------------------------

    /** What the bundled countries say a tile must be. */
    public enum Expect {
        /** At least 2 px² of land lie well inside the tile (1 px from its edges): it must be stored. */
        LAND,
        /** No country comes within 2 px of the tile: it must be counted empty and not stored. */
        EMPTY,
        /** Land only grazes the tile (antialiasing or the border stroke decides): either is acceptable. */
        EDGE
    }

    /** Classifies a tile from the bundled countries, projected here with the textbook formulas. */
    public static Expect expect(TileMatrixSet tms, TileCoord tile) {
        STRtree land = land(tms);
        double res = tms.resolution(tile.z());
        Bounds b = tms.tileBounds(tile);
        Envelope outer = new Envelope(b.minX() - 2 * res, b.maxX() + 2 * res, b.minY() - 2 * res, b.maxY() + 2 * res);
        Envelope innerEnv = new Envelope(b.minX() + res, b.maxX() - res, b.minY() + res, b.maxY() - res);
        GeometryFactory gf = new GeometryFactory();
        Geometry outerBox = gf.toGeometry(outer);
        Geometry inner = gf.toGeometry(innerEnv);
        boolean near = false;
        double area = 0;
        for (Object item : land.query(outer)) {
            Geometry country = (Geometry) item;
            if (!country.intersects(outerBox)) {
                continue;
            }
            near = true;
            if (country.getEnvelopeInternal().intersects(innerEnv)) {
                area += OverlayNGRobust.overlay(country, inner, OverlayNG.INTERSECTION).getArea();
            }
        }
        if (!near) {
            return Expect.EMPTY;
        }
        return area >= 2 * res * res ? Expect.LAND : Expect.EDGE;
    }

    /** Whether CRS84 {@code (lon, lat)} lies at least {@code margin} degrees inside some country. */
    public static boolean deepInsideLand(double lon, double lat, double margin) {
        STRtree land = land(TileMatrixSet.WORLD_CRS84_QUAD);
        Geometry point = new GeometryFactory().createPoint(new Coordinate(lon, lat));
        for (Object item : land.query(point.getEnvelopeInternal())) {
            Geometry country = (Geometry) item;
            if (country.contains(point) && country.getBoundary().distance(point) >= margin) {
                return true;
            }
        }
        return false;
    }

    /** Whether no country comes within {@code margin} degrees of CRS84 {@code (lon, lat)}. */
    public static boolean farFromLand(double lon, double lat, double margin) {
        STRtree land = land(TileMatrixSet.WORLD_CRS84_QUAD);
        Geometry point = new GeometryFactory().createPoint(new Coordinate(lon, lat));
        Envelope near = new Envelope(lon - margin, lon + margin, lat - margin, lat + margin);
        for (Object item : land.query(near)) {
            if (((Geometry) item).distance(point) < margin) {
                return false;
            }
        }
        return true;
    }

    private static STRtree land(TileMatrixSet tms) {
        synchronized (LAND) {
            return LAND.computeIfAbsent(tms, WorkerFixtures::buildLand);
        }
    }

    private static STRtree buildLand(TileMatrixSet tms) {
        Geometry all;
        try (InputStream in = WorkerFixtures.class.getClassLoader().getResourceAsStream(COUNTRIES)) {
            assertThat(in).as("bundled %s", COUNTRIES).isNotNull();
            all = new GeoJsonReader().read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ParseException e) {
            throw new IllegalStateException(e);
        }
        STRtree tree = new STRtree();
        for (int i = 0; i < all.getNumGeometries(); i++) {
            Geometry country = all.getGeometryN(i).copy();
            if (tms == TileMatrixSet.WEB_MERCATOR_QUAD) {
                country.apply(new ToMercator());
                country.geometryChanged();
            }
            tree.insert(country.getEnvelopeInternal(), country);
        }
        tree.build();
        return tree;
    }

    /** EPSG:3857 from the textbook: x = R·λ, y = R·ln tan(π/4 + φ/2), φ clamped to ±85.0511°. */
    private static final class ToMercator implements CoordinateSequenceFilter {
        private static final double R = 6_378_137.0;
        private static final double MAX_LAT = Math.toDegrees(Math.atan(Math.sinh(Math.PI)));

        @Override
        public void filter(CoordinateSequence seq, int i) {
            double lon = seq.getX(i);
            double lat = Math.max(-MAX_LAT, Math.min(MAX_LAT, seq.getY(i)));
            seq.setOrdinate(i, Coordinate.X, Math.toRadians(lon) * R);
            seq.setOrdinate(i, Coordinate.Y, Math.log(Math.tan(Math.PI / 4 + Math.toRadians(lat) / 2)) * R);
        }

        @Override
        public boolean isDone() {
            return false;
        }

        @Override
        public boolean isGeometryChanged() {
            return true;
        }
    }

    /** The tiles of {@code range} as a set. */
    public static Set<TileCoord> tilesOf(TileRange range) {
        Set<TileCoord> tiles = new TreeSet<>(TILE_ORDER);
        range.forEach(tiles::add);
        return tiles;
    }

    /** A job gate that lets every job in. */
    static TestGate openGate() {
        return new TestGate();
    }

    /**
     * A job gate for tests: jobs named {@link #close closed} (final) turn workers away, {@link #failNext} makes the
     * next entries find it unavailable, and it counts the passes open per job.
     */
    static final class TestGate implements io.tileseeder.port.JobGate {
        private final Set<String> closed = ConcurrentHashMap.newKeySet();
        private final Map<String, AtomicInteger> open = new ConcurrentHashMap<>();
        private final AtomicInteger unavailable = new AtomicInteger();
        final AtomicInteger entries = new AtomicInteger();

        TestGate close(String jobId) {
            closed.add(jobId);
            return this;
        }

        TestGate failNext(int times) {
            unavailable.set(times);
            return this;
        }

        @Override
        public Optional<Pass> enter(String jobId) {
            entries.incrementAndGet();
            if (unavailable.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new io.tileseeder.port.DependencyUnavailableException("Redis", "Redis is restarting", null);
            }
            if (closed.contains(jobId)) {
                return Optional.empty();
            }
            AtomicInteger count = open.computeIfAbsent(jobId, id -> new AtomicInteger());
            count.incrementAndGet();
            java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
            return Optional.of(new Pass() {
                @Override
                public boolean jobFinal() {
                    return closed.contains(jobId);
                }

                @Override
                public void close() {
                    if (done.compareAndSet(false, true)) {
                        count.decrementAndGet();
                    }
                }
            });
        }

        @Override
        public long passesOpen(String jobId) {
            AtomicInteger count = open.get(jobId);
            return count == null ? 0 : count.get();
        }
    }
}
