package io.tileseeder.render.encode;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.layer.LayerCatalogFile;
import io.tileseeder.layer.LayerConfig;
import io.tileseeder.layer.VectorSourceConfig;
import io.tileseeder.render.MetatileImage;
import io.tileseeder.render.TileView;
import io.tileseeder.render.VectorRenderer;
import io.tileseeder.render.VectorSource;
import java.awt.image.BufferedImage;
import java.awt.image.IndexColorModel;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/**
 * {@code png8}: the error bound {@link Quantizer} documents, checked pixel by pixel on tiles the bundled world layer
 * renders and on noise, and the lossless path it keeps for tiles of at most 256 colours.
 */
class Png8Test {

    /** The bound on rendered map tiles: the PSNR of every tile, premultiplied RGBA, in dB (measured: 63.0). */
    static final double MIN_TILE_PSNR = 55;
    /** The bound on a smooth gradient of 65,536 colours, imagery's worst case (measured: 37.0). */
    static final double MIN_GRADIENT_PSNR = 35;

    private static final PngEncoder PNG8 = PngEncoder.png8(1);
    private static final List<TileView> WORLD_TILES = worldTiles();

    /** The tiles of dense metatiles of the world layer: Europe's and Africa's borders, and a whole low zoom. */
    static List<TileView> worldTiles() {
        List<TileView> tiles = new ArrayList<>();
        LayerConfig world = LayerCatalogFile.bundled().layer("world").orElseThrow();
        VectorSourceConfig source = (VectorSourceConfig) world.source();
        VectorSource data;
        try {
            data = VectorSource.load(source.data());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        MetatileSize size = new MetatileSize(4, 4);
        List<Metatile> metatiles = List.of(
                new Metatile(TileMatrixSet.WEB_MERCATOR_QUAD, 5, 4, 2, size),
                new Metatile(TileMatrixSet.WEB_MERCATOR_QUAD, 2, 0, 0, size),
                new Metatile(TileMatrixSet.WEB_MERCATOR_QUAD, 6, 8, 7, size),
                new Metatile(TileMatrixSet.WEB_MERCATOR_QUAD, 6, 12, 7, size),
                new Metatile(TileMatrixSet.WORLD_CRS84_QUAD, 4, 4, 1, size));
        for (Metatile metatile : metatiles) {
            MetatileImage image = VectorRenderer.render(data, metatile, world.gutter(), source.style()).orElseThrow();
            for (TileCoord tile : metatile.tiles()) {
                tiles.add(image.tile(tile));
            }
        }
        return List.copyOf(tiles);
    }

    @Test
    void renderedTilesOfMoreThan256ColoursKeepTheBound() throws IOException {
        int quantised = 0;
        double worst = Double.POSITIVE_INFINITY;
        for (TileView tile : WORLD_TILES) {
            if (colours(tile) <= Palette.MAX) {
                continue;
            }
            quantised++;
            double psnr = assertQuantised(tile, PNG8.encode(tile));
            worst = Math.min(worst, psnr);
        }
        assertThat(quantised).as("rendered tiles of more than 256 colours").isGreaterThanOrEqualTo(20);
        assertThat(worst).as("the worst tile's PSNR, dB").isGreaterThanOrEqualTo(MIN_TILE_PSNR);
    }

    @Test
    void aSmoothGradientOfEveryColourKeepsItsBound() throws IOException {
        int[] pixels = new int[256 * 256];
        for (int y = 0; y < 256; y++) {
            for (int x = 0; x < 256; x++) {
                pixels[y * 256 + x] = 0xFF000000 | x << 16 | y << 8 | (x + y) / 2;
            }
        }
        TileView tile = new TileView(pixels, 0, 256, 256, 256);
        assertThat(assertQuantised(tile, PNG8.encode(tile))).isGreaterThanOrEqualTo(MIN_GRADIENT_PSNR);
    }

    @Test
    void noiseOfEveryAlphaKeepsTheClassesAndTheNearestColour() throws IOException {
        SplittableRandom random = new SplittableRandom(7);
        int[] pixels = new int[300 * 280];
        for (int i = 0; i < pixels.length; i++) {
            int a = switch (random.nextInt(4)) {
                case 0 -> 0;
                case 1 -> 255;
                default -> random.nextInt(256);
            };
            pixels[i] = a << 24 | random.nextInt(1 << 24);
        }
        TileView tile = new TileView(pixels, 300 * 10 + 20, 300, 256, 256);
        assertQuantised(tile, PNG8.encode(tile));
    }

    @Test
    void aTileOfAtMost256ColoursIsWrittenAsLosslessPngWritesIt() {
        int indexedAndLossless = 0;
        PngEncoder png = PngEncoder.rgba(1);
        for (TileView tile : WORLD_TILES) {
            if (colours(tile) <= Palette.MAX) {
                assertThat(PNG8.encode(tile)).isEqualTo(png.encode(tile));
                indexedAndLossless++;
            }
        }
        assertThat(indexedAndLossless).isPositive();
    }

    @Test
    void transparentPixelsOfManyColoursBecomeOneTransparentBlack() throws IOException {
        int[] pixels = new int[256 * 256];
        for (int i = 0; i < pixels.length; i++) {
            pixels[i] = i * 37 & 0xFFFFFF;
        }
        BufferedImage decoded = decode(PNG8.encode(new TileView(pixels, 0, 256, 256, 256)));
        IndexColorModel palette = (IndexColorModel) decoded.getColorModel();
        assertThat(palette.getMapSize()).isLessThanOrEqualTo(2);
        assertThat(palette.getPixelSize()).isEqualTo(1);
        for (int y = 0; y < 256; y++) {
            for (int x = 0; x < 256; x++) {
                assertThat(decoded.getRGB(x, y)).isZero();
            }
        }
    }

    @Test
    void quantisedTilesAreSmallerThanLosslessOnes() {
        long png8 = 0;
        long lossless = 0;
        PngEncoder png = PngEncoder.rgba(1);
        for (TileView tile : WORLD_TILES) {
            if (colours(tile) > Palette.MAX) {
                png8 += PNG8.encode(tile).length;
                lossless += png.encode(tile).length;
            }
        }
        assertThat(png8).isLessThan(lossless);
    }

    /**
     * Checks the promises of {@link Quantizer} for every pixel: an indexed image of at most 256 colours, the alpha
     * class kept, and the palette colour the nearest of its class; answers the tile's PSNR.
     */
    private static double assertQuantised(TileView tile, byte[] png) throws IOException {
        BufferedImage decoded = decode(png);
        assertThat(decoded.getColorModel()).isInstanceOf(IndexColorModel.class);
        IndexColorModel model = (IndexColorModel) decoded.getColorModel();
        int[] palette = new int[model.getMapSize()];
        model.getRGBs(palette);
        double squares = 0;
        for (int y = 0; y < tile.height(); y++) {
            for (int x = 0; x < tile.width(); x++) {
                int original = tile.argb(x, y);
                int written = palette[decoded.getRaster().getSample(x, y, 0)];
                assertThat(alphaClass(written)).as("alpha class at %d,%d", x, y).isEqualTo(alphaClass(original));
                int distance = distance(original, written);
                for (int candidate : palette) {
                    if (alphaClass(candidate) == alphaClass(original)) {
                        assertThat(distance(original, candidate)).as("a nearer colour at %d,%d", x, y)
                                .isGreaterThanOrEqualTo(distance);
                    }
                }
                squares += distance;
            }
        }
        double mse = squares / (4.0 * tile.width() * tile.height());
        return mse == 0 ? Double.POSITIVE_INFINITY : 10 * Math.log10(255.0 * 255.0 / mse);
    }

    private static int alphaClass(int argb) {
        int a = argb >>> 24;
        return a == 0 ? 0 : a == 255 ? 2 : 1;
    }

    /** Squared distance in premultiplied RGBA; a fully transparent pixel's colour counts for nothing. */
    private static int distance(int p, int q) {
        int ap = p >>> 24;
        int aq = q >>> 24;
        int d = (ap - aq) * (ap - aq);
        for (int shift = 0; shift <= 16; shift += 8) {
            int c = Quantizer.premultiply(p >>> shift & 0xFF, ap) - Quantizer.premultiply(q >>> shift & 0xFF, aq);
            d += c * c;
        }
        return d;
    }

    private static int colours(TileView tile) {
        Set<Integer> seen = new HashSet<>();
        for (int y = 0; y < tile.height(); y++) {
            for (int x = 0; x < tile.width(); x++) {
                seen.add(tile.argb(x, y));
            }
        }
        return seen.size();
    }

    private static BufferedImage decode(byte[] png) throws IOException {
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        assertThat(image).isNotNull();
        return image;
    }
}
