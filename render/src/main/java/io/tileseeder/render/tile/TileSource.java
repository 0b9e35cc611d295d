package io.tileseeder.render.tile;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.TileMatrix;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.layer.TileSourceConfig;
import io.tileseeder.render.MetatileImage;
import io.tileseeder.render.MetatileSource;
import io.tileseeder.render.wms.WmsClient;
import java.awt.AlphaComposite;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.util.Optional;
import okhttp3.HttpUrl;

/**
 * A {@code tile} layer's metatiles, drawn from an upstream tile server's tiles in the grid of the metatile's own tile
 * matrix set ({@link TileSourceConfig}). For a metatile of zoom {@code z} it takes the upstream level whose pixels are
 * the coarsest still at least as fine as the metatile's: level {@code z} for tiles of the set's own size, {@code z-1}
 * for tiles twice as large (512 px for 256); then within the upstream's levels (past its last, that level's tiles
 * are enlarged). The upstream tiles covering the metatile and its gutter are fetched one after the other (the tasks of
 * a worker run side by side, within the per-upstream limit of its client) and laid side by side; where their pixels
 * fall on the metatile's exactly (same pixel size, whole-pixel offsets), they are copied unchanged, so a tile of the
 * same grid comes out pixel for pixel; else they are drawn scaled with the layer's resampling (Java2D's nearest or
 * bilinear interpolation, which samples: a reduction by more than half skips upstream pixels rather than averaging
 * them).
 */
public final class TileSource implements MetatileSource {

    /**
     * Pixels of upstream tiles one metatile may need beyond four times its own: what its gutter and a tile server of
     * another size need, where a level far finer than the metatile's (a {@code zoom.min} past it) is refused.
     */
    private static final long MOSAIC_MARGIN = 4L << 20;

    private final TileSourceConfig config;
    private final WmsClient client;

    public TileSource(TileSourceConfig config, WmsClient client) {
        this.config = config;
        this.client = client;
    }

    /** The upstream level drawn for a metatile of zoom {@code z} of {@code tms}. */
    int level(TileMatrixSet tms, int z) {
        double resolution = tms.resolution(z);
        int deepest = Math.min(config.maxZoom(), tms.maxZoom());
        int level = Math.min(config.minZoom(), deepest);
        while (level < deepest && pixelSize(tms, level) > resolution * (1 + 1e-9)) {
            level++;
        }
        return level;
    }

    /** The size of an upstream pixel at {@code level}: the set's tile span there over the upstream's tile size. */
    private double pixelSize(TileMatrixSet tms, int level) {
        return tms.matrix(level).tileSpanX() / config.tileSize();
    }

    @Override
    public Optional<MetatileImage> render(Metatile metatile, int gutter, DimensionValues dimensions)
            throws IOException, InterruptedException {
        TileMatrixSet tms = metatile.tileMatrixSet();
        int level = level(tms, metatile.z());
        TileMatrix matrix = tms.matrix(level);
        double span = matrix.tileSpanX();
        Bounds area = metatile.bounds(gutter);
        double tolerance = span * 1e-9;
        int minColumn = Math.max(0, (int) Math.floor((area.minX() - matrix.left() + tolerance) / span));
        int maxColumn = Math.min(matrix.matrixWidth() - 1, (int) Math.ceil((area.maxX() - matrix.left() - tolerance)
                / span) - 1);
        int minRow = Math.max(0, (int) Math.floor((matrix.top() - area.maxY() + tolerance) / span));
        int maxRow = Math.min(matrix.matrixHeight() - 1, (int) Math.ceil((matrix.top() - area.minY() - tolerance)
                / span) - 1);
        if (minColumn > maxColumn || minRow > maxRow) {
            return Optional.empty();
        }
        int size = config.tileSize();
        long count = (long) (maxColumn - minColumn + 1) * (maxRow - minRow + 1);
        long allowed = 4L * metatile.imageWidth(gutter) * metatile.imageHeight(gutter) + MOSAIC_MARGIN;
        if (count * size * size > allowed) {
            throw new IOException("metatile " + metatile + " needs " + count + " tiles of " + size + " px of the tile "
                    + "server " + config.upstream() + " at its level " + level + ", more pixels than the " + allowed
                    + " a metatile this size may hold: the source's zoom.min (" + config.minZoom() + ") is too fine "
                    + "for zoom " + metatile.z() + ", or the metatile too large");
        }
        BufferedImage mosaic = null;
        for (int row = minRow; row <= maxRow; row++) {
            for (int column = minColumn; column <= maxColumn; column++) {
                HttpUrl url = HttpUrl.parse(config.url(level, column, row, matrix.matrixHeight(), dimensions));
                if (url == null) {
                    throw new IOException("tile server " + config.upstream() + ": not an http(s) URL: "
                            + config.url(level, column, row, matrix.matrixHeight(), dimensions));
                }
                Optional<BufferedImage> tile = client.getTile(config, url, size);
                if (tile.isPresent()) {
                    if (mosaic == null) {
                        mosaic = new BufferedImage((maxColumn - minColumn + 1) * size, (maxRow - minRow + 1) * size,
                                BufferedImage.TYPE_INT_ARGB);
                    }
                    draw(mosaic, tile.get(), (column - minColumn) * size, (row - minRow) * size);
                }
            }
        }
        if (mosaic == null) {
            return Optional.empty();
        }
        BufferedImage raster = MetatileImage.raster(metatile, gutter);
        double pixel = span / size;
        double resolution = tms.resolution(metatile.z());
        double left = matrix.left() + minColumn * span;
        double top = matrix.top() - minRow * span;
        Graphics2D g = raster.createGraphics();
        try {
            g.setComposite(AlphaComposite.Clear);
            g.fillRect(0, 0, raster.getWidth(), raster.getHeight());
            g.setComposite(AlphaComposite.Src);
            double offsetX = (left - area.minX()) / resolution;
            double offsetY = (area.maxY() - top) / resolution;
            if (Math.abs(pixel - resolution) <= resolution * 1e-9 && whole(offsetX) && whole(offsetY)) {
                g.drawImage(mosaic, (int) Math.round(offsetX), (int) Math.round(offsetY), null);
            } else {
                g.setRenderingHint(RenderingHints.KEY_INTERPOLATION,
                        config.resampling() == TileSourceConfig.Resampling.NEAREST
                                ? RenderingHints.VALUE_INTERPOLATION_NEAREST_NEIGHBOR
                                : RenderingHints.VALUE_INTERPOLATION_BILINEAR);
                AffineTransform place = new AffineTransform();
                place.translate(offsetX, offsetY);
                place.scale(pixel / resolution, pixel / resolution);
                g.drawImage(mosaic, place, null);
            }
        } finally {
            g.dispose();
        }
        return Optional.of(new MetatileImage(metatile, gutter, raster));
    }

    private static boolean whole(double value) {
        return Math.abs(value - Math.rint(value)) < 1e-6;
    }

    private static void draw(BufferedImage mosaic, BufferedImage tile, int x, int y) {
        Graphics2D g = mosaic.createGraphics();
        try {
            g.setComposite(AlphaComposite.Src);
            g.drawImage(tile, x, y, null);
        } finally {
            g.dispose();
        }
    }
}
