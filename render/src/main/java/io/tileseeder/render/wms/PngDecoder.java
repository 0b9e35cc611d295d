package io.tileseeder.render.wms;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decodes the PNGs WMS servers answer {@code image/png} with (8 bits a sample, not interlaced; RGB, RGBA or a
 * palette) straight into ARGB pixels. Any other PNG is left to ImageIO.
 *
 * <p>Why not PNGJ or ImageIO: both inflate a zlib stream, and zlib then computes the Adler-32 of every inflated
 * byte. A profile of a z0-7 seed from MapServer (perf, 499 Hz) put 9.9 % of the seeder's CPU in {@code adler32_z},
 * as much as in inflating itself. This decoder inflates the raw deflate data inside the zlib stream and leaves the
 * Adler-32 alone. Bytes changed on the way are still caught: the CRC-32 of every chunk is checked, over the
 * compressed bytes, which are a tenth as many.
 */
final class PngDecoder {

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    /** The 8 bytes every PNG starts with. */
    static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    private static final int IHDR = type("IHDR");
    private static final int PLTE = type("PLTE");
    private static final int TRNS = type("tRNS");
    private static final int IDAT = type("IDAT");
    private static final int IEND = type("IEND");
    private static final int TRUECOLOUR = 2;
    private static final int INDEXED = 3;
    private static final int TRUECOLOUR_ALPHA = 6;

    private PngDecoder() {
    }

    /**
     * Decodes {@code png} into {@code pixels}, row after row of {@code width} ARGB values.
     *
     * @return false, having written no pixel, for a PNG of another size or kind (bit depth, greyscale, interlaced,
     *         a transparent colour key): one for ImageIO
     * @throws IOException naming what is wrong with a truncated or corrupt PNG; some pixels may have been written
     */
    static boolean decode(byte[] png, int[] pixels, int width, int height) throws IOException {
        if (png.length < SIGNATURE.length || !Arrays.equals(png, 0, SIGNATURE.length, SIGNATURE, 0,
                SIGNATURE.length)) {
            throw new IOException("no PNG signature");
        }
        CRC32 crc = new CRC32();
        Inflater inflater = new Inflater(true);
        try {
            Rows rows = null;
            int[] palette = null;
            int zlibHeader = 0;
            int zlibHeaderBytes = 0;
            for (int at = SIGNATURE.length; ; ) {
                if (png.length - at < 12) {
                    throw new IOException("the PNG ends inside a chunk's header at byte " + at);
                }
                int length = (int) INT.get(png, at);
                int type = (int) INT.get(png, at + 4);
                int data = at + 8;
                if (length < 0 || length > png.length - data - 4) {
                    throw new IOException("chunk " + name(type) + " at byte " + at + " claims " + (length & 0xFFFFFFFFL)
                            + " bytes, past the end of the PNG");
                }
                crc.reset();
                crc.update(png, at + 4, 4 + length);
                if ((int) crc.getValue() != (int) INT.get(png, data + length)) {
                    throw new IOException("chunk " + name(type) + " at byte " + at + " fails its CRC");
                }
                at = data + length + 4;
                if (rows == null) {
                    if (type != IHDR || length != 13) {
                        throw new IOException("the PNG does not start with a header chunk (IHDR)");
                    }
                    rows = Rows.of(png, data, width, height);
                    if (rows == null) {
                        return false;
                    }
                } else if (type == IHDR) {
                    throw new IOException("the PNG has a second header chunk (IHDR) at byte " + (data - 8));
                } else if ((type == PLTE || type == TRNS) && zlibHeaderBytes > 0) {
                    throw new IOException("the " + name(type) + " chunk comes after the image data");
                } else if (type == PLTE) {
                    palette = palette(png, data, length);
                } else if (type == TRNS) {
                    if (rows.colourType == TRUECOLOUR) {
                        return false;
                    }
                    if (rows.colourType == INDEXED) {
                        alpha(palette, png, data, length);
                    }
                } else if (type == IDAT) {
                    if (rows.colourType == INDEXED && palette == null) {
                        throw new IOException("the palette PNG has no PLTE chunk before its image data");
                    }
                    int skip = 0;
                    for (; zlibHeaderBytes < 2 && skip < length; skip++, zlibHeaderBytes++) {
                        zlibHeader = zlibHeader << 8 | png[data + skip] & 0xff;
                        if (zlibHeaderBytes == 1) {
                            checkZlibHeader(zlibHeader);
                        }
                    }
                    inflater.setInput(png, data + skip, length - skip);
                    rows.inflate(inflater, palette, pixels);
                } else if (type == IEND) {
                    if (rows.done < height) {
                        throw new IOException("the image data ends after " + rows.done + " of " + height + " rows");
                    }
                    return true;
                } else if ((type & 0x20000000) == 0) {
                    throw new IOException("unknown critical chunk " + name(type));
                }
            }
        } finally {
            inflater.end();
        }
    }

