package io.tileseeder.render.tile;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.Crs;
import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.TileCoord;
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
import java.awt.image.DataBufferInt;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import okhttp3.HttpUrl;

/**
 * A {@code tile} layer's metatiles, drawn from an upstream tile server's tiles in the upstream's grid
 * ({@link TileSourceConfig#grid}, by default the metatile's own tile matrix set). For a metatile it takes the upstream
 * level whose pixels are the coarsest still at least as fine as the metatile's: level {@code z} for tiles of the
 * set's own size, {@code z-1} for tiles twice as large (512 px for 256); then within the upstream's levels (past its
 * last, that level's tiles are enlarged). The upstream tiles covering the metatile and its gutter are fetched one after
 * the other (the tasks of a worker run side by side, within the per-upstream limit of its client) and laid side by
 * side.
 *
 * <p>In the same CRS, where their pixels fall on the metatile's exactly (same pixel size, whole-pixel offsets), they
 * are copied unchanged, so a tile of the same grid comes out pixel for pixel, and is also kept as the upstream's bytes
 * ({@link MetatileImage#upstream}) so where it is in the cache's format it is stored byte for byte; else they are
 * drawn scaled with the layer's resampling (Java2D's nearest or bilinear interpolation, which samples: a reduction by
 * more than half skips upstream pixels rather than averaging them).
 *
 * <p>In another CRS the mosaic is warped: each pixel's centre is carried into the upstream's CRS (through CRS84) and
 * sampled there, nearest or bilinear (over premultiplied alpha, so transparent pixels do not darken their
 * neighbours). The exact transformation is computed every {@value #WARP_STEP} pixels and interpolated linearly between,
 * except in the cells where that strays more than {@value #MAX_ERROR} of an upstream pixel from it (GDAL's warper's
 * approximation and threshold), whose pixels are transformed one by one; pixels that have no place in the upstream's CRS (beyond
 * Web Mercator's ±85.05°) are transparent. The upstream level is the one whose pixels are at least as fine as the
 * metatile's area, as carried into the upstream's CRS and cut to its grid's extent, over its pixels (the geometric
 * mean of the two axes'), so the mosaic has about as many pixels as the metatile.
 */
public final class TileSource implements MetatileSource {

    /**
     * Pixels of upstream tiles one metatile may need beyond four times its own: what its gutter and a tile server of
     * another size need, where a level far finer than the metatile's (a {@code zoom.min} past it) is refused.
     */
    private static final long MOSAIC_MARGIN = 4L << 20;
    /** The pixels between two exactly transformed points of a warp. */
    static final int WARP_STEP = 16;
    /** The largest error of the warp's interpolated transformation, in upstream pixels (GDAL's warper's default). */
    static final double MAX_ERROR = 0.125;
    /** Points along each side of a metatile carried into the upstream's CRS to find the area it needs. */
    private static final int EDGE_POINTS = 32;

    private final TileSourceConfig config;
    private final WmsClient client;

    public TileSource(TileSourceConfig config, WmsClient client) {
        this.config = config;
        this.client = client;
    }

    /** The upstream's grid for metatiles of {@code tms}. */
    private TileMatrixSet grid(TileMatrixSet tms) {
        return config.grid() == null ? tms : config.grid();
    }

    /** The coarsest upstream level of {@code grid} whose pixels are at most {@code resolution}, within its levels. */
    private int level(TileMatrixSet grid, double resolution) {
        int deepest = Math.min(config.maxZoom(), grid.maxZoom());
        int level = Math.min(config.minZoom(), deepest);
        while (level < deepest && grid.matrix(level).tileSpanX() / config.tileSize() > resolution * (1 + 1e-9)) {
            level++;
        }
        return level;
    }

