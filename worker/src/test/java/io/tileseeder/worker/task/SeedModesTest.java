package io.tileseeder.worker.task;

import static io.tileseeder.worker.task.WorkerFixtures.LOCK_WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import io.tileseeder.adapters.ForwardingTileStore;
import io.tileseeder.port.TileCache;
import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.adapters.file.Folders;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import io.tileseeder.layer.EmptyTilePolicy;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.message.TileCounts;
import io.tileseeder.plan.JobSpecValidator;
import io.tileseeder.plan.MetatilePlan;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import io.tileseeder.render.RenderFixtures;
import io.tileseeder.worker.task.WorkerFixtures.MapLock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed, reseed and truncate over a cache that already holds tiles: world z0–3 in WebMercatorQuad (85 tiles, a few
 * of them empty ocean).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SeedModesTest {

    private static final TileMatrixSet TMS = TileMatrixSet.WEB_MERCATOR_QUAD;
    private static final int MAX_ZOOM = 3;
    private static final int TILES = 85;
    /** z0, z1 and z2 in one metatile each, z3 in four. */
    private static final int METATILES = 7;
    /** Well before any test runs, so a rewrite always shows in the mtime. */
    private static final FileTime LONG_AGO = FileTime.from(Instant.parse("2020-01-01T00:00:00Z"));
    /** Each run is a job of its own, as each job a user sends is. */
    private static final AtomicInteger JOBS = new AtomicInteger();

    @TempDir
    Path root;

    private MetatileProcessor processor;

    @BeforeEach
    void setUp() {
        processor = new MetatileProcessor(RenderFixtures.bundledResources(), new FileTileStore(root), new MapLock(),
                LOCK_WAIT, WorkerMetrics.unregistered());
    }

    @Test
    void seedSkipsTilesThatExistAndLeavesThemUntouched() throws Exception {
        TileCounts first = run(Mode.SEED, null);
        assertThat(first.written()).isPositive();
        assertThat(first.written() + first.empty()).isEqualTo(TILES);
        Map<String, byte[]> before = contents();
        backdateAll();

        Lookups lookups = new Lookups(new FileTileStore(root));
        TileCounts second = run(processorOver(lookups), Mode.SEED, null);

        assertThat(second.written()).as("written by the second seed").isZero();
        assertThat(second.skipped()).as("skipped by the second seed: every tile, the empty ones too")
                .isEqualTo(TILES);
        assertThat(second.empty()).as("empty tiles found by rendering again").isZero();
        assertThat(second.bytes()).isZero();
        assertThat(lookups.markers).as("done markers looked up").hasValue(METATILES);
        assertThat(lookups.tiles).as("tiles looked up").hasValue(0);
        assertThat(mtimes()).as("mtimes after the second seed").allSatisfy((file, time) ->
                assertThat(time).as(file).isEqualTo(LONG_AGO));
        assertSameContents(before, contents());
    }

    @Test
    void aSeedIntoZoomsThatHoldNoTileAsksOncePerZoomAndLooksUpNoTile() throws Exception {
        Lookups lookups = new Lookups(new FileTileStore(root));

        TileCounts first = run(processorOver(lookups), Mode.SEED, null);

        assertThat(first.written() + first.empty()).isEqualTo(TILES);
        assertThat(lookups.zooms).as("zooms asked about").hasValue(MAX_ZOOM + 1);
        assertThat(lookups.tiles).as("tiles looked up").hasValue(0);
    }

    @Test
    void aSeedIntoAZoomThatHoldsATileLooksUpItsTilesAndLeavesThatOneAlone() throws Exception {
        Path kept = root.resolve("world/" + TMS.id() + "/3/4/2.png");
        Files.createDirectories(kept.getParent());
        Files.write(kept, new byte[]{1, 2, 3});
        Lookups lookups = new Lookups(new FileTileStore(root));

        TileCounts first = run(processorOver(lookups), Mode.SEED, null);

        assertThat(first.skipped()).as("the tile already there").isEqualTo(1);
        assertThat(first.written() + first.empty()).isEqualTo(TILES - 1);
        assertThat(Files.readAllBytes(kept)).containsExactly(1, 2, 3);
        assertThat(lookups.tiles).as("tiles looked up: those of z3, the one zoom holding a tile").hasValue(64);
    }

    @Test
    void aReseedSeesATileThatAppearedInItsZoomAfterItsFirstTask() throws Exception {
        List<MetatileTask> tasks = new ArrayList<>(
                WorkerFixtures.tasks("job-reseed-late", WorkerFixtures.worldSpec(TMS, 3, 3, Mode.RESEED, null)));
        MetatileTask holdingStale = tasks.stream().filter(t -> t.metatileX() == 0 && t.metatileY() == 0)
                .findFirst().orElseThrow();
        tasks.remove(holdingStale);
        Lookups lookups = new Lookups(new FileTileStore(root));
        MetatileProcessor reseeding = processorOver(lookups);
        WorkerFixtures.runAll(reseeding, tasks);
        String stale = "world/" + TMS.id() + "/3/0/0.png";
        assertThat(root.resolve(stale)).as("an ocean tile, never stored").doesNotExist();
        Files.write(root.resolve(stale), new byte[] {4, 5, 6});

        TileCounts last = WorkerFixtures.runAll(reseeding, List.of(holdingStale)).total();

        assertThat(root.resolve(stale)).as("the tile written beside the job, now empty").doesNotExist();
        assertThat(last.deleted()).as("the tile written beside the job, now empty").isEqualTo(1);
        assertThat(lookups.zooms).as("zooms asked about by a reseed").hasValue(0);
        List<String> listed = new ArrayList<>();
        for (String file : Folders.regularFiles(root)) {
            if (file.contains("/changes/job-reseed-late/")) {
                listed.addAll(Files.readAllLines(root.resolve(file)));
            }
        }
        assertThat(listed).as("changes listed for the purge").contains("3/0/0");
    }

    @Test
    void reseedWritesNoTileWhoseBytesWouldNotChange() throws Exception {
        TileCounts first = run(Mode.SEED, null);
        Map<String, byte[]> before = contents();
        backdateAll();

        TileCounts reseed = run(Mode.RESEED, null);

        assertThat(reseed.written()).isZero();
        assertThat(reseed.unchanged()).isEqualTo(first.written());
        assertThat(reseed.skipped()).isZero();
        assertThat(reseed.empty()).isEqualTo(first.empty());
        assertThat(reseed.bytes()).isZero();
        assertThat(mtimes()).as("mtimes after reseed").allSatisfy((file, time) ->
                assertThat(time).as(file).isEqualTo(LONG_AGO));
        assertSameContents(before, contents());
        assertThat(Files.exists(root.resolve("world/" + TMS.id() + "/changes"))).as("a list of changes").isFalse();
    }

    @Test
    void reseedRewritesTheTilesThatChangedDeletesThoseNowEmptyAndListsBoth() throws Exception {
        TileCounts first = run(Mode.SEED, null);
        Map<String, byte[]> before = contents();
        String altered = "world/" + TMS.id() + "/2/2/1.png";
        assertThat(before).containsKey(altered);
        String stale = "world/" + TMS.id() + "/3/0/0.png";
        assertThat(before).doesNotContainKey(stale);
        Files.write(root.resolve(altered), new byte[] {1, 2, 3});
        Files.write(root.resolve(stale), new byte[] {4, 5, 6});
        backdateAll();

        TileCounts reseed = run(Mode.RESEED, null);

        assertThat(reseed.written()).isEqualTo(1);
        assertThat(reseed.unchanged()).isEqualTo(first.written() - 1);
        assertThat(reseed.deleted()).as("the stored tile that has become empty").isEqualTo(1);
        assertThat(reseed.empty()).as("the other empty tiles").isEqualTo(first.empty() - 1);
        Map<String, byte[]> after = contents();
        List<String> changeFiles = after.keySet().stream().filter(f -> f.contains("/changes/job-reseed-")).toList();
        assertThat(changeFiles).isNotEmpty().allMatch(f -> f.startsWith("world/" + TMS.id() + "/changes/"));
        List<String> listed = new ArrayList<>();
        changeFiles.forEach(f -> listed.addAll(new String(after.remove(f), StandardCharsets.UTF_8).lines().toList()));
        assertThat(listed).containsExactlyInAnyOrder("2/2/1", "3/0/0");
        assertSameContents(before, after);
        assertThat(mtimes()).allSatisfy((file, time) -> {
            if (!file.equals(altered) && !file.contains("/changes/")) {
                assertThat(time).as(file).isEqualTo(LONG_AGO);
            }
        });
    }

    @Test
    void reseedWithRefreshBeforeSkipsTilesWrittenSince() throws Exception {
        TileCounts first = run(Mode.SEED, null);
        backdateAll(); // the tiles were written on 2020-01-01

        TileCounts notStale = run(Mode.RESEED, Instant.parse("2019-06-01T00:00:00Z"));

        assertThat(notStale.written()).as("written when refreshBefore is older than every tile").isZero();
        assertThat(notStale.skipped()).isEqualTo(first.written());
        assertThat(mtimes()).allSatisfy((file, time) -> assertThat(time).as(file).isEqualTo(LONG_AGO));

        String altered = "world/" + TMS.id() + "/1/1/0.png";
        Files.write(root.resolve(altered), new byte[] {7});
        Files.setLastModifiedTime(root.resolve(altered), LONG_AGO);
        TileCounts stale = run(Mode.RESEED, Instant.parse("2021-01-01T00:00:00Z"));

        assertThat(stale.skipped()).isZero();
        assertThat(stale.written()).as("written when every tile is older than refreshBefore: the one changed")
                .isEqualTo(1);
        assertThat(stale.unchanged()).isEqualTo(first.written() - 1);
        assertThat(Files.getLastModifiedTime(root.resolve(altered))).isGreaterThan(LONG_AGO);
    }

    @Test
    void truncateDeletesEveryTile() throws Exception {
        TileCounts first = run(Mode.SEED, null);

        TileCounts truncate = run(Mode.TRUNCATE, null);

        assertThat(truncate.deleted()).as("deleted").isEqualTo(first.written());
        assertThat(truncate.skipped()).as("tiles that were not there").isEqualTo(first.empty());
        assertThat(truncate.written() + truncate.empty() + truncate.failed() + truncate.bytes()).isZero();
        assertThat(Folders.regularFiles(root)).as("files left after truncate, done markers included").isEmpty();

        TileCounts again = run(Mode.TRUNCATE, null);
        assertThat(again.deleted()).isZero();
        assertThat(again.skipped()).isEqualTo(TILES);
    }

    @Test
    void aJobOverATileListTouchesItsTilesAndNoOther() throws Exception {
        run(Mode.SEED, null);
        Set<String> before = new TreeSet<>(Folders.regularFiles(root));
        JobSpec list = new JobSpecValidator(RenderFixtures.bundledCatalog(), WorkerFixtures.LIMITS).validate(
                new JobRequest(WorkerFixtures.WORLD, TMS.id(), new JobRequest.Zoom(0, MAX_ZOOM), null, "png",
                        Mode.TRUNCATE.id(), null, null, null, null, null, TextNode.valueOf("3/4/2\n2/0/3\n")));
        Set<String> listed = new TreeSet<>();
        List<MetatileTask> tasks = WorkerFixtures.tasks("job-list", list);
        for (MetatileTask task : tasks) {
            task.tilesToStore().forEach(tile -> listed.add("world/" + TMS.id() + "/" + tile + ".png"));
        }
        // z0 1, z1 2, z2 2 (2/0/3 and 2/2/1), z3 1 + 4 (3/4/2 and the children of 2/0/3)
        assertThat(listed).hasSize(10);
        assertThat(MetatilePlan.of(list).tileCount()).isEqualTo(10);

        TileCounts truncate = WorkerFixtures.runAll(processor, tasks).total();

        Set<String> expected = new TreeSet<>(before);
        expected.removeAll(listed);
        // The metatiles the list touches are no longer done; the others still are.
        Set<String> unmarked = new TreeSet<>();
        tasks.forEach(task -> unmarked.addAll(markerFiles(task)));
        assertThat(unmarked).hasSize(2 * 5);
        assertThat(before).containsAll(unmarked.stream().filter(f -> f.contains("-skip/")).toList());
        expected.removeAll(unmarked);
        assertThat(new TreeSet<>(Folders.regularFiles(root))).isEqualTo(expected);
        assertThat(truncate.deleted()).isEqualTo(listed.stream().filter(before::contains).count());
        assertThat(expected).as("markers of the metatiles the list leaves alone").anyMatch(f -> f.contains("/done/"));
    }

    @Test
    void aJobOverPartOfAMetatileNeitherMarksItNorIsFooledByAnother() throws Exception {
        JobSpec list = new JobSpecValidator(RenderFixtures.bundledCatalog(), WorkerFixtures.LIMITS).validate(
                new JobRequest(WorkerFixtures.WORLD, TMS.id(), new JobRequest.Zoom(3, 3), null, "png",
                        Mode.SEED.id(), null, null, null, null, null, TextNode.valueOf("3/4/2\n")));
        TileCounts part = WorkerFixtures.runAll(processor, WorkerFixtures.tasks("job-part", list)).total();

        assertThat(part.written()).isEqualTo(1);
        assertThat(Folders.regularFiles(root)).containsExactly("world/" + TMS.id() + "/3/4/2.png");

        TileCounts whole = run(Mode.SEED, null);
        assertThat(whole.skipped()).as("the tile the list stored").isEqualTo(1);
        assertThat(Folders.regularFiles(root).stream().filter(f -> f.contains("/done/")))
                .as("markers once every metatile is seeded whole").hasSize(METATILES);
    }

    @Test
    void aTruncatedMetatileIsRenderedAgainByTheNextSeed() throws Exception {
        TileCounts first = run(Mode.SEED, null);
        run(Mode.TRUNCATE, null);

        TileCounts again = run(Mode.SEED, null);

        assertThat(again.written()).isEqualTo(first.written());
        assertThat(again.empty()).isEqualTo(first.empty());
        assertThat(again.skipped()).isZero();
    }

    @Test
    void aTileDeletedByHandComesBackOnceItsMarkerIsDeletedToo() throws Exception {
        run(Mode.SEED, null);
        String tile = "world/" + TMS.id() + "/3/4/2.png";
        Files.delete(root.resolve(tile));

        assertThat(run(Mode.SEED, null).written()).as("written while the metatile is marked done").isZero();
        assertThat(root.resolve(tile)).doesNotExist();

        String marker = "world/" + TMS.id() + "/done/png-4x4-skip/3/1/0";
        Files.delete(root.resolve(marker));
        TileCounts repaired = run(Mode.SEED, null);

        assertThat(repaired.written()).isEqualTo(1);
        assertThat(root.resolve(tile)).exists();
        assertThat(root.resolve(marker)).exists();
    }

    @Test
    void aReseedMarksTheMetatilesThatHaveNoMarkerAndRewritesNoOther() throws Exception {
        run(Mode.SEED, null);
        String marker = "world/" + TMS.id() + "/done/png-4x4-skip/3/1/0";
        Files.delete(root.resolve(marker));
        backdateAll();

        run(Mode.RESEED, null);

        assertThat(root.resolve(marker)).exists();
        assertThat(mtimes()).as("mtimes after reseed").allSatisfy((file, time) -> {
            if (!file.equals(marker)) {
                assertThat(time).as(file).isEqualTo(LONG_AGO);
            }
        });
    }

    @Test
    void noMarkerIsWrittenWhenTheTilesCouldNotBe() throws Exception {
        TileStore files = new FileTileStore(root);
        AtomicInteger failures = new AtomicInteger(1);
        TileStore failingOnce = new ForwardingTileStore(files) {
            @Override
            public void write(Collection<EncodedTile> tiles) throws IOException {
                if (failures.getAndDecrement() > 0) {
                    throw new IOException("disk full");
                }
                super.write(tiles);
            }
        };
        MetatileProcessor failing = processorOver(failingOnce);
        MetatileTask task = WorkerFixtures.tasks("job-seed", WorkerFixtures.worldSpec(TMS, 2, 2, Mode.SEED, null))
                .getFirst();

        assertThatThrownBy(() -> failing.process(task)).hasMessageContaining("disk full");
        assertThat(Folders.regularFiles(root)).as("files after the failed write").isEmpty();

        TileCounts retried = failing.process(task).orElseThrow();
        assertThat(retried.written()).isPositive();
        assertThat(Folders.regularFiles(root)).contains("world/" + TMS.id() + "/done/png-4x4-skip/2/0/0");
    }

    @Test
    void markersNameTheFormatTheMetatileSizeAndTheEmptyTilePolicy() {
        MetatileTask task = WorkerFixtures.tasks("job-seed", WorkerFixtures.worldSpec(TMS, 3, 3, Mode.SEED, null))
                .stream().filter(t -> t.metatileX() == 1 && t.metatileY() == 0).findFirst().orElseThrow();
        assertThat(DoneMetatiles.marker(task, EmptyTilePolicy.SKIP)).isEqualTo("done/png-4x4-skip/3/1/0");
        assertThat(DoneMetatiles.markers(task)).containsExactlyInAnyOrder("done/png-4x4-skip/3/1/0",
                "done/png-4x4-store/3/1/0");
        MetatileTask jpeg = new MetatileTask(task.v(), task.jobId(), task.seq(), task.layer(), task.tileMatrixSet(),
                TileFormat.JPEG, task.mode(), task.z(), task.metatileX(), task.metatileY(), 2, 2, 2, 0, 3, 1,
                null, null, null);
        assertThat(DoneMetatiles.marker(jpeg, EmptyTilePolicy.STORE)).isEqualTo("done/jpeg-2x2-store/3/1/0");
        assertThat(DoneMetatiles.coversMetatile(task)).isTrue();
        assertThat(DoneMetatiles.coversMetatile(jpeg)).isTrue();
        MetatileTask part = new MetatileTask(task.v(), task.jobId(), task.seq(), task.layer(), task.tileMatrixSet(),
                task.format(), task.mode(), 3, 1, 0, 4, 4, 4, 0, 6, 3, null, null, null);
        assertThat(DoneMetatiles.coversMetatile(part)).as("three columns of four").isFalse();
    }

    // ---- helpers --------------------------------------------------------------------------------------------

    private TileCounts run(Mode mode, Instant refreshBefore) throws Exception {
        return run(processor, mode, refreshBefore);
    }

    private static TileCounts run(MetatileProcessor processor, Mode mode, Instant refreshBefore) throws Exception {
        var spec = WorkerFixtures.worldSpec(TMS, 0, MAX_ZOOM, mode, refreshBefore);
        return WorkerFixtures.runAll(processor, WorkerFixtures.tasks("job-" + mode.id() + "-" + JOBS.incrementAndGet(),
                spec)).total();
    }

    private static MetatileProcessor processorOver(TileStore store) {
        return new MetatileProcessor(RenderFixtures.bundledResources(), store, new MapLock(), LOCK_WAIT,
                WorkerMetrics.unregistered());
    }

    private static List<String> markerFiles(MetatileTask task) {
        return DoneMetatiles.markers(task).stream().map(name -> "world/" + TMS.id() + "/" + name).toList();
    }

    /** Counts what a seed looks up: zooms, done markers, and tiles. */
    private static final class Lookups extends ForwardingTileStore {
        final AtomicInteger zooms = new AtomicInteger();
        final AtomicInteger markers = new AtomicInteger();
        final AtomicInteger tiles = new AtomicInteger();

        Lookups(TileStore delegate) {
            super(delegate);
        }

        @Override
        public boolean hasTiles(TileCache cache, int z) throws IOException {
            zooms.incrementAndGet();
            return super.hasTiles(cache, z);
        }

        @Override
        public boolean hasMetadata(TileCache cache, String name) throws IOException {
            markers.incrementAndGet();
            return super.hasMetadata(cache, name);
        }

        @Override
        public Map<TileKey, Instant> lastModified(Collection<TileKey> keys) throws IOException {
            tiles.addAndGet(keys.size());
            return super.lastModified(keys);
        }
    }

    private void backdateAll() throws IOException {
        for (String file : Folders.regularFiles(root)) {
            Files.setLastModifiedTime(root.resolve(file), LONG_AGO);
        }
    }

    private Map<String, FileTime> mtimes() throws IOException {
        Map<String, FileTime> times = new TreeMap<>();
        for (String file : Folders.regularFiles(root)) {
            times.put(file, Files.getLastModifiedTime(root.resolve(file)));
        }
        assertThat(times).isNotEmpty();
        return times;
    }

    private Map<String, byte[]> contents() throws IOException {
        Map<String, byte[]> contents = new TreeMap<>();
        for (String file : Folders.regularFiles(root)) {
            contents.put(file, Files.readAllBytes(root.resolve(file)));
        }
        return contents;
    }

    private static void assertSameContents(Map<String, byte[]> before, Map<String, byte[]> after) {
        assertThat(after.keySet()).isEqualTo(before.keySet());
        before.forEach((file, bytes) -> assertThat(Arrays.equals(after.get(file), bytes)).as(file).isTrue());
    }
}