    /**
     * The image's rows, each a filter type byte and then the row's bytes, inflated several at a time: zlib's fast
     * loop stops 258 bytes short of the end of the space it is given, so a row at a time would leave a quarter of a
     * palette row to its slow loop, and pay a call into zlib per row.
     */
    private static final class Rows {
        private static final int BUFFER = 64 * 1024;

        final int colourType;
        final int width;
        final int height;
        final int bytesPerPixel;
        final int rowLength;
        final byte[] buffer;
        /** The last row unfiltered, for the first row of the next batch: zeros above the first row. */
        final byte[] above;
        int filled;
        int done;

        private Rows(int colourType, int width, int height, int bytesPerPixel) {
            this.colourType = colourType;
            this.width = width;
            this.height = height;
            this.bytesPerPixel = bytesPerPixel;
            this.rowLength = 1 + width * bytesPerPixel;
            this.buffer = new byte[rowLength * Math.max(1, Math.min(height, BUFFER / rowLength))];
            this.above = new byte[rowLength];
        }

        /** The rows of the header at {@code at}, or null for an image this decoder leaves to ImageIO. */
        static Rows of(byte[] png, int at, int width, int height) throws IOException {
            int colourType = png[at + 9];
            if (png[at + 10] != 0 || png[at + 11] != 0) {
                throw new IOException("the PNG's header names an unknown compression or filter method");
            }
            if ((int) INT.get(png, at) != width || (int) INT.get(png, at + 4) != height || png[at + 8] != 8
                    || png[at + 12] != 0) {
                return null;
            }
            return switch (colourType) {
                case TRUECOLOUR -> new Rows(colourType, width, height, 3);
                case INDEXED -> new Rows(colourType, width, height, 1);
                case TRUECOLOUR_ALPHA -> new Rows(colourType, width, height, 4);
                default -> null;
            };
        }

        /** Inflates what the inflater's input holds into rows, and each whole row into {@code pixels}. */
        void inflate(Inflater inflater, int[] palette, int[] pixels) throws IOException {
            while (done < height) {
                int n;
                try {
                    n = inflater.inflate(buffer, filled, buffer.length - filled);
                } catch (DataFormatException e) {
                    throw new IOException("the image data is no valid deflate stream: " + e.getMessage(), e);
                }
                if (n == 0) {
                    if (inflater.needsInput()) {
                        return;
                    }
                    throw new IOException("the image data ends after " + done + " of " + height + " rows");
                }
                filled += n;
                int rows = Math.min(filled / rowLength, height - done);
                for (int i = 0, at = 0; i < rows; i++, at += rowLength) {
                    unfilter(at, i == 0 ? above : buffer, i == 0 ? 0 : at - rowLength);
                    pixels(at, palette, pixels, done * width);
                    done++;
                }
                if (rows > 0) {
                    int used = rows * rowLength;
                    System.arraycopy(buffer, used - rowLength, above, 0, rowLength);
                    System.arraycopy(buffer, used, buffer, 0, filled - used);
                    filled -= used;
                }
            }
        }

        /** Undoes the filter (PNG specification, section 9) of the row at {@code at}, in place, against the row above. */
        private void unfilter(int at, byte[] prior, int priorAt) throws IOException {
            byte[] r = buffer;
            byte[] p = prior;
            int bpp = bytesPerPixel;
            int end = at + rowLength;
            int up = priorAt - at;
            switch (r[at]) {
                case 0 -> {
                }
                case 1 -> {
                    for (int i = at + 1 + bpp; i < end; i++) {
                        r[i] += r[i - bpp];
                    }
                }
                case 2 -> {
                    for (int i = at + 1; i < end; i++) {
                        r[i] += p[i + up];
                    }
                }
                case 3 -> {
                    for (int i = at + 1; i <= at + bpp; i++) {
                        r[i] += (p[i + up] & 0xff) >>> 1;
                    }
                    for (int i = at + 1 + bpp; i < end; i++) {
                        r[i] += ((r[i - bpp] & 0xff) + (p[i + up] & 0xff)) >>> 1;
                    }
                }
                case 4 -> {
                    for (int i = at + 1; i <= at + bpp; i++) {
                        r[i] += p[i + up];
                    }
                    for (int i = at + 1 + bpp; i < end; i++) {
                        r[i] += paeth(r[i - bpp] & 0xff, p[i + up] & 0xff, p[i + up - bpp] & 0xff);
                    }
                }
                default -> throw new IOException("row " + done + " has the unknown filter type " + (r[at] & 0xff));
            }
        }

