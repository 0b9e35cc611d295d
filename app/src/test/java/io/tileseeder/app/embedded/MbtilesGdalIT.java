package io.tileseeder.app.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.app.Embedded;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.InvalidJobException;
import io.tileseeder.job.JobStatus;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.server.Engine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The world seeded into an MBTiles file ({@code seeder.store.path} ending in {@code .mbtiles}): its {@code tiles}
 * view holds exactly the tiles the same job writes to a folder, byte for byte, and GDAL's MBTiles driver reads the
 * file's zoom 3 as exactly those tiles' pixels, transparent where empty tiles were skipped. Jobs a file of one cache
 * cannot hold are refused when submitted.
 */
class MbtilesGdalIT {

    private static final int ZOOM = 3;

    @TempDir
    Path root;

    @Test
    @Timeout(180)
    void gdalReadsTheFileAsTheTilesAFolderSeedWrites() throws Exception {
        Path folder = root.resolve("folder");
        Path file = root.resolve("world.mbtiles");
        EmbeddedJobs.succeed(Map.of("seeder.store.path", folder.toString()),
                EmbeddedJobs.zooms("world", "WebMercatorQuad", ZOOM, null));
        JobStatus done = EmbeddedJobs.succeed(Map.of("seeder.store.path", file.toString()),
                EmbeddedJobs.zooms("world", "WebMercatorQuad", ZOOM, null));

        Path cache = folder.resolve("world/WebMercatorQuad");
        long tiles;
        try (Stream<Path> pngs = Files.walk(cache)) {
            tiles = pngs.filter(p -> p.toString().endsWith(".png")).count();
        }
        assertThat(done.counts().written()).isEqualTo(tiles);
        try (Connection sql = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            assertThat(count(sql, "SELECT count(*) FROM tiles")).isEqualTo(tiles);
            for (int z = 0; z <= ZOOM; z++) {
                for (int x = 0; x < 1 << z; x++) {
                    for (int y = 0; y < 1 << z; y++) {
                        Path png = cache.resolve(z + "/" + x + "/" + y + ".png");
                        byte[] stored = tile(sql, z, x, y);
                        if (Files.exists(png)) {
                            assertThat(stored).as("%d/%d/%d", z, x, y).isEqualTo(Files.readAllBytes(png));
                        } else {
                            assertThat(stored).as("%d/%d/%d, empty", z, x, y).isNull();
                        }
                    }
                }
            }
            assertThat(count(sql, "SELECT count(*) FROM metadata WHERE name IN ('name', 'format', 'bounds', "
                    + "'minzoom', 'maxzoom')")).isEqualTo(5);
        }
        assertThat(GdalWmts.run(root, "gdalinfo", file.toString())).contains("Driver: MBTiles/MBTiles")
                .contains("Size is 2048, 2048");
        GdalWmts.assertReadsTheStoredTiles(root, file.toString(), TileMatrixSet.WEB_MERCATOR_QUAD, ZOOM, (x, y) -> {
            Path png = cache.resolve(ZOOM + "/" + x + "/" + y + ".png");
            return Files.exists(png) ? ImageIO.read(png.toFile()) : null;
        });
    }

    @Test
    void jobsAFileOfOneCacheCannotHoldAreRefusedWhenSubmitted() throws Exception {
        Path file = root.resolve("world.mbtiles");
        EmbeddedJobs.succeed(Map.of("seeder.store.path", file.toString()),
                EmbeddedJobs.zooms("world", "WebMercatorQuad", 1, null));
        try (Engine engine = Embedded.engine(Settings.from(Settings.config(Map.of("seeder.store.path",
                file.toString()))))) {
            assertThatThrownBy(() -> engine.jobs().submit(EmbeddedJobs.zooms("world", "WorldCRS84Quad", 1, null),
                    null)).isInstanceOf(InvalidJobException.class).hasMessageContaining("tileMatrixSet")
                    .hasMessageContaining("WorldCRS84Quad: an MBTiles file holds WebMercatorQuad tiles");
            assertThatThrownBy(() -> engine.jobs().submit(EmbeddedJobs.zooms("world", "WebMercatorQuad", 1, "jpeg"),
                    null)).isInstanceOf(InvalidJobException.class)
                    .hasMessageContaining("world.mbtiles holds the layer world in png; an MBTiles file holds one "
                            + "layer in one format");
            assertThatThrownBy(() -> engine.jobs().submit(EmbeddedJobs.zooms("world", "WebMercatorQuad", 1,
                    "jpeg-png"), null)).isInstanceOf(InvalidJobException.class)
                    .hasMessageContaining("jpeg-png mixes two image types");
        }
    }

    private static long count(Connection sql, String query) throws SQLException {
        try (PreparedStatement select = sql.prepareStatement(query); ResultSet row = select.executeQuery()) {
            row.next();
            return row.getLong(1);
        }
    }

    /** The tile's bytes from the {@code tiles} view, its row in TMS order as MBTiles has it; null if absent. */
    private static byte[] tile(Connection sql, int z, int x, int y) throws SQLException {
        try (PreparedStatement select = sql.prepareStatement("SELECT tile_data FROM tiles WHERE zoom_level = ? "
                + "AND tile_column = ? AND tile_row = ?")) {
            select.setInt(1, z);
            select.setInt(2, x);
            select.setInt(3, (1 << z) - 1 - y);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getBytes(1) : null;
            }
        }
    }
}
