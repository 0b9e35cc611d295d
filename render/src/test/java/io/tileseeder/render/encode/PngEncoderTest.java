package io.tileseeder.render.encode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.render.TileView;
import java.awt.image.BufferedImage;
import java.awt.image.IndexColorModel;
import java.awt.image.Raster;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PngEncoderTest {

    private static final byte[] SIGNATURE = {(byte) 137, 'P', 'N', 'G', '\r', '\n', 26, '\n'};

    // ---- fixtures: tiles as views at a nonzero offset into a larger raster, stride > width ----

    /** A raster of {@code rasterWidth x rasterHeight} filled with junk, and a view of it at (x0, y0). */
    private static TileView view(int rasterWidth, int rasterHeight, int x0, int y0, int width, int height,
                                 PixelSource source) {
        SplittableRandom junk = new SplittableRandom(99);
        int[] raster = new int[rasterWidth * rasterHeight];
        for (int i = 0; i < raster.length; i++) {
            raster[i] = junk.nextInt(); // whatever lies outside the view must not leak into the tile
        }
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                raster[(y0 + y) * rasterWidth + x0 + x] = source.argb(x, y);
            }
        }
        return new TileView(raster, y0 * rasterWidth + x0, rasterWidth, width, height);
    }

    private static TileView tile256(PixelSource source) {
        return view(256 + 2 * 16 + 7, 256 + 2 * 16 + 3, 16 + 5, 16 + 1, 256, 256, source);
    }

    interface PixelSource {
        int argb(int x, int y);
    }

    /** Semi-transparent gradients: every alpha value occurs, with colours that differ per channel. */
    static final PixelSource SEMI_TRANSPARENT = (x, y) -> ((x + y) & 0xFF) << 24 | (x & 0xFF) << 16
            | (y & 0xFF) << 8 | ((x * 7 + y * 3) & 0xFF);

    /** Fully transparent, but with colour left in the transparent pixels: a lossless encoder keeps it. */
    static final PixelSource TRANSPARENT_WITH_COLOUR = (x, y) -> 0x00000000 | ((x * 31 + y * 17) & 0xFFFFFF);

    static final PixelSource TRANSPARENT_ZERO = (x, y) -> 0;

    static final PixelSource OPAQUE_MAP = (x, y) -> {
        // land / water split along a wavy line, a 1px darker border and a road
        double coast = 128 + 40 * Math.sin(x / 17.0) + 9 * Math.sin(x / 3.1);
        if (Math.abs(y - coast) < 1) {
            return 0xFF6E8B5A;
        }
        if (y == 200 || x == 60) {
            return 0xFFF7D08A;
        }
        return y < coast ? 0xFFAAD3DF : 0xFFF2EFE9;
    };

    static PixelSource noise(long seed) {
        return (x, y) -> {
            long h = seed ^ (x * 0x9E3779B97F4A7C15L) ^ (y * 0xC2B2AE3D27D4EB4FL);
            h ^= h >>> 31;
            h *= 0xBF58476D1CE4E5B9L;
            h ^= h >>> 29;
            return (int) h;
        };
    }

    // ---- decoding helpers ----

    private static BufferedImage decode(byte[] png) throws IOException {
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        assertThat(image).as("ImageIO could not decode the PNG").isNotNull();
        return image;
    }

    /**
     * Compares pixels through the raster's samples (of an indexed image: the palette entry its sample names), so no
     * colour conversion can hide a difference.
     */
    private static void assertPixelsEqual(BufferedImage decoded, TileView tile, boolean alpha) {
        assertThat(decoded.getWidth()).isEqualTo(tile.width());
        assertThat(decoded.getHeight()).isEqualTo(tile.height());
        Raster raster = decoded.getRaster();
        IndexColorModel palette = decoded.getColorModel() instanceof IndexColorModel icm ? icm : null;
        if (palette == null) {
            assertThat(raster.getNumBands()).isEqualTo(alpha ? 4 : 3);
        }
        int[] px = new int[raster.getNumBands()];
        for (int y = 0; y < tile.height(); y++) {
            for (int x = 0; x < tile.width(); x++) {
                raster.getPixel(x, y, px);
                int got = palette != null ? palette.getAlpha(px[0]) << 24 | palette.getRed(px[0]) << 16
                        | palette.getGreen(px[0]) << 8 | palette.getBlue(px[0])
                        : (px[0] << 16) | (px[1] << 8) | px[2] | (alpha ? px[3] << 24 : 0xFF000000);
                int want = alpha ? tile.argb(x, y) : tile.argb(x, y) | 0xFF000000;
                if (got != want) {
                    throw new AssertionError(String.format(
                            "pixel (%d,%d): decoded %08X, expected %08X", x, y, got, want));
                }
            }
        }
    }

    /** The tile's distinct colours (as opaque, without alpha). */
    private static long colours(TileView tile, boolean alpha) {
        java.util.Set<Integer> colours = new java.util.HashSet<>();
        for (int y = 0; y < tile.height(); y++) {
            for (int x = 0; x < tile.width(); x++) {
                colours.add(alpha ? tile.argb(x, y) : tile.argb(x, y) | 0xFF000000);
            }
        }
        return colours.size();
    }

    record Chunk(String type, byte[] data, int storedCrc) {
    }

    /** Parses the file into chunks, checking the signature, lengths, every CRC and that nothing trails. */
    private static List<Chunk> chunks(byte[] png) {
        assertThat(Arrays.copyOf(png, 8)).as("PNG signature").isEqualTo(SIGNATURE);
        ByteBuffer in = ByteBuffer.wrap(png, 8, png.length - 8);
        List<Chunk> chunks = new ArrayList<>();
        while (in.hasRemaining()) {
            assertThat(in.remaining()).as("room for a chunk header").isGreaterThanOrEqualTo(12);
            int length = in.getInt();
            assertThat(length).isBetween(0, in.remaining() - 8);
            byte[] typeAndData = new byte[4 + length];
            in.get(typeAndData);
            int storedCrc = in.getInt();
            CRC32 crc = new CRC32();
            crc.update(typeAndData);
            String type = new String(typeAndData, 0, 4, StandardCharsets.US_ASCII);
            assertThat(storedCrc).as("CRC of chunk %d (%s)", chunks.size(), type).isEqualTo((int) crc.getValue());
            chunks.add(new Chunk(type, Arrays.copyOfRange(typeAndData, 4, typeAndData.length), storedCrc));
        }
        return chunks;
    }

    /** Checks IHDR, IDAT+, IEND and returns the concatenated IDAT data. */
    private static byte[] checkLayout(byte[] png, int width, int height, int colourType) {
        return checkLayout(png, width, height, 8, colourType, List.of());
    }

    /** Checks IHDR, then the chunks {@code before} (types), then IDAT+ and IEND; returns the concatenated IDAT data. */
    private static byte[] checkLayout(byte[] png, int width, int height, int bitDepth, int colourType,
                                      List<String> before) {
        List<Chunk> chunks = chunks(png);
        assertThat(chunks).hasSizeGreaterThanOrEqualTo(3 + before.size());
        assertThat(chunks.get(0).type()).isEqualTo("IHDR");
        ByteBuffer ihdr = ByteBuffer.wrap(chunks.get(0).data());
        assertThat(ihdr.remaining()).isEqualTo(13);
        assertThat(ihdr.getInt()).as("width").isEqualTo(width);
        assertThat(ihdr.getInt()).as("height").isEqualTo(height);
        assertThat(ihdr.get()).as("bit depth").isEqualTo((byte) bitDepth);
        assertThat(ihdr.get()).as("colour type").isEqualTo((byte) colourType);
        assertThat(ihdr.get()).as("compression method").isZero();
        assertThat(ihdr.get()).as("filter method").isZero();
        assertThat(ihdr.get()).as("interlace method").isZero();
        assertThat(chunks.subList(1, 1 + before.size())).extracting(Chunk::type).isEqualTo(before);

        Chunk last = chunks.get(chunks.size() - 1);
        assertThat(last.type()).isEqualTo("IEND");
        assertThat(last.data()).isEmpty();
        assertThat(last.storedCrc()).isEqualTo(0xAE426082);

        List<Chunk> middle = chunks.subList(1 + before.size(), chunks.size() - 1);
        assertThat(middle).allSatisfy(c -> assertThat(c.type()).isEqualTo("IDAT"));
        ByteArrayOutputStream idat = new ByteArrayOutputStream();
        middle.forEach(c -> idat.writeBytes(c.data()));
        return idat.toByteArray();
    }

    private static byte[] inflate(byte[] zlib) throws DataFormatException {
        Inflater inflater = new Inflater();
        inflater.setInput(zlib);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[64 * 1024];
        while (!inflater.finished()) {
            int n = inflater.inflate(buf);
            if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                throw new AssertionError("zlib stream in IDAT is truncated");
            }
            out.write(buf, 0, n);
        }
        assertThat(inflater.getRemaining()).as("bytes after the end of the zlib stream").isZero();
        inflater.end();
        return out.toByteArray();
    }

    /** The scanlines the encoder should have compressed: filter byte 0 then RGBA or RGB for each row. */
    private static byte[] expectedScanlines(TileView tile, boolean alpha) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int y = 0; y < tile.height(); y++) {
            out.write(0);
            for (int x = 0; x < tile.width(); x++) {
                int argb = tile.argb(x, y);
                out.write(argb >>> 16);
                out.write(argb >>> 8);
                out.write(argb);
                if (alpha) {
                    out.write(argb >>> 24);
                }
            }
        }
        return out.toByteArray();
    }

    /**
     * The tile encodes to what it should be: indexed at the fewest bits when it has at most 256 colours, with a tRNS
     * only for colours not opaque; else truecolour, its scanlines the pixels as they are. Either way every pixel
     * decodes as it was.
     */
    private static void assertRoundTrip(PngEncoder encoder, TileView tile) throws Exception {
        byte[] png = encoder.encode(tile);
        long colours = colours(tile, encoder.hasAlpha());
        if (colours <= 256) {
            int bits = colours <= 2 ? 1 : colours <= 4 ? 2 : colours <= 16 ? 4 : 8;
            List<Chunk> chunks = chunks(png);
            boolean trns = chunks.stream().anyMatch(c -> c.type().equals("tRNS"));
            byte[] idat = checkLayout(png, tile.width(), tile.height(), bits, 3,
                    trns ? List.of("PLTE", "tRNS") : List.of("PLTE"));
            assertThat(chunks.get(1).data()).as("PLTE").hasSize((int) (3 * colours));
            assertThat(inflate(idat)).as("scanlines: a filter byte and the packed indices")
                    .hasSize(tile.height() * (1 + (tile.width() * bits + 7) / 8));
        } else {
            byte[] idat = checkLayout(png, tile.width(), tile.height(), encoder.hasAlpha() ? 6 : 2);
            assertThat(inflate(idat)).as("decompressed scanlines, all with filter type None")
                    .isEqualTo(expectedScanlines(tile, encoder.hasAlpha()));
        }
        assertPixelsEqual(decode(png), tile, encoder.hasAlpha());
    }

    // ---- tests ----

    @Test
    void semiTransparentTileAtAnOffsetRoundTripsExactly() throws Exception {
        assertRoundTrip(new PngEncoder(6), tile256(SEMI_TRANSPARENT));
    }

    @Test
    void fullyTransparentTilesRoundTripExactly() throws Exception {
        assertRoundTrip(new PngEncoder(6), tile256(TRANSPARENT_ZERO));
        assertRoundTrip(new PngEncoder(6), tile256(TRANSPARENT_WITH_COLOUR));
    }

    @Test
    void opaqueMapTileRoundTripsExactly() throws Exception {
        assertRoundTrip(new PngEncoder(1), tile256(OPAQUE_MAP));
    }

    @Test
    void randomNoiseRoundTripsExactly() throws Exception {
        TileView tile = tile256(noise(7));
        byte[] png = new PngEncoder(6).encode(tile);
        assertThat(png.length).as("noise does not compress").isGreaterThan(256 * 256 * 4);
        assertRoundTrip(new PngEncoder(6), tile);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
    void everyLevelRoundTrips(int level) throws Exception {
        PngEncoder encoder = new PngEncoder(level);
        assertThat(encoder.level()).isEqualTo(level);
        assertRoundTrip(encoder, tile256(SEMI_TRANSPARENT));
        assertRoundTrip(encoder, tile256(noise(level)));
    }

    @Test
    void higherLevelsCompressMapTilesBetterThanStoring() {
        TileView tile = tile256(OPAQUE_MAP);
        int stored = new PngEncoder(0).encode(tile).length;
        int fast = new PngEncoder(1).encode(tile).length;
        int best = new PngEncoder(9).encode(tile).length;
        // four colours: 2 bits a pixel, stored as they are
        assertThat(stored).isGreaterThan(256 * (1 + 256 * 2 / 8));
        assertThat(fast).isLessThan(stored / 10);
        assertThat(best).isLessThanOrEqualTo(fast);
    }

    @Test
    void oddSizesAndTinyTilesRoundTrip() throws Exception {
        PngEncoder encoder = new PngEncoder(6);
        assertRoundTrip(encoder, view(50, 20, 3, 4, 37, 5, SEMI_TRANSPARENT));
        assertRoundTrip(encoder, view(4, 4, 3, 3, 1, 1, SEMI_TRANSPARENT));
        assertRoundTrip(encoder, view(3000, 3, 1, 1, 2999, 2, noise(3))); // wide rows: one row per block
        assertRoundTrip(encoder, view(3, 700, 0, 2, 1, 698, SEMI_TRANSPARENT)); // many rows per block
        // a view that is exactly its raster: offset 0, stride == width
        assertRoundTrip(encoder, view(256, 256, 0, 0, 256, 256, OPAQUE_MAP));
    }

    @Test
    void rgbVariantWritesColourTypeTwoAndDropsAlpha() throws Exception {
        PngEncoder rgb = PngEncoder.rgb(6);
        assertThat(rgb.hasAlpha()).isFalse();
        assertRoundTrip(rgb, tile256(OPAQUE_MAP));
        assertRoundTrip(rgb, tile256(noise(11)));
        assertRoundTrip(rgb, view(50, 20, 3, 4, 37, 5, SEMI_TRANSPARENT));
        // alpha dropped, not composited: the colour of a transparent pixel shows
        TileView hidden = view(10, 10, 1, 1, 2, 2, (x, y) -> 0x00123456);
        BufferedImage decoded = decode(rgb.encode(hidden));
        assertThat(decoded.getRGB(1, 1)).isEqualTo(0xFF123456);
    }

    @Test
    void aTileOfOneColourIsATinyOneBitImage() throws Exception {
        for (PixelSource one : List.of(TRANSPARENT_ZERO, (PixelSource) (x, y) -> 0xFFAAD3DF)) {
            byte[] png = PngEncoder.rgba(1).encode(tile256(one));
            assertThat(png.length).as("bytes of a one-colour tile").isLessThan(160);
            assertRoundTrip(PngEncoder.rgba(1), tile256(one));
        }
    }

    @Test
    void theFewestBitsThatHoldThePaletteAreUsedAndTruecolourBeyond256Colours() throws Exception {
        for (int colours : new int[] {2, 3, 4, 5, 16, 17, 200, 256, 257}) {
            PixelSource source = (x, y) -> 0xFF000000 | ((x + 256 * y) % colours) * 0x010203;
            TileView tile = tile256(source);
            byte[] png = PngEncoder.rgba(6).encode(tile);
            int bits = colours <= 2 ? 1 : colours <= 4 ? 2 : colours <= 16 ? 4 : 8;
            List<Chunk> chunks = chunks(png);
            ByteBuffer ihdr = ByteBuffer.wrap(chunks.get(0).data(), 8, 2);
            assertThat(new int[] {ihdr.get(), ihdr.get()}).as("bit depth and colour type of %d colours", colours)
                    .containsExactly(colours <= 256 ? new int[] {bits, 3} : new int[] {8, 6});
            assertRoundTrip(PngEncoder.rgba(6), tile);
            assertRoundTrip(PngEncoder.rgb(6), tile);
        }
    }

    @Test
    void coloursNotOpaqueComeFirstAndTheTrnsStopsAtTheLastOfThem() throws Exception {
        // Opaque land and water, then translucent and transparent pixels of two colours each.
        PixelSource source = (x, y) -> y < 100 ? (x < 128 ? 0xFFF2EFE9 : 0xFFAAD3DF)
                : y < 150 ? (x < 128 ? 0x80102030 : 0x00FFFFFF) : x < 128 ? 0x00000000 : 0xFF9A8C98;
        byte[] png = PngEncoder.rgba(6).encode(tile256(source));
        List<Chunk> chunks = chunks(png);
        assertThat(chunks).extracting(Chunk::type).startsWith("IHDR", "PLTE", "tRNS");
        assertThat(chunks.get(1).data()).hasSize(6 * 3);
        assertThat(chunks.get(2).data()).as("tRNS: the three colours not opaque")
                .containsExactly(0x80, 0x00, 0x00);
        assertRoundTrip(PngEncoder.rgba(6), tile256(source));
        // The same tile for an opaque layer: no tRNS, and the two transparent colours stay two.
        assertThat(chunks(PngEncoder.rgb(6).encode(tile256(source)))).extracting(Chunk::type)
                .containsExactly("IHDR", "PLTE", "IDAT", "IEND");
        assertRoundTrip(PngEncoder.rgb(6), tile256(source));
    }

    @Test
    void rgbaOutputHasAlphaAndIsLargerThanRgbForOpaqueTiles() {
        TileView tile = tile256(noise(5));
        assertThat(PngEncoder.rgba(1).hasAlpha()).isTrue();
        assertThat(PngEncoder.rgba(1).encode(tile).length).isGreaterThan(PngEncoder.rgb(1).encode(tile).length);
    }

    @Test
    void largeOutputIsSplitIntoSeveralIdatChunks() throws Exception {
        PngEncoder encoder = new PngEncoder(1, true, 1000);
        TileView tile = tile256(noise(1));
        byte[] png = encoder.encode(tile);
        List<Chunk> chunks = chunks(png);
        long idats = chunks.stream().filter(c -> c.type().equals("IDAT")).count();
        assertThat(idats).isGreaterThan(250);
        assertThat(chunks).filteredOn(c -> c.type().equals("IDAT"))
                .allSatisfy(c -> assertThat(c.data().length).isLessThanOrEqualTo(1000));
        assertRoundTrip(encoder, tile);
        assertRoundTrip(encoder, tile256(OPAQUE_MAP));
        // the default encoder uses one IDAT for a tile
        assertThat(chunks(new PngEncoder(1).encode(tile)).stream().filter(c -> c.type().equals("IDAT")))
                .hasSize(1);
    }

    @Test
    void reusedStateDoesNotLeakBetweenTiles() throws Exception {
        PngEncoder encoder = new PngEncoder(6);
        TileView small = view(50, 20, 3, 4, 37, 5, SEMI_TRANSPARENT);
        byte[] first = encoder.encode(small);
        encoder.encode(tile256(noise(2))); // grows every buffer
        encoder.encode(view(3000, 3, 1, 1, 2999, 2, noise(3)));
        byte[] again = encoder.encode(small);
        assertThat(again).isEqualTo(first);
        assertThat(new PngEncoder(6).encode(small)).isEqualTo(first);
        assertRoundTrip(encoder, small);
    }

    @Test
    void encodesConcurrentlyWithTheSameResultAsOneThread() throws Exception {
        PngEncoder encoder = new PngEncoder(1);
        List<TileView> tiles = List.of(tile256(SEMI_TRANSPARENT), tile256(OPAQUE_MAP), tile256(noise(4)),
                view(50, 20, 3, 4, 37, 5, SEMI_TRANSPARENT), tile256(TRANSPARENT_WITH_COLOUR));
        List<byte[]> expected = tiles.stream().map(new PngEncoder(1)::encode).toList();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int shift = t;
                results.add(pool.submit(() -> {
                    for (int i = 0; i < 40; i++) {
                        int k = (i + shift) % tiles.size();
                        if (!Arrays.equals(encoder.encode(tiles.get(k)), expected.get(k))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> result : results) {
                assertThat(result.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {-2, -1, 10, 42, Integer.MIN_VALUE})
    void rejectsLevelsOutsideZeroToNine(int level) {
        assertThatThrownBy(() -> new PngEncoder(level))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 0")
                .hasMessageContaining(String.valueOf(level));
        assertThatThrownBy(() -> PngEncoder.rgb(level)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void describesItsFormat() {
        assertThat(new PngEncoder(1).contentType()).isEqualTo("image/png");
        assertThat(new PngEncoder(1).extension()).isEqualTo("png");
    }
}
