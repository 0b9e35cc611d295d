package io.tileseeder.bench;

import io.tileseeder.render.TileView;
import io.tileseeder.render.encode.JpegEncoder;
import io.tileseeder.render.encode.JpegPngEncoder;
import io.tileseeder.render.encode.PngEncoder;
import io.tileseeder.render.encode.TileEncoder;
import io.tileseeder.render.encode.WebpEncoder;
import java.util.concurrent.TimeUnit;
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
 * Each tile format's encoder on the tiles of one dense metatile of the bundled world layer
 * ({@link WorldMetatileFixture}), in microseconds per tile, at the layer's default settings (PNG level 1, JPEG 0.85,
 * WebP 0.75); the setup prints each one's bytes per tile. Run:
 * {@code ./mvnw -q -pl bench -am package -DskipTests && java -jar bench/target/benchmarks.jar FormatEncode -f 1 -wi 3 -i 5}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Djava.awt.headless=true")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@OperationsPerInvocation(WorldMetatileFixture.TILE_COUNT)
@State(Scope.Thread)
public class FormatEncodeBenchmark {

    @Param({"png", "png8", "jpeg", "jpeg-png", "webp", "webp-lossless"})
    public String format;

    TileView[] tiles;
    TileEncoder encoder;

    @Setup(Level.Trial)
    public void setUp() {
        tiles = new WorldMetatileFixture().tiles().toArray(TileView[]::new);
        JpegEncoder jpeg = new JpegEncoder(0.85f, 0xFFAAD3DF);
        encoder = switch (format) {
            case "png" -> PngEncoder.rgba(1);
            case "png8" -> PngEncoder.png8(1);
            case "jpeg" -> jpeg;
            case "jpeg-png" -> new JpegPngEncoder(jpeg, 1);
            case "webp" -> WebpEncoder.lossy(0.75f);
            case "webp-lossless" -> WebpEncoder.lossless();
            default -> throw new IllegalArgumentException("unknown format " + format);
        };
        System.out.printf("%n[sizes] %s: %d bytes/tile%n", format,
                PngEncodeBenchmark.encodeAll(encoder, tiles) / tiles.length);
    }

    @Benchmark
    public long encode() {
        return PngEncodeBenchmark.encodeAll(encoder, tiles);
    }
}