    @Override
    public Optional<MetatileImage> render(Metatile metatile, int gutter, DimensionValues dimensions)
            throws IOException, InterruptedException {
        TileMatrixSet tms = metatile.tileMatrixSet();
        TileMatrixSet grid = grid(tms);
        Crs from = tms.referenceSystem();
        Crs to = grid.referenceSystem();
        Bounds area = metatile.bounds(gutter);
        if (from.equals(to)) {
            int level = level(grid, tms.resolution(metatile.z()));
            boolean sameGrid = grid.equals(tms) && level == metatile.z() && config.tileSize() == tms.tileSize(level);
            Mosaic mosaic = mosaic(metatile, gutter, grid, level, area, dimensions, sameGrid);
            return mosaic == null ? Optional.empty() : Optional.of(place(metatile, gutter, mosaic));
        }
        BufferedImage raster = MetatileImage.raster(metatile, gutter);
        Warp warp = new Warp(from, to, area, raster.getWidth(), raster.getHeight());
        Bounds upstreamArea = warp.upstreamArea(grid.crsBounds());
        if (upstreamArea == null) {
            return Optional.empty();
        }
        double resolution = Math.sqrt(upstreamArea.width() / raster.getWidth()
                * (upstreamArea.height() / raster.getHeight()));
        int level = level(grid, resolution);
        Mosaic mosaic = mosaic(metatile, gutter, grid, level, upstreamArea, dimensions, false);
        if (mosaic == null) {
            return Optional.empty();
        }
        warp.refine(Math.min(mosaic.pixelX(), mosaic.pixelY()));
        warp.draw(mosaic, raster, config.resampling());
        return Optional.of(new MetatileImage(metatile, gutter, raster));
    }

