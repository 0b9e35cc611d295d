package io.tileseeder.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.job.TileFormat;
import io.tileseeder.layer.LayerCatalogFile;
import io.tileseeder.layer.LayerConfig;
import io.tileseeder.render.encode.PngEncoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LayerResourcesTest {

    @TempDir
    Path dir;

    @Test
    void aLayersDataIsReadOnceForAllThreads() throws Exception {
        Files.writeString(dir.resolve("box.geojson"), RenderFixtures.rectangleGeoJson(0, 0, 1, 1));
        LayerResources resources = RenderFixtures.resources(LayerCatalogFile.read(RenderFixtures.writeCatalog(dir,
                RenderFixtures.catalogYaml(RenderFixtures.layerYaml("box", "box.geojson", "skip")))));
        LayerConfig box = resources.layer("box");
        CountDownLatch go = new CountDownLatch(1);
        List<Future<MetatileSource>> loads = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(8)) {
            for (int i = 0; i < 8; i++) {
                loads.add(threads.submit(() -> {
                    go.await();
                    return resources.source(box);
                }));
            }
            go.countDown();
            MetatileSource first = loads.getFirst().get(10, TimeUnit.SECONDS);
            for (Future<MetatileSource> load : loads) {
                assertThat(load.get(10, TimeUnit.SECONDS)).isSameAs(first);
            }
        }
    }

    @Test
    void encodersFollowTheLayersSettings() {
        LayerResources resources = RenderFixtures.bundledResources();
        LayerConfig world = resources.layer("world");

        PngEncoder png = (PngEncoder) resources.encoder(world, TileFormat.PNG);

        assertThat(png.hasAlpha()).isTrue();
        assertThat(png.level()).isEqualTo(world.pngLevel());
        assertThat(resources.encoder(world, TileFormat.PNG)).isSameAs(png);
        assertThat(resources.encoder(world, TileFormat.JPEG).contentType()).isEqualTo("image/jpeg");
    }

    @Test
    void anUnknownLayerIsNamed() {
        assertThatThrownBy(() -> RenderFixtures.bundledResources().layer("roads"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'roads'");
    }
}
