package io.tileseeder.worker.task;

import static io.tileseeder.worker.task.WorkerFixtures.LOCK_WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.adapters.file.Folders;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.Mode;
import io.tileseeder.layer.LayerCatalogConfig;
import io.tileseeder.layer.LayerCatalogFile;
import io.tileseeder.message.MetatileTask;
import io.tileseeder.render.RenderFixtures;
import io.tileseeder.worker.task.WorkerFixtures.MapLock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A layer whose data cannot be read fails its tasks with the file's name and leaves nothing in the store. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BrokenLayerTest {

    @TempDir
    Path dir;

    private Path config;
    private Path tiles;
    private MapLock lock;

    @BeforeEach
    void setUp() throws IOException {
        config = Files.createDirectories(dir.resolve("config"));
        tiles = dir.resolve("tiles");
        lock = new MapLock();
    }

    @Test
    void aMissingDataFileFailsTheTaskNamingTheFile() throws Exception {
        MetatileProcessor processor = processorFor("countries.geojson");
        List<MetatileTask> tasks = tasks(processor);

        for (MetatileTask task : tasks) {
            assertThatThrownBy(() -> processor.process(task))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(config.resolve("countries.geojson").toString());
            assertThat(lock.isHeld(task.metatileKey())).as("lock of %s after the failure", task.metatileKey())
                    .isFalse();
        }
        assertNothingStored();
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {"", "not json at all", "{\"hello\": \"world\"}", "[1, 2, 3]", "null",
            "{\"type\": \"FeatureCollection\", \"features\": [", "{\"type\": \"Nope\"}", "\u0000\u0001\u00ff PNG"})
    void aDataFileThatIsNotGeoJsonFailsTheTaskNamingTheFile(String content) throws Exception {
        Files.writeString(config.resolve("bad.geojson"), content, StandardCharsets.UTF_8);
        MetatileProcessor processor = processorFor("bad.geojson");
        MetatileTask task = tasks(processor).getFirst();

        assertThatThrownBy(() -> processor.process(task))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(config.resolve("bad.geojson").toString());
        assertThat(lock.isHeld(task.metatileKey())).isFalse();
        assertNothingStored();
    }

    @Test
    void aDataFileThatIsNotTextFailsTheTaskNamingTheFile() throws Exception {
        Files.write(config.resolve("binary.geojson"), new byte[] {(byte) 0x89, 'P', 'N', 'G', (byte) 0xff, (byte) 0xfe});
        MetatileProcessor processor = processorFor("binary.geojson");

        assertThatThrownBy(() -> processor.process(tasks(processor).getFirst()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(config.resolve("binary.geojson").toString());
        assertNothingStored();
    }

    @Test
    void aFolderWhereTheDataFileShouldBeFailsTheTaskNamingIt() throws Exception {
        Files.createDirectories(config.resolve("folder.geojson"));
        MetatileProcessor processor = processorFor("folder.geojson");

        assertThatThrownBy(() -> processor.process(tasks(processor).getFirst()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(config.resolve("folder.geojson").toString());
        assertNothingStored();
    }

    @Test
    void theNextTaskTriesTheDataAgainOnceItIsFixed() throws Exception {
        MetatileProcessor processor = processorFor("later.geojson");
        MetatileTask task = tasks(processor).getFirst();
        assertThatThrownBy(() -> processor.process(task)).isInstanceOf(IOException.class);

        Files.writeString(config.resolve("later.geojson"), RenderFixtures.rectangleGeoJson(-10, -10, 10, 10));

        assertThat(processor.process(task)).hasValueSatisfying(counts -> assertThat(counts.written()).isEqualTo(1));
        assertThat(Folders.tiles(tiles)).containsExactly("broken/WebMercatorQuad/0/0/0.png");
    }

    private MetatileProcessor processorFor(String data) throws IOException {
        LayerCatalogConfig catalog = LayerCatalogFile.read(RenderFixtures.writeCatalog(config,
                RenderFixtures.catalogYaml(RenderFixtures.layerYaml("broken", data, "skip"))));
        return new MetatileProcessor(RenderFixtures.resources(catalog), new FileTileStore(tiles), lock, LOCK_WAIT,
                WorkerMetrics.unregistered());
    }

    /** z0–2 of the layer: three metatiles. */
    private List<MetatileTask> tasks(MetatileProcessor processor) throws IOException {
        LayerCatalogConfig catalog = LayerCatalogFile.read(config.resolve("layers.yaml"));
        return WorkerFixtures.tasks("job-broken",
                WorkerFixtures.spec(catalog, "broken", TileMatrixSet.WEB_MERCATOR_QUAD, 0, 2, Mode.SEED, null));
    }

    private void assertNothingStored() throws IOException {
        assertThat(Folders.regularFiles(tiles)).as("files in the store, .tmp included").isEmpty();
    }
}
