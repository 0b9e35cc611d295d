package io.tileseeder.app.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.TileMatrix;
import io.tileseeder.grid.TileMatrixSet;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;

/**
 * A seeded cache read by GDAL (Debian's gdal-bin, which dev/services installs with the WMS): through its WMTS
 * capabilities, or as an MBTiles file.
 */
final class GdalWmts {

    private GdalWmts() {
    }

    /**
     * GDAL's image of the set's extent at zoom {@code zoom}'s resolution, read through the capabilities, compared pixel
     * by pixel (every third) with the tiles in {@code cache} (the folder of the cache, {@code {z}/{x}/{y}.png} below
     * it): transparent where no tile is stored; the tiles of a ragged edge beyond the extent only where they overlap
     * it. {@code work} holds GDAL's output.
     */
    static void assertReadsTheStoredTiles(Path work, String capabilities, TileMatrixSet tms, int zoom, Path cache)
            throws Exception {
        assertReadsTheStoredTiles(work, "WMTS:" + capabilities, tms, zoom, (x, y) -> {
            Path file = cache.resolve(zoom + "/" + x + "/" + y + ".png");
            return Files.exists(file) ? ImageIO.read(file.toFile()) : null;
        });
    }

    /** A stored tile of the zoom compared, decoded; null where none is stored. */
    interface StoredTiles {
        BufferedImage tile(int x, int y) throws IOException;
    }

    /**
     * GDAL's image of what it opens as {@code source} (a {@code WMTS:} capabilities document, an MBTiles file), as
     * {@link #assertReadsTheStoredTiles(Path, String, TileMatrixSet, int, Path)} compares it with the stored tiles.
     */
    static void assertReadsTheStoredTiles(Path work, String source, TileMatrixSet tms, int zoom, StoredTiles stored)
            throws Exception {
        assertReadsTheStoredTiles(work, source, tms, zoom, stored, true);
    }

    /**
     * As {@link #assertReadsTheStoredTiles(Path, String, TileMatrixSet, int, StoredTiles)}; unless
     * {@code transparent}, only the colour of the pixels that are not fully transparent is compared: for a source GDAL
     * reads without alpha (a TMS TileMap, which it opens with three bands).
     */
    static void assertReadsTheStoredTiles(Path work, String source, TileMatrixSet tms, int zoom, StoredTiles stored,
                                          boolean transparent) throws Exception {
        TileMatrix matrix = tms.matrix(zoom);
        Bounds extent = tms.crsBounds();
        int width = (int) Math.round(extent.width() / matrix.cellSize());
        int height = (int) Math.round(extent.height() / matrix.cellSize());
        int offsetX = (int) Math.round((extent.minX() - matrix.left()) / matrix.cellSize());
        int offsetY = (int) Math.round((matrix.top() - extent.maxY()) / matrix.cellSize());
        Path out = Files.createTempFile(work, "gdal-z" + zoom + "-", ".png");
        run(work, "gdal_translate", "-q", "--config", "GDAL_ENABLE_WMS_CACHE", "NO", "-of", "PNG",
                "-outsize", Integer.toString(width), Integer.toString(height), source, out.toString());
        BufferedImage read = ImageIO.read(out.toFile());
        assertThat(read.getWidth()).isEqualTo(width);
        assertThat(read.getHeight()).isEqualTo(height);
        int tiles = 0;
        int size = matrix.tileWidth();
        for (int x = 0; x < matrix.matrixWidth(); x++) {
            for (int y = 0; y < matrix.matrixHeight(); y++) {
                BufferedImage tile = stored.tile(x, y);
                tiles += tile == null ? 0 : 1;
                for (int py = 0; py < size; py += 3) {
                    for (int px = 0; px < size; px += 3) {
                        int gx = x * size + px - offsetX;
                        int gy = y * size + py - offsetY;
                        if (gx < 0 || gy < 0 || gx >= width || gy >= height) {
                            continue;
                        }
                        int expected = tile == null ? 0 : tile.getRGB(px, py);
                        int got = read.getRGB(gx, gy);
                        if (expected >>> 24 == 0) {
                            if (transparent) {
                                assertThat(got >>> 24).as("alpha of tile %d/%d at %d,%d", x, y, px, py).isZero();
                            }
                        } else {
                            int bands = transparent ? 0xFFFFFFFF : 0xFFFFFF;
                            assertThat(Integer.toHexString(got & bands)).as("tile %d/%d at %d,%d", x, y, px, py)
                                    .isEqualTo(Integer.toHexString(expected & bands));
                        }
                    }
                }
            }
        }
        assertThat(tiles).as("tiles stored at zoom %d", zoom).isPositive()
                .isLessThanOrEqualTo(matrix.matrixWidth() * matrix.matrixHeight());
    }

    /** Runs a GDAL command in {@code work}; fails naming the command and its output unless it exits 0. */
    static String run(Path work, String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(command));
        Process process;
        try {
            process = new ProcessBuilder(line).directory(work.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IllegalStateException(command[0] + " is missing: run the tests with dev/test, whose "
                    + "`dev/services up --wms` installs Debian's gdal-bin", e);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as(String.join(" ", line)).isTrue();
        assertThat(process.exitValue()).as("%s\n%s", String.join(" ", line), output).isZero();
        return output;
    }
}
