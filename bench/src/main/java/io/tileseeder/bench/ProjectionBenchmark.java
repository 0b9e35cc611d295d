package io.tileseeder.bench;

import io.tileseeder.area.Projection;
import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.layer.LayerConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryCollection;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.geojson.GeoJsonReader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What coordinates cost to transform per tile matrix set, in microseconds: one CRS84 point into the set's CRS
 * ({@code point}: the closed formula of WebMercatorQuad, proj4j for the others), a CRS84 bbox's envelope in it
 * ({@code envelope}: what a bbox job's plan costs once), and the bundled world layer's 241 countries (99,296
 * vertices) one by one, cut to the set's extent, densified and projected ({@code countries}: what the vector
 * renderer does once per set and process). No metatile transforms anything: its
 * bounds and a GetMap's BBOX are in the set's own CRS. Run:
 * {@code ./mvnw -q -pl bench -am package -DskipTests && java -jar bench/target/benchmarks.jar Projection -f 1 -wi 3 -i 5}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Djava.awt.headless=true")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Thread)
public class ProjectionBenchmark {

    @Param({"WebMercatorQuad", "EuropeanETRS89_LAEAQuad", "UTM32WGS84Quad"})
    public String set;

    TileMatrixSet tms;
    List<Geometry> countries;
    double lon;

    @Setup(Level.Trial)
    public void setUp() throws IOException, ParseException {
        tms = TileMatrixSet.byId(set).orElseThrow();
        Geometry read = new GeoJsonReader().read(
                LayerConfig.DataFile.resource("layers/world/countries.geojson").read());
        List<Geometry> parts = new ArrayList<>();
        for (int i = 0; i < read.getNumGeometries(); i++) {
            parts.add(read.getGeometryN(i));
        }
        countries = read instanceof GeometryCollection ? parts : List.of(read);
        System.out.printf("%n[countries] %d geometries, %d vertices%n", countries.size(),
                countries.stream().mapToInt(Geometry::getNumPoints).sum());
    }

    @Benchmark
    public double[] point() {
        lon = lon >= 20 ? 0 : lon + 0.001;
        return tms.project(lon, 48.5);
    }

    /** A bbox moved a little each time: the set keeps the last bbox's envelope, which this must not measure. */
    @Benchmark
    public Bounds envelope() {
        lon = lon >= 20 ? 0 : lon + 0.001;
        return tms.projectedEnvelope(new Bounds(lon, 45, lon + 10, 55));
    }

    /** Feature by feature, as the vector renderer's index is built. */
    @Benchmark
    public List<Geometry> countries() {
        List<Geometry> projected = new ArrayList<>(countries.size());
        for (Geometry country : countries) {
            projected.add(Projection.project(country, tms));
        }
        return projected;
    }
}
