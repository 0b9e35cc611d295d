package io.tileseeder.render;

import java.awt.image.BufferedImage;

/**
 * One ARGB raster per thread, reused for every metatile of the same size: a 4×4 metatile with its gutter is
 * 4.4 MB, which the G1 collector would otherwise allocate as a "humongous" object each time. So an image from
 * here is valid until the same thread asks again; the worker encodes a metatile's tiles before that.
 */
final class Rasters {

    private static final ThreadLocal<BufferedImage> RASTER = new ThreadLocal<>();

    private Rasters() {
    }

    /** This thread's raster of that size; its pixels are whatever the last metatile left there. */
    static BufferedImage reusable(int width, int height) {
        BufferedImage image = RASTER.get();
        if (image == null || image.getWidth() != width || image.getHeight() != height) {
            image = new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
            RASTER.set(image);
        }
        return image;
    }
}
