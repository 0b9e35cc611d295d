package io.tileseeder.render.encode;

import io.tileseeder.render.TileView;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * A PNG writer made for map tiles, written directly on {@link Deflater} and {@link CRC32} (no ImageIO).
 *
 * <p>A tile of at most 256 distinct colours (ARGB values; most map tiles: a fill, an outline, their antialiased
 * blends) is written indexed (colour type 3): a PLTE of its colours, a tRNS of the alphas of those not opaque (they
 * come first in the palette, so the chunk stops at the last of them), and 1, 2, 4 or 8 bits per pixel, the fewest
 * that hold the palette. A tile of one colour is a 1-bit image of a few dozen bytes. Other tiles are written as 8-bit
 * truecolour with alpha (colour type 6) from the tile's ARGB ints, or, for layers known to be opaque, 8-bit
 * truecolour without alpha (colour type 2, see {@link #rgb(int)}), which drops the alpha byte (and an indexed tile
 * of such a layer has no tRNS). Nothing is interlaced and there are no other ancillary chunks: the file is
 * signature, IHDR, [PLTE, [tRNS]], IDAT (one, or several for very large images), IEND.
 *
 * <p>Why it is shaped this way:
 * <ul>
 *   <li><b>Filter type None on every row.</b> Rendered map tiles are mostly large flat areas (land, water, empty
 *       transparent space) with thin antialiased edges. Deflate already finds the long runs in such rows; the
 *       SUB/UP/PAETH predictors turn the flat runs into runs of zeros that compress no better, and turn every edge
 *       into two or three noisy residual bytes that compress worse. Measured on such tiles, SUB and PAETH made the
 *       files larger, and adaptive filtering (trying all five filters on every row) would cost five passes over
 *       each row on top. With no filter the encoder's own work is one linear pass, and the bytes deflated are
 *       exactly the pixels.</li>
 *   <li><b>Rows straight from the ints.</b> Each row of the {@link TileView} (a view into the metatile, with its
 *       own offset and scanline stride) is converted from ARGB ints directly into a reused byte buffer as
 *       {@code 0, R, G, B, A, R, G, B, A, ...}; there is no intermediate image, raster or sub-image copy. Rows are
 *       batched into a block of about {@value #BLOCK_BYTES} bytes so that the {@link Deflater} sees few, large
 *       inputs.</li>
 *   <li><b>Deflate into the output.</b> The per-thread {@link Deflater} (reset for each tile, so its native state is
 *       allocated once per thread) writes its output directly into the per-thread growable output buffer, behind a
 *       reserved IDAT header; the chunk's length and CRC are filled in afterwards. The only copy of the compressed
 *       data is the final {@code byte[]} handed back.</li>
 * </ul>
 * Together this keeps the encoder within a small margin of the time a bare {@link Deflater} pass over the same
 * rows takes at the same level (see the {@code bench} module's {@code PngEncodeBenchmark}).
 *
 * <p>Instances are immutable and thread-safe; the {@link Deflater} and buffers are kept per thread per encoder and
 * reused. Output is lossless: every pixel, including the colour of fully transparent pixels, is written as given
 * (two transparent pixels of different colours are two palette entries).
 */
public final class PngEncoder implements TileEncoder {

    /** Largest IDAT chunk this encoder writes by default; larger images get several IDAT chunks. */
    static final int DEFAULT_MAX_IDAT_LENGTH = 1 << 20;

    /** Target size of the block of filtered rows handed to the deflater in one go. */
    private static final int BLOCK_BYTES = 64 * 1024;

    /** Free space the output buffer must have before each deflate call. */
    private static final int MIN_FREE_OUTPUT = 8 * 1024;

    private static final byte[] SIGNATURE = {(byte) 137, 'P', 'N', 'G', '\r', '\n', 26, '\n'};
    private static final int IHDR = 0x49484452;
    private static final int IDAT = 0x49444154;
    private static final int IEND = 0x49454E44;
    private static final int PLTE = 0x504C5445;
    private static final int TRNS = 0x74524E53;
    private static final int COLOR_TYPE_RGB = 2;
    private static final int COLOR_TYPE_INDEXED = 3;
    private static final int COLOR_TYPE_RGBA = 6;
    private static final byte FILTER_NONE = 0;

    private static final VarHandle INT_BE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private final int level;
    private final boolean alpha;
    private final boolean quantise;
    private final int maxIdatLength;
    private final ThreadLocal<State> state;

    /**
     * A 32-bit RGBA (colour type 6) encoder.
     *
     * @param level the deflate level, 0 (store) to 9 (smallest); 1 is fastest, 6 is zlib's default
     * @throws IllegalArgumentException if the level is outside 0..9
     */
    public PngEncoder(int level) {
        this(level, true, false, DEFAULT_MAX_IDAT_LENGTH);
    }

    /**
     * A 24-bit RGB (colour type 2) encoder for opaque layers: the alpha of each pixel is dropped, not composited.
     *
     * @param level the deflate level, 0 (store) to 9 (smallest)
     * @throws IllegalArgumentException if the level is outside 0..9
     */
    public static PngEncoder rgb(int level) {
        return new PngEncoder(level, false, false, DEFAULT_MAX_IDAT_LENGTH);
    }

    /** A 32-bit RGBA encoder; the same as {@link #PngEncoder(int)}. */
    public static PngEncoder rgba(int level) {
        return new PngEncoder(level, true, false, DEFAULT_MAX_IDAT_LENGTH);
    }

    /**
     * A {@code png8} encoder: every tile is written indexed. A tile of more than 256 colours is quantised first (see
     * {@link Quantizer} for what is kept); one of at most 256 is written losslessly, as by {@link #rgba(int)}.
     *
     * @param level the deflate level, 0 (store) to 9 (smallest)
     * @throws IllegalArgumentException if the level is outside 0..9
     */
    public static PngEncoder png8(int level) {
        return new PngEncoder(level, true, true, DEFAULT_MAX_IDAT_LENGTH);
    }

    /** For tests: {@code maxIdatLength} caps the length of each IDAT chunk's data. */
    PngEncoder(int level, boolean alpha, int maxIdatLength) {
        this(level, alpha, false, maxIdatLength);
    }

    private PngEncoder(int level, boolean alpha, boolean quantise, int maxIdatLength) {
        if (level < Deflater.NO_COMPRESSION || level > Deflater.BEST_COMPRESSION) {
            throw new IllegalArgumentException(
                    "PNG compression level must be between 0 (store) and 9 (smallest), got " + level);
        }
        if (maxIdatLength < 1) {
            throw new IllegalArgumentException("maxIdatLength must be positive, got " + maxIdatLength);
        }
        this.level = level;
        this.alpha = alpha;
        this.quantise = quantise;
        this.maxIdatLength = maxIdatLength;
        this.state = ThreadLocal.withInitial(() -> new State(level));
    }

    /** The deflate level, 0..9. */
    public int level() {
        return level;
    }

    /** Whether the output has an alpha channel (colour type 6) rather than being RGB (colour type 2). */
    public boolean hasAlpha() {
        return alpha;
    }

    @Override
    public String contentType() {
        return "image/png";
    }

    @Override
    public String extension() {
        return "png";
    }

    @Override
    public byte[] encode(TileView tile) {
        State s = state.get();
        int colours = s.palette.index(tile, alpha);
        if (colours < 0 && quantise) {
            s.quantizer().quantise(tile, alpha, s.palette);
            colours = s.palette.size();
        }
        return colours > 0 ? indexed(tile, s, colours) : truecolour(tile, s);
    }

    /** The tile as an indexed PNG if it has at most 256 colours; null, with nothing written, if it has more. */
    byte[] encodeIndexed(TileView tile) {
        State s = state.get();
        int colours = s.palette.index(tile, alpha);
        return colours > 0 ? indexed(tile, s, colours) : null;
    }

    /** The tile as a truecolour PNG, however few colours it has. */
    byte[] encodeTruecolour(TileView tile) {
        return truecolour(tile, state.get());
    }

    private byte[] truecolour(TileView tile, State s) {
        int width = tile.width();
        int bytesPerPixel = alpha ? 4 : 3;
        long rowBytes = 1L + (long) width * bytesPerPixel;
        int[] pixels = tile.pixels();
        int stride = tile.scanlineStride();
        int offset = tile.offset();
        start(s, tile, rowBytes, 8, alpha ? COLOR_TYPE_RGBA : COLOR_TYPE_RGB);
        return rows(s, tile.height(), rowBytes, (y, block, p) -> alpha
                ? rgbaRow(pixels, offset + y * stride, width, block, p)
                : rgbRow(pixels, offset + y * stride, width, block, p));
    }

    private byte[] indexed(TileView tile, State s, int colours) {
        Palette palette = s.palette;
        int bits = colours <= 2 ? 1 : colours <= 4 ? 2 : colours <= 16 ? 4 : 8;
        int width = tile.width();
        long rowBytes = 1L + ((long) width * bits + 7) / 8;
        start(s, tile, rowBytes, bits, COLOR_TYPE_INDEXED);
        int chunk = s.size;
        s.putInt(3 * colours);
        s.putInt(PLTE);
        for (int i = 0; i < colours; i++) {
            int argb = palette.colour(i);
            s.putByte(argb >>> 16);
            s.putByte(argb >>> 8);
            s.putByte(argb);
        }
        s.putCrc(chunk + 4, s.size);
        int translucent = alpha ? palette.translucent() : 0;
        if (translucent > 0) {
            chunk = s.size;
            s.putInt(translucent);
            s.putInt(TRNS);
            for (int i = 0; i < translucent; i++) {
                s.putByte(palette.colour(i) >>> 24);
            }
            s.putCrc(chunk + 4, s.size);
        }
        byte[] indices = palette.indices();
        return rows(s, tile.height(), rowBytes, (y, block, p) -> packRow(indices, y * width, width, bits, block, p));
    }

    /** Writes the signature and IHDR, with room for an image of {@code rowBytes} rows. */
    private static void start(State s, TileView tile, long rowBytes, int bitDepth, int colourType) {
        if (rowBytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("tile too wide for one PNG row buffer: " + tile.width());
        }
        s.deflater.reset();
        s.size = 0;
        // A first guess at the size, so that a thread's first tile rarely grows the buffer twice.
        s.ensureFree((int) Math.min(1 << 20, 128L + rowBytes * tile.height() / 4));
        s.put(SIGNATURE);
        int ihdrStart = s.size;
        s.putInt(13);
        s.putInt(IHDR);
        s.putInt(tile.width());
        s.putInt(tile.height());
        s.putByte(bitDepth);
        s.putByte(colourType);
        s.putByte(0); // compression method: deflate
        s.putByte(0); // filter method: adaptive (per-row filter byte), every row uses type 0
        s.putByte(0); // interlace: none
        s.putCrc(ihdrStart + 4, s.size);
    }

    /** Writes one row's bytes after its filter byte into {@code block[p..]}; returns the new p. */
    @FunctionalInterface
    private interface RowWriter {
        int write(int y, byte[] block, int p);
    }

    /** Deflates the rows, each with filter byte None, into IDAT chunks; writes IEND and returns the file. */
    private byte[] rows(State s, int height, long rowBytesLong, RowWriter row) {
        int rowBytes = (int) rowBytesLong;
        int rowsPerBlock = Math.max(1, Math.min(height, BLOCK_BYTES / rowBytes));
        // One spare byte: the RGB path stores 4 bytes per pixel and advances by 3.
        byte[] block = s.block(rowsPerBlock * rowBytes + 1);
        Deflater deflater = s.deflater;
        s.openIdat();
        int y = 0;
        while (y < height) {
            int rows = Math.min(rowsPerBlock, height - y);
            int p = 0;
            for (int r = 0; r < rows; r++) {
                block[p++] = FILTER_NONE;
                p = row.write(y + r, block, p);
            }
            y += rows;
            deflater.setInput(block, 0, p);
            while (!deflater.needsInput()) {
                deflateSome(s, deflater);
            }
        }
        deflater.finish();
        while (!deflater.finished()) {
            deflateSome(s, deflater);
        }
        s.closeIdat();

        s.putInt(0);
        s.putInt(IEND);
        s.putCrc(s.size - 4, s.size);
        return Arrays.copyOf(s.out, s.size);
    }

    /** Packs {@code width} palette indices of {@code bits} bits, leftmost pixel in the high bits; returns the new p. */
    private static int packRow(byte[] indices, int from, int width, int bits, byte[] dst, int p) {
        if (bits == 8) {
            System.arraycopy(indices, from, dst, p, width);
            return p + width;
        }
        int perByte = 8 / bits;
        int x = 0;
        while (x < width) {
            int packed = 0;
            int n = Math.min(perByte, width - x);
            for (int i = 0; i < n; i++) {
                packed = packed << bits | indices[from + x + i];
            }
            dst[p++] = (byte) (packed << (bits * (perByte - n)));
            x += n;
        }
        return p;
    }

    /** Writes {@code width} pixels from {@code src[from..]} as R, G, B, A to {@code dst[p..]}; returns the new p. */
    private static int rgbaRow(int[] src, int from, int width, byte[] dst, int p) {
        for (int i = from, end = from + width; i < end; i++, p += 4) {
            INT_BE.set(dst, p, Integer.rotateLeft(src[i], 8)); // ARGB -> RGBA
        }
        return p;
    }

    /** Writes {@code width} pixels as R, G, B bytes; writes one byte past the returned p. */
    private static int rgbRow(int[] src, int from, int width, byte[] dst, int p) {
        for (int i = from, end = from + width; i < end; i++, p += 3) {
            INT_BE.set(dst, p, src[i] << 8); // RGB0; the 0 is overwritten by the next pixel's R
        }
        return p;
    }

    private void deflateSome(State s, Deflater deflater) {
        if (s.idatLength() >= maxIdatLength) {
            s.closeIdat();
            s.openIdat();
        }
        s.ensureFree(MIN_FREE_OUTPUT);
        int room = Math.min(s.out.length - s.size, maxIdatLength - s.idatLength());
        s.size += deflater.deflate(s.out, s.size, room, Deflater.NO_FLUSH);
    }

    /** What one thread reuses across tiles for one encoder. */
    private static final class State {
        final Deflater deflater;
        final CRC32 crc = new CRC32();
        final Palette palette = new Palette();
        private Quantizer quantizer;
        byte[] block = new byte[0];
        byte[] out = new byte[32 * 1024];
        int size;
        /** Where the current IDAT chunk's length field starts. */
        int idatStart;

        State(int level) {
            deflater = new Deflater(level); // zlib wrapper, as PNG requires
        }

        Quantizer quantizer() {
            if (quantizer == null) {
                quantizer = new Quantizer();
            }
            return quantizer;
        }

        byte[] block(int length) {
            if (block.length < length) {
                block = new byte[length];
            }
            return block;
        }

        void ensureFree(int free) {
            if (out.length - size < free) {
                long wanted = Math.max((long) size + free, 2L * out.length);
                if (wanted > Integer.MAX_VALUE - 16) {
                    wanted = (long) size + free;
                    if (wanted > Integer.MAX_VALUE - 16) {
                        throw new IllegalStateException("PNG output larger than 2 GiB");
                    }
                }
                out = Arrays.copyOf(out, (int) wanted);
            }
        }

        void put(byte[] bytes) {
            ensureFree(bytes.length);
            System.arraycopy(bytes, 0, out, size, bytes.length);
            size += bytes.length;
        }

        void putInt(int v) {
            ensureFree(4);
            INT_BE.set(out, size, v);
            size += 4;
        }

        void putByte(int v) {
            ensureFree(1);
            out[size++] = (byte) v;
        }

        /** Appends the CRC of {@code out[from..to)}. */
        void putCrc(int from, int to) {
            crc.reset();
            crc.update(out, from, to - from);
            putInt((int) crc.getValue());
        }

        void openIdat() {
            idatStart = size;
            putInt(0); // length, filled in by closeIdat
            putInt(IDAT);
        }

        int idatLength() {
            return size - idatStart - 8;
        }

        void closeIdat() {
            INT_BE.set(out, idatStart, idatLength());
            putCrc(idatStart + 4, size);
        }
    }
}
