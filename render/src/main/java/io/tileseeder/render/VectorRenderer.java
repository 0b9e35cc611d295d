package io.tileseeder.render;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.Metatile;
import io.tileseeder.layer.StyleRule;
import java.awt.AlphaComposite;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.locationtech.jts.awt.PointTransformation;
import org.locationtech.jts.awt.ShapeWriter;
import org.locationtech.jts.geom.Geometry;

/**
 * Draws a metatile of a {@link VectorSource} with Java2D (the JDK's Marlin rasterizer), antialiased, into a
 * non-premultiplied ARGB raster of the metatile plus its gutter, over a transparent background.
 *
 * <p>A metatile whose bounds miss every feature's envelope is not drawn at all: on a world map that is most
 * of the ocean.
 *
 * <p>Each thread draws into its own raster, cleared and reused (see {@link Rasters}): a returned
 * {@link MetatileImage} is valid until the same thread renders again.
 */
public final class VectorRenderer {

    /** Vertices closer than this many pixels are merged while building shapes; invisible, and much faster. */
    private static final double DECIMATION_PX = 0.5;

    private VectorRenderer() {
    }

    /** The rendered raster, or empty if no feature comes near the metatile. */
    public static Optional<MetatileImage> render(VectorSource source, Metatile metatile, int gutter,
                                                 List<StyleRule> style) {
        List<StyleRule> rules = style.stream().filter(rule -> rule.appliesTo(metatile.z())).toList();
        Bounds bounds = metatile.bounds(gutter);
        List<Geometry> features = rules.isEmpty() ? List.of() : source.query(metatile.tileMatrixSet(), bounds);
        if (features.isEmpty()) {
            return Optional.empty();
        }
        double resolution = metatile.tileMatrixSet().resolution(metatile.z());
        PointTransformation toPixels = (coordinate, point) -> point.setLocation(
                (coordinate.x - bounds.minX()) / resolution, (bounds.maxY() - coordinate.y) / resolution);
        ShapeWriter writer = new ShapeWriter(toPixels);
        writer.setDecimation(DECIMATION_PX * resolution);
        Shape[] shapes = new Shape[features.size()];
        for (int i = 0; i < shapes.length; i++) {
            shapes[i] = writer.toShape(features.get(i));
        }

        BufferedImage image = clearedRaster(metatile.imageWidth(gutter), metatile.imageHeight(gutter));
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
            g.setComposite(AlphaComposite.SrcOver);
            for (StyleRule rule : rules) {
                if (rule.fill() != null) {
                    g.setColor(withOpacity(rule.fill(), rule.opacity()));
                    for (Shape shape : shapes) {
                        g.fill(shape);
                    }
                }
                if (rule.stroke() != null && rule.strokeWidth() > 0) {
                    g.setColor(withOpacity(rule.stroke(), rule.opacity()));
                    g.setStroke(new BasicStroke(rule.strokeWidth(), BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
                    for (Shape shape : shapes) {
                        g.draw(shape);
                    }
                }
            }
        } finally {
            g.dispose();
        }
        return Optional.of(new MetatileImage(metatile, gutter, image));
    }

    private static BufferedImage clearedRaster(int width, int height) {
        BufferedImage image = Rasters.reusable(width, height);
        Arrays.fill(((DataBufferInt) image.getRaster().getDataBuffer()).getData(), 0);
        return image;
    }

    private static Color withOpacity(Color color, float opacity) {
        return opacity >= 1f ? color
                : new Color(color.getRed(), color.getGreen(), color.getBlue(), Math.round(color.getAlpha() * opacity));
    }
}
