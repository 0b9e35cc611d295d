package io.tileseeder.layer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.DimensionValues;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code source: {type: tile, ...}} of a layer file, and the URLs of its tiles. */
class TileSourceFileTest {

    private static final String MINIMAL = """
            layers:
              - name: osm
                source:
                  type: tile
                  url: "https://tiles.example.com/{z}/{x}/{y}.png"
            """;

    @TempDir
    Path dir;

    @Test
    void theDefaultsAndEveryKey() throws Exception {
        TileSourceConfig minimal = source(MINIMAL);
        assertThat(minimal.tileSize()).isEqualTo(256);
        assertThat(minimal.minZoom()).isZero();
        assertThat(minimal.maxZoom()).isEqualTo(18);
        assertThat(minimal.emptyStatuses()).containsExactlyInAnyOrder(204, 404);
        assertThat(minimal.resampling()).isEqualTo(TileSourceConfig.Resampling.BILINEAR);
        assertThat(minimal.retries()).isEqualTo(3);
        assertThat(minimal.upstream()).isEqualTo("tiles.example.com:443");
        assertThat(minimal.grid()).as("the layer's own").isNull();

        TileSourceConfig all = source(MINIMAL + """
                  tileSize: 512
                  zoom: {min: 2, max: 14}
                  emptyStatuses: [404, 410]
                  resampling: nearest
                  connectTimeout: 2s
                  timeout: 20s
                  retries: 1
                  retryDelay: 100ms
                  tileMatrixSet: WebMercatorQuad
            """);
        assertThat(all.tileSize()).isEqualTo(512);
        assertThat(all.grid()).isEqualTo(TileMatrixSet.WEB_MERCATOR_QUAD);
        assertThat(all.minZoom()).isEqualTo(2);
        assertThat(all.maxZoom()).isEqualTo(14);
        assertThat(all.emptyStatuses()).isEqualTo(Set.of(404, 410));
        assertThat(all.resampling()).isEqualTo(TileSourceConfig.Resampling.NEAREST);
        assertThat(all.timeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(all.retryDelay()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void theUrlOfATileInEachRowOrderAndAsAQuadkey() {
        TileSourceConfig xyz = config("http://h:8080/t/{z}/{x}/{y}.png");
        TileSourceConfig tms = config("http://h/tms/{z}/{x}/{-y}.png");
        TileSourceConfig bing = config("http://h/a{quadkey}.jpeg");
        assertThat(xyz.url(3, 2, 1, 8, DimensionValues.NONE)).isEqualTo("http://h:8080/t/3/2/1.png");
        assertThat(tms.url(3, 2, 1, 8, DimensionValues.NONE)).as("row 1 from the top is 6 from the bottom")
                .isEqualTo("http://h/tms/3/2/6.png");
        // Bing Maps Tile System's example: tile (3, 5) of level 3 is quadkey 213.
        assertThat(bing.url(3, 3, 5, 8, DimensionValues.NONE)).isEqualTo("http://h/a213.jpeg");
        assertThat(bing.url(0, 0, 0, 1, DimensionValues.NONE)).isEqualTo("http://h/a.jpeg");
        TileSourceConfig timed = config("http://h/{TIME}/{z}/{x}/{y}.png");
        assertThat(timed.url(1, 0, 1, 2, new DimensionValues(Map.of("TIME", "2026-11-26T12:05:00Z"))))
                .isEqualTo("http://h/2026-11-26T12:05:00Z/1/0/1.png");
        assertThat(xyz.upstream()).isEqualTo("h:8080");
        assertThat(timed.upstream()).as("a dimension's variable left in the template").isEqualTo("h:80");
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of("no tile in the url", MINIMAL.replace("{z}/{x}/{y}", "tiles"), "source.url",
                        "names no tile"),
                Arguments.of("no row", MINIMAL.replace("/{y}", ""), "source.url", "names no tile"),
                Arguments.of("an unknown variable", MINIMAL.replace("{z}/", "{z}/{s}/"), "source.url",
                        "{s} is not {z}, {x}, {y}, {-y}, {quadkey}"),
                Arguments.of("not http", MINIMAL.replace("https://", "ftp://"), "source.url", "http:// or https://"),
                Arguments.of("a tile size of 10", MINIMAL + "      tileSize: 10\n", "source.tileSize", "64..2048"),
                Arguments.of("zoom max below min", MINIMAL + "      zoom: {min: 5, max: 2}\n", "source.zoom",
                        "0 <= min <= max"),
                Arguments.of("status 200 as empty", MINIMAL + "      emptyStatuses: [200]\n",
                        "source.emptyStatuses", "200 is not an HTTP status other than 200"),
                Arguments.of("an unknown resampling", MINIMAL + "      resampling: cubic\n", "source.resampling",
                        "'cubic' is not nearest or bilinear"),
                Arguments.of("a wms key", MINIMAL + "      layers: [a]\n", "source.layers",
                        "another source's key"),
                Arguments.of("an unknown grid", MINIMAL + "      tileMatrixSet: GoogleMaps\n", "source.tileMatrixSet",
                        "unknown 'GoogleMaps'"),
                Arguments.of("a dimension the url does not name", MINIMAL + "    dimensions:\n"
                        + "      - {name: TIME}\n", "source.url", "names no {TIME}"),
                Arguments.of("a style", MINIMAL + "    style: [{fill: \"#000000\"}]\n", "style",
                        "styled by its upstream"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void eachMistakeNamesTheKey(String mistake, String yaml, String key, String what) throws Exception {
        Path file = write(yaml);
        assertThatThrownBy(() -> LayerCatalogFile.read(file)).as(mistake).isInstanceOf(LayerConfigException.class)
                .hasMessageContaining("layers[0] (osm)." + key).hasMessageContaining(what);
    }

    @Test
    void wmsAndVectorSourcesRefuseATileSourcesKeys() throws Exception {
        Path wms = write("""
                layers:
                  - name: osm
                    source: {type: wms, url: "http://h/wms", layers: [a], tileSize: 512}
                """);
        assertThatThrownBy(() -> LayerCatalogFile.read(wms)).hasMessageContaining("source.tileSize: a tile or wmts "
                + "source's key");
    }

    private static TileSourceConfig config(String template) {
        return new TileSourceConfig(template, 256, 0, 18, Set.of(404), TileSourceConfig.Resampling.BILINEAR,
                Duration.ofSeconds(5), Duration.ofSeconds(60), 3, Duration.ofMillis(500));
    }

    private TileSourceConfig source(String yaml) throws Exception {
        return (TileSourceConfig) LayerCatalogFile.read(write(yaml)).layer("osm").orElseThrow().source();
    }

    private Path write(String yaml) throws Exception {
        Path file = dir.resolve("layers.yaml");
        Files.writeString(file, yaml, StandardCharsets.UTF_8);
        return file;
    }
}
