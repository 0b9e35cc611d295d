package io.tileseeder.app.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.app.Embedded;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.InvalidJobException;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.server.Engine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The world seeded into one GeoPackage in two tile matrix sets (two pyramid tables), and into a folder: GDAL's GPKG
 * driver reads each table at its deepest zoom as exactly the folder's tiles' pixels, transparent where empty tiles
 * were skipped. Jobs a GeoPackage cannot hold are refused when submitted.
 */
class GeoPackageGdalIT {

    private static final int ZOOM = 3;

    @TempDir
    Path root;

    @Test
    @Timeout(240)
    void gdalReadsEachTableAsTheTilesAFolderSeedWrites() throws Exception {
        Path folder = root.resolve("folder");
        Path file = root.resolve("world.gpkg");
        for (String set : new String[] {"WebMercatorQuad", "WorldCRS84Quad"}) {
            int zoom = set.equals("WebMercatorQuad") ? ZOOM : ZOOM - 1;
            EmbeddedJobs.succeed(Map.of("seeder.store.path", folder.toString()),
                    EmbeddedJobs.zooms("world", set, zoom, null));
            EmbeddedJobs.succeed(Map.of("seeder.store.path", file.toString()),
                    EmbeddedJobs.zooms("world", set, zoom, null));
        }

        assertThat(GdalWmts.run(root, "gdalinfo", file.toString())).contains("Driver: GPKG/GeoPackage")
                .contains("SUBDATASET_1_NAME=GPKG:" + file + ":world_WebMercatorQuad")
                .contains("SUBDATASET_2_NAME=GPKG:" + file + ":world_WorldCRS84Quad");
        for (String set : new String[] {"WebMercatorQuad", "WorldCRS84Quad"}) {
            int zoom = set.equals("WebMercatorQuad") ? ZOOM : ZOOM - 1;
            Path cache = folder.resolve("world/" + set);
            GdalWmts.assertReadsTheStoredTiles(root, "GPKG:" + file + ":world_" + set,
                    TileMatrixSet.byId(set).orElseThrow(), zoom, (x, y) -> {
                        Path png = cache.resolve(zoom + "/" + x + "/" + y + ".png");
                        return Files.exists(png) ? ImageIO.read(png.toFile()) : null;
                    });
        }
    }

    @Test
    void jobsAGeoPackageCannotHoldAreRefusedWhenSubmitted() throws Exception {
        Path file = root.resolve("world.gpkg");
        EmbeddedJobs.succeed(Map.of("seeder.store.path", file.toString()),
                EmbeddedJobs.zooms("world", "WebMercatorQuad", 1, null));
        try (Engine engine = Embedded.engine(Settings.from(Settings.config(Map.of("seeder.store.path",
                file.toString()))))) {
            assertThatThrownBy(() -> engine.jobs().submit(EmbeddedJobs.zooms("world", "CanadianNAD83_LCC", 1, null),
                    null)).isInstanceOf(InvalidJobException.class).hasMessageContaining("tileMatrixSet")
                    .hasMessageContaining("covers another extent than zoom 0");
            assertThatThrownBy(() -> engine.jobs().submit(EmbeddedJobs.zooms("world", "WebMercatorQuad", 1, "jpeg"),
                    null)).isInstanceOf(InvalidJobException.class)
                    .hasMessageContaining("world.gpkg holds world in WebMercatorQuad as png (table "
                            + "world_WebMercatorQuad); a tile pyramid holds one format");
        }
    }
}
