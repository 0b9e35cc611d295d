package io.tileseeder.render.wms;

import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.TileFormat;
import io.tileseeder.layer.LayerCatalogConfig;
import io.tileseeder.layer.LayerCatalogFile;
import io.tileseeder.layer.LayerConfig;
import io.tileseeder.layer.WmsSourceConfig;
import io.tileseeder.render.LayerResources;
import io.tileseeder.render.MetatileImage;
import io.tileseeder.render.TileContent;
import io.tileseeder.render.TileView;
import io.tileseeder.render.encode.TileEncoder;
import io.tileseeder.render.encode.UniformTiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
 * The seeder's own work on a WMS metatile once the answer is in, in steady state: the recorded GetMap answers of
 * the job (the dev MapServer's world z0-7, 1,367 metatiles of 4×4 with a 16 px gutter, {@code image/png}),
 * decoded into the thread's raster ({@code decode}), then also cut, classified and encoded as PNG at level 1 with the
 * worker's own classes ({@code metatile}), in milliseconds per metatile; one-colour tiles take their kept bytes
 * ({@link UniformTiles}). Fetching and storing are not in it: {@code bench/wms} and the seeder's whole CPU measure
 * those. Needs {@code dev/services up --wms}; run:
 * {@code ./mvnw -q -pl bench -am package -DskipTests && . .dev/services.env &&
 * java -jar bench/target/benchmarks.jar WmsMetatile -f 1 -wi 3 -i 5}
 * (the setup fetches the answers from {@code SEEDER_WMS_URL} first, about half a minute).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Djava.awt.headless=true", "-Xmx2g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@OperationsPerInvocation(WmsMetatileBenchmark.METATILES)
@State(Scope.Thread)
public class WmsMetatileBenchmark {

    static final int MAX_ZOOM = 7;
    /** Metatiles of 4×4 in WebMercatorQuad z0-7: 1 + 1 + 1 + 4 + 16 + 64 + 256 + 1024. */
    static final int METATILES = 1367;
    private static final int GUTTER = 16;

    @Param({"image/png", "image/png; mode=8bit"})
    public String upstreamFormat;

    private final List<Metatile> metatiles = new ArrayList<>();
    private final List<byte[]> answers = new ArrayList<>();
    private final List<String> contentTypes = new ArrayList<>();
    private final UniformTiles uniformTiles = new UniformTiles();
    private TileEncoder encoder;

    @Setup(Level.Trial)
    public void fetch() throws Exception {
        String wms = System.getenv("SEEDER_WMS_URL");
        if (wms == null || wms.isBlank()) {
            throw new IllegalStateException("SEEDER_WMS_URL is not set: run dev/services up --wms and source "
                    + ".dev/services.env first");
        }
        LayerCatalogConfig catalog = LayerCatalogFile.read(layerFile(wms));
        LayerConfig layer = catalog.layer("world-wms").orElseThrow();
        encoder = new LayerResources(catalog, new WmsClient(1)).encoder(layer, TileFormat.PNG);
        MetatileSize size = new MetatileSize(4, 4);
        for (int z = 0; z <= MAX_ZOOM; z++) {
            int columns = (TileMatrixSet.WEB_MERCATOR_QUAD.matrixWidth(z) + 3) / 4;
            for (int y = 0; y < columns; y++) {
                for (int x = 0; x < columns; x++) {
                    metatiles.add(new Metatile(TileMatrixSet.WEB_MERCATOR_QUAD, z, x, y, size));
                }
            }
        }
        if (metatiles.size() != METATILES) {
            throw new IllegalStateException("expected " + METATILES + " metatiles, got " + metatiles.size());
        }
        WmsSourceConfig source = (WmsSourceConfig) layer.source();
        HttpClient http = HttpClient.newHttpClient();
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            List<Future<HttpResponse<byte[]>>> fetches = new ArrayList<>();
            for (Metatile metatile : metatiles) {
                URI url = GetMap.url(source, metatile.tileMatrixSet(), metatile.bounds(GUTTER),
                        metatile.imageWidth(GUTTER), metatile.imageHeight(GUTTER)).uri();
                fetches.add(pool.submit(() -> http.send(HttpRequest.newBuilder(url).build(),
                        HttpResponse.BodyHandlers.ofByteArray())));
            }
            long bytes = 0;
            for (Future<HttpResponse<byte[]>> fetch : fetches) {
                HttpResponse<byte[]> answer = fetch.get();
                answers.add(answer.body());
                contentTypes.add(answer.headers().firstValue("Content-Type").orElse(""));
                bytes += answer.body().length;
            }
            System.out.printf("%n[answers] %d metatiles, %d bytes of %s%n", answers.size(), bytes, upstreamFormat);
        }
    }

    private Path layerFile(String wms) {
        try {
            Path file = Files.createTempFile("wms-metatile-bench", ".yaml");
            file.toFile().deleteOnExit();
            Files.writeString(file, """
                    layers:
                      - name: world-wms
                        zoom: {min: 0, max: 14}
                        metatile: {width: 4, height: 4}
                        gutter: %d
                        emptyTiles: store
                        pngLevel: 1
                        source:
                          type: wms
                          url: %s
                          layers: [world]
                          format: "%s"
                    """.formatted(GUTTER, wms, upstreamFormat));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Benchmark
    public long decode() throws WmsException {
        long sum = 0;
        for (int i = 0; i < METATILES; i++) {
            sum += decoded(i).image().getRGB(0, 0);
        }
        return sum;
    }

    @Benchmark
    public long metatile() throws WmsException {
        long bytes = 0;
        for (int i = 0; i < METATILES; i++) {
            MetatileImage image = decoded(i);
            for (TileCoord tile : image.metatile().tiles()) {
                TileView view = image.tile(tile);
                bytes += uniformTiles.encode(encoder, view, TileContent.of(view)).length;
            }
        }
        return bytes;
    }

    private MetatileImage decoded(int i) throws WmsException {
        Metatile metatile = metatiles.get(i);
        var into = MetatileImage.raster(metatile, GUTTER);
        var image = WmsAnswer.image("GetMap " + metatile, 200, contentTypes.get(i), answers.get(i), into.getWidth(),
                into.getHeight(), into);
        return MetatileImage.copyOf(metatile, GUTTER, image);
    }
}
