package io.tileseeder.bench;

import io.tileseeder.worker.render.TileView;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A stand-in for a rendered metatile until the worker's renderer can be used here: a map-like picture drawn with
 * Java2D (an antialiased land layer over a transparent sea, with fractal coastlines, islands, lakes, parks and
 * roads) on a {@value #METATILE}-pixel square metatile with a {@value #GUTTER}-pixel gutter, cut into
 * {@value #TILES_PER_SIDE}x{@value #TILES_PER_SIDE} tiles of {@value #TILE} pixels as views without copying.
 *
 * <p>Deterministic: the same seed draws the same picture.
 */
public final class MapMetatileFixture {

    public static final int TILE = 256;
    public static final int TILES_PER_SIDE = 4;
    public static final int TILE_COUNT = TILES_PER_SIDE * TILES_PER_SIDE;
    public static final int GUTTER = 16;
    public static final int METATILE = TILE * TILES_PER_SIDE;
    public static final int SIZE = METATILE + 2 * GUTTER;

    private static final Color LAND = new Color(0xF2EFE9);
    private static final Color COAST = new Color(0xB5AFA3);
    private static final Color PARK = new Color(0xC8E6B0);
    private static final Color PARK_EDGE = new Color(0x9CC489);
    private static final Color LAKE = new Color(0xAAD3DF);
    private static final Color LAKE_EDGE = new Color(0x86B4C4);
    private static final Color ROAD = new Color(0xFFFFFF);
    private static final Color ROAD_CASING = new Color(0xC9C1B4);
    private static final Color MAJOR_ROAD = new Color(0xF7D08A);
    private static final Color MAJOR_CASING = new Color(0xD0A45C);

    private final BufferedImage image;
    private final List<TileView> tiles;
    private final List<BufferedImage> subimages;

    public MapMetatileFixture(long seed) {
        image = draw(seed);
        int[] pixels = ((DataBufferInt) image.getRaster().getDataBuffer()).getData();
        List<TileView> views = new ArrayList<>(TILE_COUNT);
        List<BufferedImage> subs = new ArrayList<>(TILE_COUNT);
        for (int ty = 0; ty < TILES_PER_SIDE; ty++) {
            for (int tx = 0; tx < TILES_PER_SIDE; tx++) {
                int x = GUTTER + tx * TILE;
                int y = GUTTER + ty * TILE;
                views.add(new TileView(pixels, y * SIZE + x, SIZE, TILE, TILE));
                subs.add(image.getSubimage(x, y, TILE, TILE));
            }
        }
        tiles = List.copyOf(views);
        subimages = List.copyOf(subs);
    }

    /** The whole metatile, gutter included ({@code TYPE_INT_ARGB}). */
    public BufferedImage metatile() {
        return image;
    }

    /** The tiles, row by row, as views into the metatile's pixels. */
    public List<TileView> tiles() {
        return tiles;
    }

    /** The same tiles as {@link BufferedImage#getSubimage} views (sharing the metatile's raster). */
    public List<BufferedImage> subimages() {
        return subimages;
    }

    private static BufferedImage draw(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        BufferedImage img = new BufferedImage(SIZE, SIZE, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
            BasicStroke border = new BasicStroke(1f);

            // A continent reaching in from the south-west, its coast running diagonally across the metatile.
            Path2D continent = coastline(random, new double[][] {
                    {-40, 260}, {300, 330}, {520, 560}, {760, 640}, {1100, 980}, {1100, 1100}, {-40, 1100}}, 7, 0.28);
            fillWithBorder(g, continent, LAND, COAST, border);
            // Islands off the coast.
            for (int i = 0; i < 7; i++) {
                double cx = 350 + random.nextDouble() * 650;
                double cy = 40 + random.nextDouble() * 420;
                double r = 12 + random.nextDouble() * (i == 0 ? 110 : 45);
                fillWithBorder(g, blob(random, cx, cy, r), LAND, COAST, border);
            }
            // Parks and lakes on the continent.
            for (int i = 0; i < 6; i++) {
                double cx = 60 + random.nextDouble() * 500;
                double cy = 650 + random.nextDouble() * 380;
                fillWithBorder(g, blob(random, cx, cy, 20 + random.nextDouble() * 50), PARK, PARK_EDGE, border);
            }
            for (int i = 0; i < 4; i++) {
                double cx = 80 + random.nextDouble() * 420;
                double cy = 620 + random.nextDouble() * 400;
                fillWithBorder(g, blob(random, cx, cy, 10 + random.nextDouble() * 35), LAKE, LAKE_EDGE, border);
            }
            // Roads: minor ones first, then two major ones, each as a casing and a fill.
            g.setClip(continent);
            for (int i = 0; i < 14; i++) {
                Path2D road = road(random, random.nextDouble() * SIZE, 500 + random.nextDouble() * 600);
                stroke(g, road, ROAD_CASING, 5f);
                stroke(g, road, ROAD, 3f);
            }
            for (int i = 0; i < 2; i++) {
                Path2D road = road(random, 100 + random.nextDouble() * 400, SIZE);
                stroke(g, road, MAJOR_CASING, 9f);
                stroke(g, road, MAJOR_ROAD, 6.5f);
            }
        } finally {
            g.dispose();
        }
        return img;
    }

    private static void fillWithBorder(Graphics2D g, Path2D shape, Color fill, Color edge, BasicStroke border) {
        g.setColor(fill);
        g.fill(shape);
        g.setColor(edge);
        g.setStroke(border);
        g.draw(shape);
    }

    private static void stroke(Graphics2D g, Path2D path, Color colour, float width) {
        g.setColor(colour);
        g.setStroke(new BasicStroke(width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.draw(path);
    }

    /** A closed polygon through the given corners whose edges are roughened by midpoint displacement. */
    private static Path2D coastline(SplittableRandom random, double[][] corners, int depth, double roughness) {
        List<double[]> points = new ArrayList<>();
        for (int i = 0; i < corners.length; i++) {
            double[] a = corners[i];
            double[] b = corners[(i + 1) % corners.length];
            displace(random, a, b, depth, roughness, points);
        }
        return polygon(points);
    }

    /** Adds a and the displaced points between a and b (not b) to {@code out}. */
    private static void displace(SplittableRandom random, double[] a, double[] b, int depth, double roughness,
                                 List<double[]> out) {
        if (depth == 0) {
            out.add(a);
            return;
        }
        double dx = b[0] - a[0];
        double dy = b[1] - a[1];
        double offset = (random.nextDouble() * 2 - 1) * roughness;
        double[] mid = {(a[0] + b[0]) / 2 - dy * offset, (a[1] + b[1]) / 2 + dx * offset};
        displace(random, a, mid, depth - 1, roughness, out);
        displace(random, mid, b, depth - 1, roughness, out);
    }

    /** An irregular roundish shape, e.g. an island, park or lake. */
    private static Path2D blob(SplittableRandom random, double cx, double cy, double r) {
        int n = 6 + random.nextInt(4);
        double[][] corners = new double[n][];
        for (int i = 0; i < n; i++) {
            double angle = 2 * Math.PI * i / n;
            double radius = r * (0.65 + 0.7 * random.nextDouble());
            corners[i] = new double[] {cx + radius * Math.cos(angle), cy + radius * Math.sin(angle)};
        }
        return coastline(random, corners, 4, 0.22);
    }

    /** A wandering polyline from the top or left edge across the metatile. */
    private static Path2D road(SplittableRandom random, double start, double length) {
        boolean fromTop = random.nextBoolean();
        double x = fromTop ? start : 0;
        double y = fromTop ? 0 : start;
        double heading = fromTop ? Math.PI / 2 : 0;
        Path2D path = new Path2D.Double();
        path.moveTo(x, y);
        for (double travelled = 0; travelled < length; travelled += 12) {
            heading += (random.nextDouble() - 0.5) * 0.35;
            x += 12 * Math.cos(heading);
            y += 12 * Math.sin(heading);
            path.lineTo(x, y);
        }
        return path;
    }

    private static Path2D polygon(List<double[]> points) {
        Path2D path = new Path2D.Double(Path2D.WIND_NON_ZERO, points.size() + 1);
        path.moveTo(points.get(0)[0], points.get(0)[1]);
        for (int i = 1; i < points.size(); i++) {
            path.lineTo(points.get(i)[0], points.get(i)[1]);
        }
        path.closePath();
        return path;
    }
}
