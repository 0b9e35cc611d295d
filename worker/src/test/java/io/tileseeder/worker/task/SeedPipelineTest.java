package io.tileseeder.worker.task;

import static io.tileseeder.render.RenderFixtures.LAND_RGB;
import static io.tileseeder.render.RenderFixtures.alpha;
import static io.tileseeder.render.RenderFixtures.hex;
import static io.tileseeder.worker.task.WorkerFixtures.LOCK_WAIT;
import static io.tileseeder.worker.task.WorkerFixtures.WORLD;
import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.adapters.file.Folders;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.grid.TileRange;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.Mode;
import io.tileseeder.layer.LayerCatalogFile;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.message.TileCounts;
import io.tileseeder.plan.MetatilePlan;
import io.tileseeder.render.RenderFixtures;
import io.tileseeder.worker.task.WorkerFixtures.Expect;
import io.tileseeder.worker.task.WorkerFixtures.MapLock;
import io.tileseeder.worker.task.WorkerFixtures.Run;
import io.tileseeder.worker.task.WorkerFixtures.TilePixel;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeds the bundled {@code world} layer end to end (plan → lock → render → cut → classify → encode → store) into a
 * temporary folder, and checks the result against the countries themselves.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SeedPipelineTest {

    /** Points well inside big countries: central Brazil, central Russia, the Algerian Sahara. */
    private static final double[][] LAND_POINTS = {{-52, -10}, {100, 62}, {2, 26}};
    /** The equatorial Atlantic and the South Pacific. */
    private static final double[][] OCEAN_POINTS = {{-30, 0}, {-120, -50}};

    @TempDir
    Path root;

    private FileTileStore store;
    private MapLock lock;
    private WorkerMetrics metrics;
    private MetatileProcessor processor;

    @BeforeEach
    void setUp() {
        store = new FileTileStore(root);
        lock = new MapLock();
        metrics = WorkerMetrics.unregistered();
        processor = new MetatileProcessor(RenderFixtures.bundledResources(), store, lock, LOCK_WAIT, metrics);
    }

    @Test
    void fixturePointsAreWhereTheTestSaysTheyAre() {
        for (double[] p : LAND_POINTS) {
            assertThat(WorkerFixtures.deepInsideLand(p[0], p[1], 3.0)).as("%s,%s is 3° inside a country", p[0], p[1])
                    .isTrue();
        }
        for (double[] p : OCEAN_POINTS) {
            assertThat(WorkerFixtures.farFromLand(p[0], p[1], 3.0)).as("%s,%s is 3° from any land", p[0], p[1])
                    .isTrue();
        }
        // The ocean tile used below: z3 over the South Pacific, between New Zealand and Chile.
        assertThat(WorkerFixtures.pixelOf(TileMatrixSet.WEB_MERCATOR_QUAD, 3, -120, -50).tile())
                .isEqualTo(TileCoord.of(3, 1, 5));
        assertThat(WorkerFixtures.expect(TileMatrixSet.WEB_MERCATOR_QUAD, TileCoord.of(3, 1, 5)))
                .isEqualTo(Expect.EMPTY);
    }

    @Test
    void seedsWorldInWebMercatorQuadZoom0To3() throws Exception {
        TileMatrixSet tms = TileMatrixSet.WEB_MERCATOR_QUAD;
        Run run = seed(tms, 0, 3);

        assertThat(run.tasks()).as("metatiles of 4x4 at z0..3: 1 + 1 + 1 + 4").hasSize(7);
        TileCounts total = run.total();
        assertThat(total.written() + total.empty()).as("written + empty").isEqualTo(85);
        assertThat(total.skipped() + total.deleted() + total.failed()).isZero();

        Set<TileCoord> stored = checkStoredTiles(run, tms, 0, 3);
        assertThat(Folders.regularFiles(root)).as("the tiles and a done marker per metatile")
                .hasSize(stored.size() + run.tasks().size());
        TileCoord southPacific = TileCoord.of(3, 1, 5);
        assertThat(stored).as("the South Pacific tile is not stored").doesNotContain(southPacific);
        assertThat(WorkerFixtures.tilePath(root, WORLD, tms, southPacific)).doesNotExist();
        MetatileTask owner = run.tasks().stream().filter(t -> t.tiles().contains(southPacific)).findFirst()
                .orElseThrow();
        assertThat(run.counts().get(run.tasks().indexOf(owner)).empty()).as("empty tiles of %s", owner.metatileKey())
                .isPositive();

        checkPixels(tms, 0, 3);
        assertThat(metrics.nanos(WorkerMetrics.Stage.RENDER)).isPositive();
        assertThat(metrics.nanos(WorkerMetrics.Stage.STORE)).isPositive();
        assertThat(lock.acquired()).isEqualTo(7).isEqualTo(lock.released());
    }

    @Test
    void seedsWorldInWorldCrs84QuadZoom0To2() throws Exception {
        TileMatrixSet tms = TileMatrixSet.WORLD_CRS84_QUAD;
        Run run = seed(tms, 0, 2);

        TileCounts total = run.total();
        assertThat(total.written() + total.empty()).as("2 + 8 + 32 tiles").isEqualTo(42);
        Set<TileCoord> stored = checkStoredTiles(run, tms, 0, 2);
        assertThat(stored).as("z0 is two tiles, both with land")
                .contains(TileCoord.of(0, 0, 0), TileCoord.of(0, 1, 0));
        checkPixels(tms, 0, 2);
        assertThat(lock.acquired()).isEqualTo(lock.released());
    }

    @Test
    void emptyTilesArePngsOfNothingUnderTheStorePolicy(@TempDir Path config) throws Exception {
        // A 10° box at 10..20°E, 10..20°N: at z0..2 it touches a handful of tiles; the others are empty.
        Files.writeString(config.resolve("box.geojson"), RenderFixtures.rectangleGeoJson(10, 10, 20, 20));
        var catalog = LayerCatalogFile.read(RenderFixtures.writeCatalog(config, RenderFixtures.catalogYaml(
                RenderFixtures.layerYaml("boxes", "box.geojson", "store"),
                RenderFixtures.layerYaml("sparse", "box.geojson", "skip"))));
        MetatileProcessor boxes = new MetatileProcessor(RenderFixtures.resources(catalog), store, lock, LOCK_WAIT,
                metrics);

        TileMatrixSet tms = TileMatrixSet.WEB_MERCATOR_QUAD;
        Run stored = WorkerFixtures.runAll(boxes, WorkerFixtures.tasks("j-store",
                WorkerFixtures.spec(catalog, "boxes", tms, 0, 2, Mode.SEED, null)));
        assertThat(stored.total().written()).as("every tile is stored").isEqualTo(21);
        assertThat(stored.total().empty()).isZero();
        Run skipped = WorkerFixtures.runAll(boxes, WorkerFixtures.tasks("j-skip",
                WorkerFixtures.spec(catalog, "sparse", tms, 0, 2, Mode.SEED, null)));
        // The box lies in one tile per zoom level (z2: x 1, y 1), far from any tile edge: 3 tiles with land.
        assertThat(skipped.total().written()).as("only tiles with the box").isEqualTo(3);
        assertThat(skipped.total().empty()).isEqualTo(18);

        Path emptyTile = WorkerFixtures.tilePath(root, "boxes", tms, TileCoord.of(2, 0, 0));
        BufferedImage image = WorkerFixtures.decodePng(emptyTile);
        assertThat(image.getWidth()).isEqualTo(256);
        assertThat(image.getHeight()).isEqualTo(256);
        assertThat(image.getColorModel().hasAlpha()).isTrue();
        for (int y = 0; y < 256; y += 15) {
            for (int x = 0; x < 256; x += 15) {
                assertThat(alpha(image.getRGB(x, y))).as("pixel %d,%d of an empty tile", x, y).isZero();
            }
        }
        TilePixel inBox = WorkerFixtures.pixelOf(tms, 2, 15, 15);
        BufferedImage boxTile = WorkerFixtures.decodePng(WorkerFixtures.tilePath(root, "sparse", tms, inBox.tile()));
        assertThat(boxTile.getRGB(inBox.px(), inBox.py())).isEqualTo(0xff000000 | LAND_RGB);
    }

    @Test
    void onlyTheJobsTilesOfAMetatileAreStored() throws Exception {
        TileMatrixSet tms = TileMatrixSet.WEB_MERCATOR_QUAD;
        // z3, lon -180..-100, lat 0..85: tile columns 0..1 and rows 0..3 of metatile (0, 0), which has 4x4.
        JobSpec spec = WorkerFixtures.spec(RenderFixtures.bundledCatalog(), WORLD, tms, 3, 3,
                List.of(-180.0, 0.0, -100.0, 85.0), Mode.SEED, null);
        Run run = WorkerFixtures.runAll(processor, WorkerFixtures.tasks("job-bbox", spec));

        assertThat(run.tasks()).singleElement().satisfies(task -> assertThat(task.tiles())
                .isEqualTo(new TileRange(3, 0, 0, 1, 3)));
        assertThat(run.total().written() + run.total().empty()).isEqualTo(8);
        Set<TileCoord> stored = new TreeSet<>(WorkerFixtures.TILE_ORDER);
        for (String file : Folders.tiles(root)) {
            stored.add(WorkerFixtures.parseTilePath(file, WORLD, tms));
        }
        assertThat(stored).hasSize((int) run.total().written())
                .allSatisfy(tile -> assertThat(tile.x()).as("column of %s", tile).isLessThanOrEqualTo(1));
        assertThat(stored).as("North America").contains(TileCoord.of(3, 1, 2), TileCoord.of(3, 1, 3));
    }

    @Test
    void tilesOfOneColourAreStoredAsTheSameImage(@TempDir Path config) throws Exception {
        Files.writeString(config.resolve("box.geojson"), RenderFixtures.rectangleGeoJson(10, 10, 20, 20));
        var catalog = LayerCatalogFile.read(RenderFixtures.writeCatalog(config, RenderFixtures.catalogYaml(
                RenderFixtures.layerYaml("box", "box.geojson", "skip"))));
        MetatileProcessor boxes = new MetatileProcessor(RenderFixtures.resources(catalog), store, lock, LOCK_WAIT,
                metrics);
        TileMatrixSet tms = TileMatrixSet.WEB_MERCATOR_QUAD;
        // z7 tiles 68..70 (lon 11.25..19.69) by 57..59 (lat 11.18..19.31) lie wholly inside the box, far from its
        // edges.
        JobSpec spec = WorkerFixtures.spec(catalog, "box", tms, 7, 7, List.of(11.5, 11.5, 19.5, 19.0), Mode.SEED,
                null);

        Run run = WorkerFixtures.runAll(boxes, WorkerFixtures.tasks("job-uniform", spec));

        Set<String> files = Folders.regularFiles(root);
        assertThat(files).hasSize(9).hasSize((int) run.total().written());
        byte[] first = Files.readAllBytes(root.resolve(files.iterator().next()));
        for (String file : files) {
            assertThat(root.resolve(file)).as(file).hasBinaryContent(first);
        }
        BufferedImage image = WorkerFixtures.decodePng(root.resolve(files.iterator().next()));
        for (int y = 0; y < 256; y += 51) {
            for (int x = 0; x < 256; x += 51) {
                assertThat(image.getRGB(x, y)).as("pixel %d,%d", x, y).isEqualTo(0xff000000 | LAND_RGB);
            }
        }
    }

    @Test
    void aMetatileLockedElsewhereIsLeftAlone() throws Exception {
        List<MetatileTask> tasks = WorkerFixtures.tasks("j-locked",
                WorkerFixtures.worldSpec(TileMatrixSet.WEB_MERCATOR_QUAD, 0, 0, Mode.SEED, null));
        MetatileTask task = tasks.getFirst();
        var held = lock.tryLock(task.metatileKey(), Duration.ZERO).orElseThrow();
        MetatileProcessor impatient = new MetatileProcessor(RenderFixtures.bundledResources(), store, lock,
                Duration.ofMillis(50), metrics);
        try {
            assertThat(impatient.process(task)).as("result while someone else holds the lock").isEmpty();
            assertThat(Folders.regularFiles(root)).isEmpty();
        } finally {
            held.close();
        }
        assertThat(impatient.process(task)).isPresent();
        assertThat(lock.isHeld(task.metatileKey())).as("lock released after the task").isFalse();
        assertThat(Folders.tiles(root)).containsExactly("world/WebMercatorQuad/0/0/0.png");
    }

    // ---- helpers --------------------------------------------------------------------------------------------

    private Run seed(TileMatrixSet tms, int minZoom, int maxZoom) throws Exception {
        JobSpec spec = WorkerFixtures.worldSpec(tms, minZoom, maxZoom, Mode.SEED, null);
        assertThat(MetatilePlan.of(spec).tileCount()).isEqualTo(WorkerFixtures.allTiles(tms, minZoom, maxZoom).size());
        return WorkerFixtures.runAll(processor, WorkerFixtures.tasks("job-" + tms.id(), spec));
    }

    /**
     * The files on disk are exactly the tiles counted written: per task, the stored tiles of its range number its
     * written count, and the rest its empty count; every file is a 256×256 PNG at its place; and the set agrees
     * with where the countries are.
     */
    private Set<TileCoord> checkStoredTiles(Run run, TileMatrixSet tms, int minZoom, int maxZoom) throws Exception {
        Set<TileCoord> stored = new TreeSet<>(WorkerFixtures.TILE_ORDER);
        for (String file : Folders.tiles(root)) {
            stored.add(WorkerFixtures.parseTilePath(file, WORLD, tms));
        }
        Set<TileCoord> all = WorkerFixtures.allTiles(tms, minZoom, maxZoom);
        assertThat(all).as("every stored file is a tile of the job").containsAll(stored);
        assertThat(stored).hasSize((int) run.total().written());
        for (int i = 0; i < run.tasks().size(); i++) {
            MetatileTask task = run.tasks().get(i);
            TileCounts counts = run.counts().get(i);
            Set<TileCoord> mine = WorkerFixtures.tilesOf(task.tiles());
            long storedHere = mine.stream().filter(stored::contains).count();
            assertThat(counts.written()).as("written by %s", task.metatileKey()).isEqualTo(storedHere);
            assertThat(counts.empty()).as("empty in %s", task.metatileKey()).isEqualTo(mine.size() - storedHere);
            assertThat(counts.bytes()).as("bytes of %s", task.metatileKey()).isEqualTo(mine.stream()
                    .filter(stored::contains).mapToLong(t -> size(WorkerFixtures.tilePath(root, WORLD, tms, t))).sum());
        }

        Map<Expect, List<TileCoord>> expected = new EnumMap<>(Expect.class);
        for (TileCoord tile : all) {
            expected.computeIfAbsent(WorkerFixtures.expect(tms, tile), e -> new ArrayList<>()).add(tile);
        }
        List<TileCoord> land = expected.getOrDefault(Expect.LAND, List.of());
        List<TileCoord> ocean = expected.getOrDefault(Expect.EMPTY, List.of());
        assertThat(stored).as("tiles with land (%d at the edge: %s)", expected.getOrDefault(Expect.EDGE,
                List.of()).size(), expected.get(Expect.EDGE)).containsAll(land);
        assertThat(ocean).as("tiles with no land within 2 px").allSatisfy(tile -> assertThat(stored).doesNotContain(tile));

        for (TileCoord tile : stored) {
            BufferedImage image = WorkerFixtures.decodePng(WorkerFixtures.tilePath(root, WORLD, tms, tile));
            assertThat(image.getWidth()).as("width of %s", tile).isEqualTo(256);
            assertThat(image.getHeight()).as("height of %s", tile).isEqualTo(256);
        }
        assertThat(Folders.tempFiles(root)).isEmpty();
        return stored;
    }

    /** Land is the land colour and opaque; the ocean is transparent. */
    private void checkPixels(TileMatrixSet tms, int minZoom, int maxZoom) throws Exception {
        for (int z = minZoom; z <= maxZoom; z++) {
            for (double[] p : LAND_POINTS) {
                TilePixel at = WorkerFixtures.pixelOf(tms, z, p[0], p[1]);
                Path file = WorkerFixtures.tilePath(root, WORLD, tms, at.tile());
                assertThat(file).as("tile %s over %s,%s", at.tile(), p[0], p[1]).isRegularFile();
                int argb = WorkerFixtures.decodePng(file).getRGB(at.px(), at.py());
                assertThat(alpha(argb)).as("alpha at %s,%s in %s", p[0], p[1], at).isEqualTo(255);
                assertThat(RenderFixtures.rgbClose(argb, LAND_RGB, 2))
                        .as("colour %s at %s,%s in %s is the land colour #f2efe9", hex(argb), p[0], p[1], at).isTrue();
            }
            for (double[] p : OCEAN_POINTS) {
                TilePixel at = WorkerFixtures.pixelOf(tms, z, p[0], p[1]);
                Path file = WorkerFixtures.tilePath(root, WORLD, tms, at.tile());
                if (p[0] == -30) {
                    assertThat(file).as("the Atlantic tile %s holds land too, so it is stored", at.tile())
                            .isRegularFile();
                }
                if (Files.exists(file)) {
                    int argb = WorkerFixtures.decodePng(file).getRGB(at.px(), at.py());
                    assertThat(alpha(argb)).as("alpha %s at %s,%s in %s", hex(argb), p[0], p[1], at).isZero();
                }
            }
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
