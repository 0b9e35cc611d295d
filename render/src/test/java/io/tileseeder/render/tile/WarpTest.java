package io.tileseeder.render.tile;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.Crs;
import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import org.junit.jupiter.api.Test;

/**
 * The warp's approximate transformation (exact every {@value TileSource#WARP_STEP} pixels, linear between) against
 * the exact one at every pixel, from WorldCRS84Quad metatiles into Web Mercator: within an eighth of a pixel of the
 * upstream level drawn (GDAL's warper's default error threshold) once refined, and no place beyond Web Mercator's
 * latitudes.
 */
class WarpTest {

    private static final Crs MERCATOR = TileMatrixSet.WEB_MERCATOR_QUAD.referenceSystem();

    @Test
    void theInterpolatedPlaceIsWithinAnEighthOfAnUpstreamPixelOfTheExactOne() {
        TileMatrixSet crs84 = TileMatrixSet.WORLD_CRS84_QUAD;
        int[][] metatiles = {{1, 0, 0}, {3, 3, 0}, {4, 4, 1}, {6, 16, 5}, {9, 128, 25}, {12, 1025, 250}};
        for (int[] zxy : metatiles) {
            Metatile metatile = new Metatile(crs84, zxy[0], zxy[1], zxy[2], new MetatileSize(4, 4));
            int width = metatile.imageWidth(16);
            int height = metatile.imageHeight(16);
            Bounds area = metatile.bounds(16);
            TileSource.Warp warp = new TileSource.Warp(crs84.referenceSystem(), MERCATOR, area, width, height);
            Bounds upstream = warp.upstreamArea(TileMatrixSet.WEB_MERCATOR_QUAD.crsBounds());
            assertThat(upstream).as("metatile %s reaches Web Mercator", metatile).isNotNull();
            double pixel = Math.sqrt(upstream.width() / width * (upstream.height() / height));
            warp.refine(pixel);
            double worst = 0;
            double[] place = new double[2];
            for (int py = 0; py < height; py++) {
                for (int px = 0; px < width; px++) {
                    double[] exact = warp.exact(px, py);
                    boolean placed = warp.place(px, py, place);
                    if (Double.isNaN(exact[0])) {
                        continue;
                    }
                    if (placed && Math.abs(exact[1]) < TileMatrixSet.WEB_MERCATOR_QUAD.crsBounds().maxY()) {
                        worst = Math.max(worst, Math.hypot(place[0] - exact[0], place[1] - exact[1]) / pixel);
                    }
                }
            }
            System.out.printf("metatile %s: worst interpolation error %.4f px%n", metatile, worst);
            assertThat(worst).as("metatile %s", metatile).isLessThanOrEqualTo(TileSource.MAX_ERROR);
        }
    }

    @Test
    void aPoleHasNoPlaceInWebMercator() {
        Bounds pole = new Bounds(-10, 89, 10, 90);
        TileSource.Warp warp = new TileSource.Warp(Crs.CRS84, MERCATOR, pole, 64, 64);
        double[] place = new double[2];
        assertThat(Double.isNaN(warp.exact(32, 0)[1])
                || warp.exact(32, 0)[1] > TileMatrixSet.WEB_MERCATOR_QUAD.crsBounds().maxY()).isTrue();
        assertThat(warp.upstreamArea(TileMatrixSet.WEB_MERCATOR_QUAD.crsBounds())).isNull();
    }
}
