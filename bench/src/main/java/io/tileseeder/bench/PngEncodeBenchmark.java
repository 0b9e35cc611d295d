package io.tileseeder.bench;

import ar.com.hjg.pngj.FilterType;
import ar.com.hjg.pngj.ImageInfo;
import ar.com.hjg.pngj.ImageLineByte;
import ar.com.hjg.pngj.PngWriter;
import io.tileseeder.render.TileView;
import io.tileseeder.render.encode.PngEncoder;
import io.tileseeder.render.encode.TileEncoder;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * PNG encoding of 256 px map tiles, in microseconds per tile: {@link PngEncoder} against a bare {@link Deflater}
 * pass over the same RGBA rows (the floor) and the JDK's ImageIO PNG writer. Run:
 * {@code ./mvnw -q -pl bench -am package -DskipTests && java -jar bench/target/benchmarks.jar PngEncode -f 1 -wi 3 -i 5}
 *
 * <p>Each invocation encodes all {@value WorldMetatileFixture#TILE_COUNT} tiles of one metatile; the score is per
 * tile. The variants:
 * <ul>
 *   <li>{@code pngEncoder}: {@link PngEncoder} (RGBA, filter None) at {@code level}.</li>
 *   <li>{@code png8Encoder}: {@link PngEncoder#png8} at {@code level}: tiles of more than 256 colours quantised.</li>
 *   <li>{@code rawDeflate}: {@link Deflater} at {@code level} over the exact bytes PngEncoder compresses
 *       (prepared in setup), into a reused buffer: what PNG encoding cannot beat without changing the data.</li>
 *   <li>{@code imageIoAtLevel}: the JDK PNG writer, reused, with its compression set to the same deflate level,
 *       writing to memory. (The JDK's writer also uses filter None for truecolour images, so its output is the
 *       same size; what differs is how it gets the rows out of the raster and writes them.)</li>
 *   <li>{@code imageIoWrite}: plain {@code ImageIO.write(subimage, "png", out)}, as most code does it (writer
 *       lookup per call, the JDK's default level 4, and ImageIO's default stream cache).</li>
 *   <li>{@code pngjAtLevel}: the PNGJ library ({@code ar.com.hjg:pngj}) with filter None at the same level, rows
 *       converted from the same TileViews into a reused {@link ImageLineByte}.</li>
 * </ul>
 * The setup prints the average output size per tile of each variant and checks that the output of PngEncoder and
 * of PNGJ decodes to the tile's pixels.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Djava.awt.headless=true")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@OperationsPerInvocation(WorldMetatileFixture.TILE_COUNT)
public class PngEncodeBenchmark {


    /** The tiles of one metatile, shared by every variant. */
    @State(Scope.Benchmark)
    public static class Tiles {
        TileView[] views;
        BufferedImage[] subimages;
        /** Per tile: the PNG scanlines PngEncoder compresses (filter byte 0, then RGBA for each row). */
        byte[][] scanlines;

        @Setup(Level.Trial)
        public void setUp() throws IOException {
            WorldMetatileFixture fixture = new WorldMetatileFixture();
            views = fixture.tiles().toArray(TileView[]::new);
            subimages = fixture.subimages().toArray(BufferedImage[]::new);
            scanlines = new byte[views.length][];
            for (int t = 0; t < views.length; t++) {
                scanlines[t] = scanlines(views[t]);
            }
            long imageIoBytes = 0;
            for (BufferedImage sub : subimages) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                ImageIO.write(sub, "png", out);
                imageIoBytes += out.size();
            }
            System.out.printf("%n[sizes] imageIoWrite (JDK default level): %d bytes/tile%n",
                    imageIoBytes / views.length);
        }

        private static byte[] scanlines(TileView tile) {
            int rowBytes = 1 + 4 * tile.width();
            byte[] rows = new byte[rowBytes * tile.height()];
            int p = 0;
            for (int y = 0; y < tile.height(); y++) {
                rows[p++] = 0;
                for (int x = 0; x < tile.width(); x++) {
                    int argb = tile.argb(x, y);
                    rows[p++] = (byte) (argb >>> 16);
                    rows[p++] = (byte) (argb >>> 8);
                    rows[p++] = (byte) argb;
                    rows[p++] = (byte) (argb >>> 24);
                }
            }
            return rows;
        }
    }

    /** The encoders at one deflate level, per benchmark thread. */
    @State(Scope.Thread)
    public static class Codec {
        @Param({"1", "6"})
        public int level;

        PngEncoder encoder;
        PngEncoder png8;
        Deflater deflater;
        byte[] deflated;
        ImageWriter writer;
        ImageWriteParam param;
        ByteArrayOutputStream out;
        ImageInfo pngjInfo;
        ImageLineByte pngjLine;

        @Setup(Level.Trial)
        public void setUp(Tiles tiles) throws IOException {
            encoder = new PngEncoder(level);
            png8 = PngEncoder.png8(level);
            deflater = new Deflater(level);
            deflated = new byte[1 << 20];
            writer = ImageIO.getImageWritersByFormatName("png").next();
            param = writer.getDefaultWriteParam();
            param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            // the JDK writer uses deflate level 9 - round(9 * quality)
            param.setCompressionQuality((9 - level) / 9f);
            out = new ByteArrayOutputStream(1 << 20);
            pngjInfo = new ImageInfo(256, 256, 8, true);
            pngjLine = new ImageLineByte(pngjInfo);

            long png = 0;
            long png8Bytes = 0;
            long raw = 0;
            long imageIo = 0;
            long pngj = 0;
            for (int t = 0; t < tiles.views.length; t++) {
                byte[] encoded = encoder.encode(tiles.views[t]);
                checkDecodes(encoded, tiles.views[t]);
                png += encoded.length;
                png8Bytes += png8.encode(tiles.views[t]).length;
                raw += rawDeflate(this, tiles.scanlines[t]);
                imageIo += imageIoAtLevel(this, tiles.subimages[t]);
                pngj += pngjAtLevel(this, tiles.views[t]);
                checkDecodes(out.toByteArray(), tiles.views[t]);
            }
            int n = tiles.views.length;
            System.out.printf(
                    "%n[sizes] level %d: pngEncoder %d, png8Encoder %d, rawDeflate %d, imageIoAtLevel %d, pngjAtLevel %d"
                            + " bytes/tile%n",
                    level, png / n, png8Bytes / n, raw / n, imageIo / n, pngj / n);
        }

        private static void checkDecodes(byte[] png, TileView tile) throws IOException {
            BufferedImage decoded = ImageIO.read(new ByteArrayInputStream(png));
            for (int y = 0; y < tile.height(); y++) {
                for (int x = 0; x < tile.width(); x++) {
                    int a = decoded.getRGB(x, y);
                    int b = tile.argb(x, y);
                    if (a != b) {
                        throw new IllegalStateException("PNG output differs from the tile at " + x + "," + y);
                    }
                }
            }
        }
    }

    @Benchmark
    public long pngEncoder(Tiles tiles, Codec codec) {
        return encodeAll(codec.encoder, tiles.views);
    }

    @Benchmark
    public long png8Encoder(Tiles tiles, Codec codec) {
        return encodeAll(codec.png8, tiles.views);
    }

    /** Encodes every tile; the bytes in all, so that nothing is optimised away. */
    static long encodeAll(TileEncoder encoder, TileView[] tiles) {
        long bytes = 0;
        for (TileView tile : tiles) {
            bytes += encoder.encode(tile).length;
        }
        return bytes;
    }

    @Benchmark
    public long rawDeflate(Tiles tiles, Codec codec) {
        long bytes = 0;
        for (byte[] rows : tiles.scanlines) {
            bytes += rawDeflate(codec, rows);
        }
        return bytes;
    }

    @Benchmark
    public long imageIoAtLevel(Tiles tiles, Codec codec) {
        long bytes = 0;
        for (BufferedImage sub : tiles.subimages) {
            bytes += imageIoAtLevel(codec, sub);
        }
        return bytes;
    }

    @Benchmark
    public long imageIoWrite(Tiles tiles) throws IOException {
        long bytes = 0;
        for (BufferedImage sub : tiles.subimages) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ImageIO.write(sub, "png", out);
            bytes += out.size();
        }
        return bytes;
    }

    @Benchmark
    public long pngjAtLevel(Tiles tiles, Codec codec) {
        long bytes = 0;
        for (TileView tile : tiles.views) {
            bytes += pngjAtLevel(codec, tile);
        }
        return bytes;
    }

    private static int pngjAtLevel(Codec codec, TileView tile) {
        codec.out.reset();
        PngWriter writer = new PngWriter(codec.out, codec.pngjInfo);
        writer.setCompLevel(codec.level);
        writer.setFilterType(FilterType.FILTER_NONE);
        byte[] line = codec.pngjLine.getScanline();
        int[] pixels = tile.pixels();
        for (int y = 0; y < tile.height(); y++) {
            int from = tile.offset() + y * tile.scanlineStride();
            for (int x = 0, p = 0; x < tile.width(); x++, p += 4) {
                int argb = pixels[from + x];
                line[p] = (byte) (argb >>> 16);
                line[p + 1] = (byte) (argb >>> 8);
                line[p + 2] = (byte) argb;
                line[p + 3] = (byte) (argb >>> 24);
            }
            writer.writeRow(codec.pngjLine);
        }
        writer.end();
        return codec.out.size();
    }

    private static int rawDeflate(Codec codec, byte[] rows) {
        Deflater deflater = codec.deflater;
        deflater.reset();
        deflater.setInput(rows);
        deflater.finish();
        int size = 0;
        while (!deflater.finished()) {
            if (size == codec.deflated.length) {
                codec.deflated = Arrays.copyOf(codec.deflated, size * 2);
            }
            size += deflater.deflate(codec.deflated, size, codec.deflated.length - size);
        }
        return size;
    }

    private static int imageIoAtLevel(Codec codec, BufferedImage sub) {
        codec.out.reset();
        try (ImageOutputStream ios = new MemoryCacheImageOutputStream(codec.out)) {
            codec.writer.setOutput(ios);
            codec.writer.write(null, new IIOImage(sub, null, null), codec.param);
            codec.writer.setOutput(null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return codec.out.size();
    }

    /**
     * For a look at the fixture: writes its metatile to the PNG file named by the argument. Run with
     * {@code java -cp bench/target/benchmarks.jar io.tileseeder.bench.PngEncodeBenchmark metatile.png}.
     */
    public static void main(String[] args) throws IOException {
        File file = new File(args.length > 0 ? args[0] : "metatile.png");
        ImageIO.write(new WorldMetatileFixture().metatile(), "png", file);
    }
}