        private static int paeth(int left, int above, int aboveLeft) {
            int estimate = left + above - aboveLeft;
            int toLeft = Math.abs(estimate - left);
            int toAbove = Math.abs(estimate - above);
            int toAboveLeft = Math.abs(estimate - aboveLeft);
            return toLeft <= toAbove && toLeft <= toAboveLeft ? left : toAbove <= toAboveLeft ? above : aboveLeft;
        }

        /** The pixels of the unfiltered row at {@code at}, into {@code pixels} from {@code out} on. */
        private void pixels(int at, int[] palette, int[] pixels, int out) throws IOException {
            byte[] r = buffer;
            switch (colourType) {
                case TRUECOLOUR_ALPHA -> {
                    for (int x = 0, in = at + 1; x < width; x++, in += 4) {
                        pixels[out + x] = Integer.rotateRight((int) INT.get(r, in), 8);
                    }
                }
                case TRUECOLOUR -> {
                    for (int x = 0, in = at + 1; x < width; x++, in += 3) {
                        pixels[out + x] = 0xFF000000 | (r[in] & 0xff) << 16 | (r[in + 1] & 0xff) << 8
                                | r[in + 2] & 0xff;
                    }
                }
                default -> {
                    for (int x = 0; x < width; x++) {
                        int index = r[at + 1 + x] & 0xff;
                        if (index >= palette.length) {
                            throw new IOException("pixel " + x + " of row " + done + " has palette index " + index
                                    + ", past the palette's " + palette.length + " colours");
                        }
                        pixels[out + x] = palette[index];
                    }
                }
            }
        }
    }

    /** The palette's colours, opaque until a tRNS chunk says otherwise. */
    private static int[] palette(byte[] png, int at, int length) throws IOException {
        if (length == 0 || length % 3 != 0 || length > 256 * 3) {
            throw new IOException("the PLTE chunk has " + length + " bytes, not 3 for each of 1 to 256 colours");
        }
        int[] palette = new int[length / 3];
        for (int i = 0, in = at; i < palette.length; i++, in += 3) {
            palette[i] = 0xFF000000 | (png[in] & 0xff) << 16 | (png[in + 1] & 0xff) << 8 | png[in + 2] & 0xff;
        }
        return palette;
    }

    /** Gives the first palette entries the alpha of a palette PNG's tRNS chunk. */
    private static void alpha(int[] palette, byte[] png, int at, int length) throws IOException {
        if (palette == null) {
            throw new IOException("the tRNS chunk comes before the PLTE chunk");
        }
        if (length > palette.length) {
            throw new IOException("the tRNS chunk has " + length + " alpha values for " + palette.length + " colours");
        }
        for (int i = 0; i < length; i++) {
            palette[i] = (png[at + i] & 0xff) << 24 | palette[i] & 0xFFFFFF;
        }
    }

    /** The zlib header before the deflate data (RFC 1950): deflate, a window of at most 32 KiB, no dictionary. */
    private static void checkZlibHeader(int header) throws IOException {
        if ((header >>> 8 & 0x0f) != 8 || header >>> 12 > 7 || header % 31 != 0 || (header & 0x20) != 0) {
            throw new IOException("the image data does not start with a zlib header for deflate (0x"
                    + Integer.toHexString(header) + ")");
        }
    }

    private static int type(String name) {
        return (int) INT.get(name.getBytes(StandardCharsets.US_ASCII), 0);
    }

    private static String name(int type) {
        byte[] bytes = new byte[4];
        INT.set(bytes, 0, type);
        StringBuilder name = new StringBuilder();
        for (byte b : bytes) {
            name.append(b >= 'A' && b <= 'z' ? (char) b : '?');
        }
        return name.toString();
    }
}