    /**
     * The upstream tiles of {@code level} covering {@code area} (in the grid's CRS), laid side by side; null when
     * there are none, or the upstream has none there.
     *
     * @param keep whether the tiles' bytes are kept ({@link Mosaic#upstream}): for a grid the metatile's own
     */
    private Mosaic mosaic(Metatile metatile, int gutter, TileMatrixSet grid, int level, Bounds area,
                          DimensionValues dimensions, boolean keep) throws IOException, InterruptedException {
        TileMatrix matrix = grid.matrix(level);
        double spanX = matrix.tileSpanX();
        double spanY = matrix.tileSpanY();
        int minColumn = Math.max(0, (int) Math.floor((area.minX() - matrix.left() + spanX * 1e-9) / spanX));
        int maxColumn = Math.min(matrix.matrixWidth() - 1, (int) Math.ceil((area.maxX() - matrix.left()
                - spanX * 1e-9) / spanX) - 1);
        int minRow = Math.max(0, (int) Math.floor((matrix.top() - area.maxY() + spanY * 1e-9) / spanY));
        int maxRow = Math.min(matrix.matrixHeight() - 1, (int) Math.ceil((matrix.top() - area.minY()
                - spanY * 1e-9) / spanY) - 1);
        if (minColumn > maxColumn || minRow > maxRow) {
            return null;
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
        Map<TileCoord, byte[]> upstream = new HashMap<>();
        BufferedImage image = null;
        for (int row = minRow; row <= maxRow; row++) {
            for (int column = minColumn; column <= maxColumn; column++) {
                String address = config.url(level, column, row, matrix.matrixHeight(), dimensions);
                HttpUrl url = HttpUrl.parse(address);
                if (url == null) {
                    throw new IOException("tile server " + config.upstream() + ": not an http(s) URL: " + address);
                }
                Optional<WmsClient.UpstreamTile> tile = client.getTile(config, url, size);
                if (tile.isPresent()) {
                    if (image == null) {
                        image = new BufferedImage((maxColumn - minColumn + 1) * size, (maxRow - minRow + 1) * size,
                                BufferedImage.TYPE_INT_ARGB);
                    }
                    draw(image, tile.get().image(), (column - minColumn) * size, (row - minRow) * size);
                    TileCoord coord = new TileCoord(level, column, row);
                    if (keep && metatile.tiles().contains(coord)) {
                        upstream.put(coord, tile.get().bytes());
                    }
                }
            }
        }
        return image == null ? null : new Mosaic(image, matrix.left() + minColumn * spanX,
                matrix.top() - minRow * spanY, spanX / size, spanY / size, upstream);
    }

    /**
     * Upstream tiles laid side by side: the image, its top-left corner and pixel size in the upstream's CRS, and the
     * bytes of those that are tiles of the metatile.
     */
    private record Mosaic(BufferedImage image, double left, double top, double pixelX, double pixelY,
                          Map<TileCoord, byte[]> upstream) {
    }

    /** The mosaic drawn on the metatile's raster, in the same CRS: copied where it can be, else scaled. */
    private MetatileImage place(Metatile metatile, int gutter, Mosaic mosaic) {
        Bounds area = metatile.bounds(gutter);
        double resolution = metatile.tileMatrixSet().resolution(metatile.z());
        BufferedImage raster = MetatileImage.raster(metatile, gutter);
        Graphics2D g = raster.createGraphics();
        try {
            g.setComposite(AlphaComposite.Clear);
            g.fillRect(0, 0, raster.getWidth(), raster.getHeight());
            g.setComposite(AlphaComposite.Src);
            double offsetX = (mosaic.left() - area.minX()) / resolution;
            double offsetY = (area.maxY() - mosaic.top()) / resolution;
            if (Math.abs(mosaic.pixelX() - resolution) <= resolution * 1e-9
                    && Math.abs(mosaic.pixelY() - resolution) <= resolution * 1e-9 && whole(offsetX)
                    && whole(offsetY)) {
                g.drawImage(mosaic.image(), (int) Math.round(offsetX), (int) Math.round(offsetY), null);
            } else {
                g.setRenderingHint(RenderingHints.KEY_INTERPOLATION,
                        config.resampling() == TileSourceConfig.Resampling.NEAREST
                                ? RenderingHints.VALUE_INTERPOLATION_NEAREST_NEIGHBOR
                                : RenderingHints.VALUE_INTERPOLATION_BILINEAR);
                AffineTransform place = new AffineTransform();
                place.translate(offsetX, offsetY);
                place.scale(mosaic.pixelX() / resolution, mosaic.pixelY() / resolution);
                g.drawImage(mosaic.image(), place, null);
            }
        } finally {
            g.dispose();
        }
        return new MetatileImage(metatile, gutter, raster, mosaic.upstream());
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

    /**
     * A raster of {@code width × height} pixels over {@code area} in CRS {@code from}, carried into CRS {@code to}:
     * the exact transformation of every {@link #WARP_STEP}-th pixel centre (and the last), NaN where it has none.
     */
    static final class Warp {

        private final int width;
        private final int height;
        private final int columns;
        private final int rows;
        private final double[] xs;
        private final double[] ys;
        private final Crs from;
        private final Crs to;
        private final Bounds area;
        /** Per cell between grid points, whether its pixels are transformed one by one; null until refined. */
        private boolean[] exactCells;

        Warp(Crs from, Crs to, Bounds area, int width, int height) {
            this.from = from;
            this.to = to;
            this.area = area;
            this.width = width;
            this.height = height;
            this.columns = (width - 1) / WARP_STEP + 2;
            this.rows = (height - 1) / WARP_STEP + 2;
            this.xs = new double[columns * rows];
            this.ys = new double[columns * rows];
            for (int row = 0; row < rows; row++) {
                for (int column = 0; column < columns; column++) {
                    double[] point = carry(Math.min(column * WARP_STEP, width - 1) + 0.5,
                            Math.min(row * WARP_STEP, height - 1) + 0.5);
                    xs[row * columns + column] = point[0];
                    ys[row * columns + column] = point[1];
                }
            }
        }

        /** Pixel position {@code (px, py)} of the raster (from its top-left corner) in CRS {@code to}. */
        private double[] carry(double px, double py) {
            double x = area.minX() + px * area.width() / width;
            double y = area.maxY() - py * area.height() / height;
            double[] lonLat = from.toCrs84(x, y);
            return Double.isNaN(lonLat[0]) ? lonLat : to.fromCrs84(lonLat[0], lonLat[1]);
        }

        /**
         * The area in CRS {@code to} the raster's edges and grid points reach, within {@code extent}; null when none
         * has a place there.
         */
        Bounds upstreamArea(Bounds extent) {
            double minX = Double.POSITIVE_INFINITY;
            double minY = Double.POSITIVE_INFINITY;
            double maxX = Double.NEGATIVE_INFINITY;
            double maxY = Double.NEGATIVE_INFINITY;
            double[] pointsX = new double[4 * EDGE_POINTS + xs.length];
            double[] pointsY = new double[pointsX.length];
            for (int i = 0; i < 4 * EDGE_POINTS; i++) {
                double t = (double) (i % EDGE_POINTS) / EDGE_POINTS;
                double[] point = switch (i / EDGE_POINTS) {
                    case 0 -> carry(t * width, 0);
                    case 1 -> carry(width, t * height);
                    case 2 -> carry(width - t * width, height);
                    default -> carry(0, height - t * height);
                };
                pointsX[i] = point[0];
                pointsY[i] = point[1];
            }
            System.arraycopy(xs, 0, pointsX, 4 * EDGE_POINTS, xs.length);
            System.arraycopy(ys, 0, pointsY, 4 * EDGE_POINTS, ys.length);
            for (int i = 0; i < pointsX.length; i++) {
                if (!Double.isNaN(pointsX[i])) {
                    minX = Math.min(minX, Math.max(pointsX[i], extent.minX()));
                    minY = Math.min(minY, Math.max(pointsY[i], extent.minY()));
                    maxX = Math.max(maxX, Math.min(pointsX[i], extent.maxX()));
                    maxY = Math.max(maxY, Math.min(pointsY[i], extent.maxY()));
                }
            }
            return minX >= maxX || minY >= maxY ? null : new Bounds(minX, minY, maxX, maxY);
        }

        /**
         * Samples the mosaic at each raster pixel's place in CRS {@code to}, the place interpolated between the four
         * grid points around it (transparent where one of them has no place).
         */
        void draw(Mosaic mosaic, BufferedImage raster, TileSourceConfig.Resampling resampling) {
            int[] out = ((DataBufferInt) raster.getRaster().getDataBuffer()).getData();
            BufferedImage source = mosaic.image();
            int[] in = ((DataBufferInt) source.getRaster().getDataBuffer()).getData();
            int sourceWidth = source.getWidth();
            int sourceHeight = source.getHeight();
            double[] place = new double[2];
            for (int py = 0; py < height; py++) {
                for (int px = 0; px < width; px++) {
                    int argb = 0;
                    if (place(px, py, place)) {
                        double sx = (place[0] - mosaic.left()) / mosaic.pixelX() - 0.5;
                        double sy = (mosaic.top() - place[1]) / mosaic.pixelY() - 0.5;
                        argb = resampling == TileSourceConfig.Resampling.NEAREST
                                ? nearest(in, sourceWidth, sourceHeight, sx, sy)
                                : bilinear(in, sourceWidth, sourceHeight, sx, sy);
                    }
                    out[py * width + px] = argb;
                }
            }
        }

        /**
         * The centre of pixel {@code (px, py)} in CRS {@code to}, interpolated between the grid points around it, into
         * {@code place}; false when one of them has no place there.
         */
        boolean place(int px, int py, double[] place) {
            int row = py / WARP_STEP;
            int column = px / WARP_STEP;
            if (exactCells != null && exactCells[row * columns + column]) {
                double[] exact = carry(px + 0.5, py + 0.5);
                place[0] = exact[0];
                place[1] = exact[1];
                return !Double.isNaN(place[0]);
            }
            double fy = fraction(py, row, height);
            double fx = fraction(px, column, width);
            int i00 = row * columns + column;
            place[0] = lerp(xs[i00], xs[i00 + 1], xs[i00 + columns], xs[i00 + columns + 1], fx, fy);
            place[1] = lerp(ys[i00], ys[i00 + 1], ys[i00 + columns], ys[i00 + columns + 1], fx, fy);
            return !Double.isNaN(place[0]) && !Double.isNaN(place[1]);
        }

        /**
         * Marks the cells between grid points where linear interpolation strays more than {@link #MAX_ERROR} of a
         * {@code pixel} (the upstream's, in CRS {@code to}) from the exact place at the cell's centre or the middle of
         * one of its sides, or where a corner has no place: their pixels are then transformed one by one.
         */
        void refine(double pixel) {
            exactCells = new boolean[columns * rows];
            double[] place = new double[2];
            int[][] probes = {{WARP_STEP / 2, WARP_STEP / 2}, {WARP_STEP / 2, 0}, {0, WARP_STEP / 2}};
            for (int row = 0; row < rows - 1; row++) {
                for (int column = 0; column < columns - 1; column++) {
                    int i00 = row * columns + column;
                    boolean exact = Double.isNaN(xs[i00]) || Double.isNaN(xs[i00 + 1])
                            || Double.isNaN(xs[i00 + columns]) || Double.isNaN(xs[i00 + columns + 1]);
                    for (int p = 0; p < probes.length && !exact; p++) {
                        int px = Math.min(column * WARP_STEP + probes[p][0], width - 1);
                        int py = Math.min(row * WARP_STEP + probes[p][1], height - 1);
                        double[] truth = carry(px + 0.5, py + 0.5);
                        exact = !place(px, py, place) || Double.isNaN(truth[0])
                                || Math.hypot(place[0] - truth[0], place[1] - truth[1]) > MAX_ERROR * pixel;
                    }
                    exactCells[i00] = exact;
                }
            }
        }

        /** The centre of pixel {@code (px, py)} in CRS {@code to}, transformed exactly. */
        double[] exact(int px, int py) {
            return carry(px + 0.5, py + 0.5);
        }

        /** Where pixel {@code p} lies between grid point {@code cell} and the next (the last pixel, if nearer). */
        private static double fraction(int p, int cell, int size) {
            int span = Math.min((cell + 1) * WARP_STEP, size - 1) - cell * WARP_STEP;
            return span == 0 ? 0 : (p - cell * WARP_STEP) / (double) span;
        }

        private static double lerp(double a, double b, double c, double d, double fx, double fy) {
            return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy;
        }

        private static int nearest(int[] in, int width, int height, double sx, double sy) {
            int x = (int) Math.floor(sx + 0.5);
            int y = (int) Math.floor(sy + 0.5);
            return x < 0 || y < 0 || x >= width || y >= height ? 0 : in[y * width + x];
        }

        /** Bilinear over premultiplied alpha; pixels outside the mosaic are transparent. */
        private static int bilinear(int[] in, int width, int height, double sx, double sy) {
            if (sx < -1 || sy < -1 || sx >= width || sy >= height) {
                return 0;
            }
            int x0 = (int) Math.floor(sx);
            int y0 = (int) Math.floor(sy);
            double fx = sx - x0;
            double fy = sy - y0;
            double a = 0;
            double r = 0;
            double g = 0;
            double b = 0;
            for (int k = 0; k < 4; k++) {
                int x = x0 + (k & 1);
                int y = y0 + (k >> 1);
                double weight = ((k & 1) == 0 ? 1 - fx : fx) * ((k >> 1) == 0 ? 1 - fy : fy);
                if (weight == 0 || x < 0 || y < 0 || x >= width || y >= height) {
                    continue;
                }
                int pixel = in[y * width + x];
                double alpha = (pixel >>> 24) * weight;
                a += alpha;
                r += (pixel >> 16 & 0xff) * alpha;
                g += (pixel >> 8 & 0xff) * alpha;
                b += (pixel & 0xff) * alpha;
            }
            int alpha = (int) Math.round(a);
            if (alpha == 0) {
                return 0;
            }
            return alpha << 24 | channel(r / a) << 16 | channel(g / a) << 8 | channel(b / a);
        }

        private static int channel(double value) {
            return (int) Math.max(0, Math.min(255, Math.round(value)));
        }
    }
}
