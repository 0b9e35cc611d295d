package io.tileseeder.render.wms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.function.Consumer;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PngDecoderTest {

    private static final int WIDTH = 37;
    private static final int HEIGHT = 23;
    private static final int RGB = 2;
    private static final int PALETTE = 3;
    private static final int RGBA = 6;
    private static final int[] COLOUR_TYPES = {RGB, PALETTE, RGBA};

    // Decoding.

    @ParameterizedTest(name = "filter type {0}")
    @ValueSource(ints = {0, 1, 2, 3, 4})
    void everyFilterTypeOfEveryColourTypeDecodesToTheImagesPixels(int filter) throws Exception {
        for (int colourType : COLOUR_TYPES) {
            Png png = new Png(colourType, pixels(colourType, 7)).filter(filter);

            assertDecodesTo(png.bytes(), png.argb, "colour type " + colourType);
        }
    }

    @Test
    void rowsFilteredEachTheirOwnWayDecodeToTheImagesPixels() throws Exception {
        for (int colourType : COLOUR_TYPES) {
            Png png = new Png(colourType, pixels(colourType, 11)).filter(-1);

            assertDecodesTo(png.bytes(), png.argb, "colour type " + colourType);
        }
    }

    /** A metatile from a WMS is 1056 px wide: the decoder inflates it a batch of rows at a time. */
    @Test
    void aLargeImageDecodesAcrossTheDecodersBatchesOfRows() throws Exception {
        for (int colourType : COLOUR_TYPES) {
            int[] argb = pixels(colourType, 13, 1056, 131);
            Png png = new Png(colourType, 1056, 131, argb).filter(-1).idatSize(8192);

            assertDecodesTo(png.bytes(), argb, 1056, 131, "colour type " + colourType);
        }
    }

    @Test
    void imageDataCutIntoChunksOfAnySizeDecodesTheSame() throws Exception {
        for (int size : new int[] {1, 2, 3, 7, 100, 4096}) {
            Png png = new Png(RGBA, pixels(RGBA, 3)).filter(-1).idatSize(size);

            assertDecodesTo(png.bytes(), png.argb, "IDAT chunks of " + size + " bytes");
        }
    }

    @Test
    void whatImageIoWritesDecodesAsImageIoReadsIt() throws Exception {
        for (int type : new int[] {BufferedImage.TYPE_INT_ARGB, BufferedImage.TYPE_INT_RGB}) {
            BufferedImage image = new BufferedImage(WIDTH, HEIGHT, type);
            Random random = new Random(type);
            for (int y = 0; y < HEIGHT; y++) {
                for (int x = 0; x < WIDTH; x++) {
                    image.setRGB(x, y, x % 5 == 0 ? random.nextInt() : (x * 9 << 16 | y * 11 << 8 | x * y) | y << 26);
                }
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ImageIO.write(image, "png", out);

            assertDecodesTo(out.toByteArray(), image.getRGB(0, 0, WIDTH, HEIGHT, null, 0, WIDTH),
                    "ImageIO's PNG of type " + type);
        }
    }

    /** The deflate data is inflated raw: the zlib stream's Adler-32 is not checked (the chunks' CRCs are). */
    @Test
    void aWrongAdler32IsNotChecked() throws Exception {
        byte[] png = new Png(RGBA, pixels(RGBA, 5)).filter(4).damageAdler32().bytes();
        assertThatThrownBy(() -> ImageIO.read(new ByteArrayInputStream(png))).as("ImageIO checks it")
                .hasRootCauseMessage("incorrect data check");
        int[] pixels = new int[WIDTH * HEIGHT];

        assertThat(PngDecoder.decode(png, pixels, WIDTH, HEIGHT)).isTrue();
        assertThat(pixels).isEqualTo(pixels(RGBA, 5));
    }

    // Left to ImageIO.

    @Test
    void anImageOfAnotherKindOrSizeIsLeftAloneAndNotAPixelWritten() throws Exception {
        Png rgba = new Png(RGBA, pixels(RGBA, 1));
        byte[][] others = {
                rgba.header(WIDTH + 1, HEIGHT, 8, RGBA, 0).bytes(),
                rgba.header(WIDTH, HEIGHT - 1, 8, RGBA, 0).bytes(),
                rgba.header(WIDTH, HEIGHT, 16, RGBA, 0).bytes(),
                rgba.header(WIDTH, HEIGHT, 8, 0, 0).bytes(), // greyscale
                rgba.header(WIDTH, HEIGHT, 8, 4, 0).bytes(), // greyscale and alpha
                rgba.header(WIDTH, HEIGHT, 8, RGBA, 1).bytes(), // interlaced
                new Png(RGB, pixels(RGB, 1)).colourKey().bytes(),
        };
        for (byte[] other : others) {
            int[] pixels = new int[WIDTH * HEIGHT];
            Arrays.fill(pixels, 0x12345678);

            assertThat(PngDecoder.decode(other, pixels, WIDTH, HEIGHT)).isFalse();
            assertThat(pixels).containsOnly(0x12345678);
        }
    }

    // Truncated or corrupt: an IOException naming what is wrong, never another exception.

    @Test
    void everyCutOfAPngIsAnError() {
        byte[] png = new Png(PALETTE, pixels(PALETTE, 2)).filter(-1).idatSize(50).bytes();
        for (int length = 0; length < png.length; length++) {
            byte[] cut = Arrays.copyOf(png, length);

            assertThatThrownBy(() -> PngDecoder.decode(cut, new int[WIDTH * HEIGHT], WIDTH, HEIGHT))
                    .as("the first %d of %d bytes", length, png.length).isInstanceOf(IOException.class);
        }
    }

    @Test
    void everyChangedByteOfAPngIsAnError() {
        for (int colourType : COLOUR_TYPES) {
            byte[] png = new Png(colourType, pixels(colourType, 4)).filter(-1).idatSize(64).bytes();
            for (int at = 0; at < png.length; at++) {
                for (int flip : new int[] {0x01, 0x80, 0xff}) {
                    byte[] changed = png.clone();
                    changed[at] ^= (byte) flip;

                    assertThatThrownBy(() -> PngDecoder.decode(changed, new int[WIDTH * HEIGHT], WIDTH, HEIGHT))
                            .as("colour type %d, byte %d of %d xor %x", colourType, at, png.length, flip)
                            .isInstanceOf(IOException.class);
                }
            }
        }
    }

    /** Changed image data under valid CRCs: decoded to some pixels or refused with an IOException, nothing else. */
    @Test
    void changedImageDataUnderValidChecksumsIsDecodedOrRefusedButNeverCrashes() throws Exception {
        Random random = new Random(42);
        int refused = 0;
        for (int colourType : COLOUR_TYPES) {
            Png png = new Png(colourType, pixels(colourType, 8)).filter(-1);
            byte[] data = Png.deflate(png.rows());
            for (int i = 0; i < 300; i++) {
                byte[] changed = data.clone();
                for (int n = 1 + random.nextInt(3); n > 0; n--) {
                    changed[2 + random.nextInt(changed.length - 2)] ^= (byte) (1 + random.nextInt(255));
                }
                try {
                    PngDecoder.decode(png.deflated(changed).bytes(), new int[WIDTH * HEIGHT], WIDTH, HEIGHT);
                } catch (IOException e) {
                    refused++;
                }
            }
        }
        assertThat(refused).as("changes refused of 900").isPositive();
    }

    @Test
    void wellFormedChunksWithBadContentAreErrorsThatSayWhatIsWrong() {
        Png rgba = new Png(RGBA, pixels(RGBA, 6)).filter(-1);
        Png palette = new Png(PALETTE, pixels(PALETTE, 6));
        assertCorrupt(rgba.filter(5).bytes(), "row 0 has the unknown filter type 5");
        assertCorrupt(rgba.filter(0).dropRows(3).bytes(), "the image data ends after 20 of 23 rows");
        assertCorrupt(rgba.filter(0).deflated(new byte[] {0x78, (byte) 0x9c, (byte) 0xff, 0x00}).bytes(),
                "no valid deflate stream");
        assertCorrupt(rgba.filter(0).deflated(new byte[] {0x78, 0x00, 0x00}).bytes(), "does not start with a zlib header");
        assertCorrupt(rgba.header(WIDTH, HEIGHT, 8, RGBA, 0).compressionMethod(1).bytes(),
                "unknown compression or filter method");
        assertCorrupt(palette.withoutPalette().bytes(), "no PLTE chunk before its image data");
        assertCorrupt(palette.shortPalette(3).bytes(), "past the palette's 3 colours");
        assertCorrupt(palette.extraChunk("tRNS", new byte[300]).bytes(), "300 alpha values for");
        assertCorrupt(rgba.extraChunk("ABCD", new byte[2]).bytes(), "unknown critical chunk ABCD");
        assertCorrupt(rgba.extraChunk("IHDR", new byte[13]).bytes(), "a second header chunk");
        assertCorrupt(rgba.withoutEnd().bytes(), "ends inside a chunk's header");
        assertCorrupt(rgba.deflated(new byte[] {0x78, (byte) 0x9c}).bytes(), "the image data ends after 0 of 23 rows");
        assertCorrupt(rgba.deflated(new byte[] {(byte) 0x88, 0x1c, 0x03, 0x00}).bytes(), "(0x881c)");
        assertCorrupt(rgba.deflated(new byte[] {0x78, 0x20, 0x03, 0x00}).bytes(), "(0x7820)");
        assertCorrupt(rgba.with(png -> png.header = Arrays.copyOf(png.header, 12)).bytes(),
                "does not start with a header chunk");
        assertCorrupt(palette.withoutPalette().extraChunk("tRNS", new byte[2]).bytes(),
                "the tRNS chunk comes before the PLTE chunk");
        assertCorrupt(palette.withoutPalette().extraChunk("PLTE", new byte[7]).bytes(),
                "the PLTE chunk has 7 bytes");
        assertCorrupt(palette.idatSize(100).extraChunkAfterImageData("PLTE", new byte[6]).bytes(),
                "the PLTE chunk comes after the image data");
        assertCorrupt(new Png(RGB, pixels(RGB, 6)).idatSize(100).extraChunkAfterImageData("tRNS", new byte[6]).bytes(),
                "the tRNS chunk comes after the image data");
    }

    private static void assertCorrupt(byte[] png, String message) {
        assertThatThrownBy(() -> PngDecoder.decode(png, new int[WIDTH * HEIGHT], WIDTH, HEIGHT))
                .isInstanceOf(IOException.class).hasMessageContaining(message);
    }

    private static void assertDecodesTo(byte[] png, int[] argb, String what) throws IOException {
        assertDecodesTo(png, argb, WIDTH, HEIGHT, what);
    }

    private static void assertDecodesTo(byte[] png, int[] argb, int width, int height, String what)
            throws IOException {
        BufferedImage reference = ImageIO.read(new ByteArrayInputStream(png));
        assertThat(reference.getRGB(0, 0, width, height, null, 0, width)).as("ImageIO reads %s", what)
                .isEqualTo(argb);
        int[] pixels = new int[width * height];

        assertThat(PngDecoder.decode(png, pixels, width, height)).as(what).isTrue();
        assertThat(pixels).as(what).isEqualTo(argb);
    }

    /**
     * Pixels a PNG of the colour type can hold: smooth runs (which filters predict) and noise (which they do not);
     * in a palette image, 200 colours, some translucent and one fully transparent.
     */
    private static int[] pixels(int colourType, long seed) {
        return pixels(colourType, seed, WIDTH, HEIGHT);
    }

    private static int[] pixels(int colourType, long seed, int width, int height) {
        Random random = new Random(seed);
        int[] palette = new int[200];
        for (int i = 0; i < palette.length; i++) {
            palette[i] = (i % 4 == 0 ? i : 255) << 24 | random.nextInt(1 << 24);
        }
        int[] pixels = new int[width * height];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                int smooth = (x * 7 + y * 3) << 16 | (x * y) << 8 | (255 - x - y) & 0xff | (x * 11 + y) << 24;
                int pixel = switch (colourType) {
                    case PALETTE -> palette[(x + y * 3 + (x % 9 == 0 ? random.nextInt(50) : 0)) % palette.length];
                    default -> x % 9 == 4 ? random.nextInt() : smooth;
                };
                pixels[y * width + x] = colourType == RGB ? pixel | 0xFF000000 : pixel;
            }
        }
        return pixels;
    }

    /** A PNG written plainly, for tests: its rows filtered as asked, its image data in IDAT chunks of a given size. */
    private static final class Png {
        final int colourType;
        final int width;
        final int height;
        final int[] argb;
        final int[] palette;
        int filter;
        int idatSize = 1 << 20;
        byte[] header;
        byte[] deflated;
        boolean damageAdler32;
        int droppedRows;
        boolean paletteChunk = true;
        int paletteLength;
        boolean colourKey;
        boolean end = true;
        String extraType;
        byte[] extraData;
        String lateType;
        byte[] lateData;

        Png(int colourType, int[] argb) {
            this(colourType, WIDTH, HEIGHT, argb);
        }

        Png(int colourType, int width, int height, int[] argb) {
            this.colourType = colourType;
            this.width = width;
            this.height = height;
            this.argb = argb;
            this.palette = colourType == PALETTE ? Arrays.stream(argb).distinct().toArray() : null;
            this.paletteLength = palette == null ? 0 : palette.length;
            header(width, height, 8, colourType, 0);
        }

        private Png copy() {
            Png copy = new Png(colourType, width, height, argb);
            copy.filter = filter;
            copy.idatSize = idatSize;
            copy.header = header.clone();
            copy.deflated = deflated;
            copy.damageAdler32 = damageAdler32;
            copy.droppedRows = droppedRows;
            copy.paletteChunk = paletteChunk;
            copy.paletteLength = paletteLength;
            copy.colourKey = colourKey;
            copy.end = end;
            copy.extraType = extraType;
            copy.extraData = extraData;
            copy.lateType = lateType;
            copy.lateData = lateData;
            return copy;
        }

        private Png with(Consumer<Png> change) {
            Png copy = copy();
            change.accept(copy);
            return copy;
        }

        /** Every row filtered with {@code type}; -1 gives the rows all five types, in an order of no period. */
        Png filter(int type) {
            return with(png -> png.filter = type);
        }

        Png idatSize(int size) {
            return with(png -> png.idatSize = size);
        }

        Png header(int width, int height, int bitDepth, int type, int interlace) {
            Png copy = header == null ? this : copy();
            copy.header = ByteBuffer.allocate(13).putInt(width).putInt(height).put((byte) bitDepth).put((byte) type)
                    .put((byte) 0).put((byte) 0).put((byte) interlace).array();
            return copy;
        }

        Png compressionMethod(int method) {
            return with(png -> png.header[10] = (byte) method);
        }

        Png deflated(byte[] data) {
            return with(png -> png.deflated = data);
        }

        Png damageAdler32() {
            return with(png -> png.damageAdler32 = true);
        }

        Png dropRows(int rows) {
            return with(png -> png.droppedRows = rows);
        }

        Png withoutPalette() {
            return with(png -> png.paletteChunk = false);
        }

        Png shortPalette(int colours) {
            return with(png -> png.paletteLength = colours);
        }

        /** An RGB PNG with a tRNS chunk: one colour stands for transparent. */
        Png colourKey() {
            return with(png -> png.colourKey = true);
        }

        Png withoutEnd() {
            return with(png -> png.end = false);
        }

        /** A chunk of the given type and data after the first IDAT chunk. */
        Png extraChunkAfterImageData(String type, byte[] data) {
            return with(png -> {
                png.lateType = type;
                png.lateData = data;
            });
        }

        /** A chunk of the given type and data just before the image data. */
        Png extraChunk(String type, byte[] data) {
            return with(png -> {
                png.extraType = type;
                png.extraData = data;
            });
        }

        byte[] bytes() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
            chunk(out, "IHDR", header);
            if (palette != null && paletteChunk) {
                ByteBuffer plte = ByteBuffer.allocate(3 * paletteLength);
                byte[] alpha = new byte[paletteLength];
                for (int i = 0; i < paletteLength; i++) {
                    plte.put((byte) (palette[i] >> 16)).put((byte) (palette[i] >> 8)).put((byte) palette[i]);
                    alpha[i] = (byte) (palette[i] >>> 24);
                }
                chunk(out, "PLTE", plte.array());
                int translucent = paletteLength;
                while (translucent > 0 && alpha[translucent - 1] == (byte) 0xff) {
                    translucent--;
                }
                if (translucent > 0) {
                    chunk(out, "tRNS", Arrays.copyOf(alpha, translucent));
                }
            }
            if (colourKey) {
                chunk(out, "tRNS", new byte[] {0, 1, 0, 2, 0, 3});
            }
            if (extraType != null) {
                chunk(out, extraType, extraData);
            }
            byte[] data = deflated != null ? deflated : deflate(rows());
            if (damageAdler32) {
                data[data.length - 1] ^= 0x5a;
            }
            for (int at = 0; at < data.length; at += idatSize) {
                chunk(out, "IDAT", Arrays.copyOfRange(data, at, Math.min(data.length, at + idatSize)));
                if (at == 0 && lateType != null) {
                    chunk(out, lateType, lateData);
                }
            }
            if (end) {
                chunk(out, "IEND", new byte[0]);
            }
            return out.toByteArray();
        }

        private byte[] rows() {
            int bpp = colourType == RGBA ? 4 : colourType == RGB ? 3 : 1;
            int length = width * bpp;
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] previous = new byte[length];
            for (int y = 0; y < height - droppedRows; y++) {
                byte[] row = new byte[length];
                for (int x = 0; x < width; x++) {
                    int pixel = argb[y * width + x];
                    if (colourType == PALETTE) {
                        row[x] = (byte) indexOf(pixel);
                    } else {
                        row[x * bpp] = (byte) (pixel >> 16);
                        row[x * bpp + 1] = (byte) (pixel >> 8);
                        row[x * bpp + 2] = (byte) pixel;
                        if (bpp == 4) {
                            row[x * bpp + 3] = (byte) (pixel >>> 24);
                        }
                    }
                }
                int type = filter < 0 ? (y * y + y / 2) % 5 : filter;
                out.write(type);
                out.writeBytes(filtered(type, row, previous, bpp));
                previous = row;
            }
            return out.toByteArray();
        }

        private int indexOf(int pixel) {
            for (int i = 0; i < palette.length; i++) {
                if (palette[i] == pixel) {
                    return i;
                }
            }
            throw new AssertionError("not in the palette: " + Integer.toHexString(pixel));
        }

        /** The row filtered with the type (PNG specification, section 9); an unknown type leaves it as it is. */
        private static byte[] filtered(int type, byte[] row, byte[] above, int bpp) {
            byte[] out = new byte[row.length];
            for (int i = 0; i < row.length; i++) {
                int left = i >= bpp ? row[i - bpp] & 0xff : 0;
                int up = above[i] & 0xff;
                int upLeft = i >= bpp ? above[i - bpp] & 0xff : 0;
                int prediction = switch (type) {
                    case 1 -> left;
                    case 2 -> up;
                    case 3 -> (left + up) / 2;
                    case 4 -> {
                        int p = left + up - upLeft;
                        int pa = Math.abs(p - left);
                        int pb = Math.abs(p - up);
                        int pc = Math.abs(p - upLeft);
                        yield pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
                    }
                    default -> 0;
                };
                out[i] = (byte) (row[i] - prediction);
            }
            return out;
        }

        private static byte[] deflate(byte[] data) {
            Deflater deflater = new Deflater(6);
            try {
                deflater.setInput(data);
                deflater.finish();
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                byte[] buffer = new byte[8192];
                while (!deflater.finished()) {
                    out.write(buffer, 0, deflater.deflate(buffer));
                }
                return out.toByteArray();
            } finally {
                deflater.end();
            }
        }

        private static void chunk(ByteArrayOutputStream out, String type, byte[] data) {
            byte[] typeBytes = type.getBytes(StandardCharsets.US_ASCII);
            CRC32 crc = new CRC32();
            crc.update(typeBytes);
            crc.update(data);
            out.writeBytes(ByteBuffer.allocate(4).putInt(data.length).array());
            out.writeBytes(typeBytes);
            out.writeBytes(data);
            out.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
        }
    }
}
