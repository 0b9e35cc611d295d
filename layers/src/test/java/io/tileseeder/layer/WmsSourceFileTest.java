package io.tileseeder.layer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.grid.MetatileSize;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code source: {type: wms, ...}} of a layer file, read through {@link LayerCatalogFile#read(Path)}. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class WmsSourceFileTest {

    private static final String LAYER = "relief";

    /** The smallest wms layer the format accepts. */
    private static final String MINIMAL = """
            layers:
              - name: relief
                source:
                  type: wms
                  url: http://maps.example.com/wms
                  layers: [relief]
            """;

    @TempDir
    Path dir;

    @Test
    void everyKeyIsRead() throws Exception {
        Path file = write("""
                layers:
                  - name: relief
                    metatile: {width: 2, height: 3}
                    gutter: 8
                    source:
                      type: wms
                      url: https://maps.example.com:8443/cgi-bin/mapserv?map=/srv/world.map
                      version: 1.1.1
                      layers: [countries, borders]
                      styles: [default, thin]
                      format: image/jpeg
                      transparent: false
                      params: {map_resolution: "96", format_options: "dpi:96"}
                      connectTimeout: 2s
                      timeout: 30s
                      retries: 5
                      retryDelay: 250ms
                      maxSize: {width: 2048, height: 1024}
                """);

        LayerConfig layer = LayerCatalogFile.read(file).layer(LAYER).orElseThrow();

        assertThat(layer.source()).isEqualTo(new WmsSourceConfig(
                URI.create("https://maps.example.com:8443/cgi-bin/mapserv?map=/srv/world.map"), "1.1.1",
                List.of("countries", "borders"), List.of("default", "thin"), "image/jpeg", false,
                Map.of("map_resolution", "96", "format_options", "dpi:96"), Duration.ofSeconds(2),
                Duration.ofSeconds(30), 5, Duration.ofMillis(250), 2048, 1024));
        assertThat(wms(layer).upstream()).isEqualTo("maps.example.com:8443");
        assertThat(layer.metatile()).isEqualTo(new MetatileSize(2, 3));
        assertThat(layer.gutter()).isEqualTo(8);
        // (2048 - 16) / 256 = 7 wide, (1024 - 16) / 256 = 3 high
        assertThat(layer.info().maxMetatile()).isEqualTo(new MetatileSize(7, 3));
    }

    @Test
    void onlyUrlAndLayersGetTheDocumentedDefaults() throws Exception {
        LayerConfig layer = LayerCatalogFile.read(write(MINIMAL)).layer(LAYER).orElseThrow();

        assertThat(layer.source()).isEqualTo(new WmsSourceConfig(URI.create("http://maps.example.com/wms"), "1.3.0",
                List.of("relief"), List.of(), "image/png", true, Map.of(), Duration.ofSeconds(5),
                Duration.ofSeconds(60), 3, Duration.ofMillis(500), 4096, 4096));
        assertThat(wms(layer).upstream()).isEqualTo("maps.example.com:80");
        assertThat(layer.metatile()).isEqualTo(MetatileSize.DEFAULT);
        assertThat(layer.gutter()).isEqualTo(16);
        // (4096 - 32) / 256 = 15
        assertThat(layer.info().maxMetatile()).isEqualTo(new MetatileSize(15, 15));
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
                mistake("missing url", MINIMAL.replace("      url: http://maps.example.com/wms\n", ""),
                        "source.url"),
                mistake("blank url", MINIMAL.replace("http://maps.example.com/wms", "\"  \""), "source.url"),
                mistake("ftp url", MINIMAL.replace("http://maps.example.com/wms", "ftp://maps.example.com/wms"),
                        "source.url"),
                mistake("url without a host", MINIMAL.replace("http://maps.example.com/wms", "http:/wms"),
                        "source.url"),
                mistake("url that does not parse", MINIMAL.replace("http://maps.example.com/wms",
                        "\"http://maps example.com/wms\""), "source.url"),
                mistake("version 1.0.0", withSourceKey("version: 1.0.0"), "source.version"),
                mistake("empty layers", MINIMAL.replace("layers: [relief]", "layers: []"), "source.layers"),
                mistake("no layers", MINIMAL.replace("      layers: [relief]\n", ""), "source.layers"),
                mistake("a layer name with a comma", MINIMAL.replace("layers: [relief]", "layers: [\"a,b\"]"),
                        "source.layers"),
                mistake("a blank layer name", MINIMAL.replace("layers: [relief]", "layers: [\" \"]"),
                        "source.layers"),
                mistake("one style for two layers", MINIMAL.replace("layers: [relief]",
                        "layers: [relief, roads]\n      styles: [default]"), "source.styles"),
                mistake("a style name with a comma", withSourceKey("styles: [\"a,b\"]"), "source.styles"),
                mistake("format text/plain", withSourceKey("format: text/plain"), "source.format"),
                mistake("params overriding BBOX in lower case", withSourceKey("params: {bbox: \"0,0,1,1\"}"),
                        "source.params: 'bbox'"),
                mistake("params overriding Layers", withSourceKey("params: {Layers: other}"),
                        "source.params: 'Layers'"),
                mistake("a parameter without a value", withSourceKey("params: {map_resolution: ~}"),
                        "source.params"),
                mistake("retries 11", withSourceKey("retries: 11"), "source.retries"),
                mistake("retries -1", withSourceKey("retries: -1"), "source.retries"),
                mistake("timeout abc", withSourceKey("timeout: abc"), "source.timeout"),
                mistake("timeout 0", withSourceKey("timeout: 0s"), "source.timeout"),
                mistake("connectTimeout abc", withSourceKey("connectTimeout: abc"), "source.connectTimeout"),
                mistake("retryDelay abc", withSourceKey("retryDelay: abc"), "source.retryDelay"),
                mistake("maxSize 0", withSourceKey("maxSize: {width: 0, height: 2048}"), "source.maxSize"),
                mistake("maxSize too large", withSourceKey("maxSize: {width: 2048, height: 70000}"),
                        "source.maxSize"),
                mistake("data on a wms source", withSourceKey("data: [x.geojson]"), "source.data"),
                mistake("style on a wms layer", MINIMAL + "    style:\n      - fill: \"#000000\"\n", "style"),
                mistake("not one tile fits maxSize", withSourceKey("maxSize: {width: 200, height: 200}"),
                        "metatile"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void eachMistakeNamesTheFileTheLayerAndTheKey(String mistake, String yaml, String key) throws Exception {
        Path file = write(yaml);

        assertThatThrownBy(() -> LayerCatalogFile.read(file))
                .as(mistake)
                .isInstanceOf(LayerConfigException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("layers[0] (" + LAYER + ")." + key);
    }

    @Test
    void anUnknownSourceKeyIsNamedWithTheKnownOnes() throws Exception {
        Path file = write(withSourceKey("lyrs: relief"));

        assertThatThrownBy(() -> LayerCatalogFile.read(file))
                .isInstanceOf(LayerConfigException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("'lyrs'")
                .hasMessageContaining("layers[0].source")
                .hasMessageContaining("retryDelay");
    }

    /** A key of another source type, {@code layer} of a wmts source beside a wms source's {@code layers}. */
    @Test
    void anotherSourcesKeyIsNamed() throws Exception {
        Path file = write(withSourceKey("layer: relief"));

        assertThatThrownBy(() -> LayerCatalogFile.read(file)).isInstanceOf(LayerConfigException.class)
                .hasMessageContaining("layers[0] (relief).source.layer: a tile or wmts source's key");
    }

    @Test
    void wmsKeysOnAVectorSourceAreRefused() throws Exception {
        Path file = write("""
                layers:
                  - name: land
                    source:
                      type: vector
                      data: [land.geojson]
                      url: http://maps.example.com/wms
                    style:
                      - fill: "#f2efe9"
                """);

        assertThatThrownBy(() -> LayerCatalogFile.read(file))
                .isInstanceOf(LayerConfigException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("layers[0] (land).source: url,");
    }

    @Test
    void aMetatileWhoseGetMapIsLargerThanMaxSizeIsRefused() throws Exception {
        Path file = write(withMetatile(8, 16, 2048));

        assertThatThrownBy(() -> LayerCatalogFile.read(file))
                .isInstanceOf(LayerConfigException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("layers[0] (" + LAYER + ")")
                .hasMessageContaining("metatile")
                .hasMessageContaining("2080x2080")
                .hasMessageContaining("2048x2048");
    }

    @Test
    void aMetatileWhoseGetMapIsExactlyMaxSizeFits() throws Exception {
        LayerConfig layer = LayerCatalogFile.read(write(withMetatile(8, 0, 2048))).layer(LAYER).orElseThrow();

        assertThat(layer.metatile()).isEqualTo(new MetatileSize(8, 8));
        assertThat(layer.info().maxMetatile()).isEqualTo(new MetatileSize(8, 8));
    }

    @Test
    void theLargestMetatileAJobMayAskForLeavesRoomForTheGutter() throws Exception {
        LayerConfig layer = LayerCatalogFile.read(write(withMetatile(4, 16, 2048))).layer(LAYER).orElseThrow();

        // 7 × 256 + 2 × 16 = 1824 fits in 2048; 8 × 256 + 32 = 2080 does not
        assertThat(layer.info().maxMetatile()).isEqualTo(new MetatileSize(7, 7));
        assertThat(LayerConfig.maxMetatile(layer.source(), 16)).hasValue(new MetatileSize(7, 7));
    }

    @Test
    void aVectorLayerTakesAnyMetatileUpToTheLargest() throws Exception {
        VectorSourceConfig vector = new VectorSourceConfig(List.of(), List.of());

        assertThat(LayerConfig.maxMetatile(vector, 256))
                .hasValue(new MetatileSize(MetatileSize.MAX_SIDE, MetatileSize.MAX_SIDE));
    }

    private static Arguments mistake(String name, String yaml, String key) {
        return Arguments.of(name, yaml, key);
    }

    /** The minimal layer with one more key in its source. */
    private static String withSourceKey(String line) {
        return MINIMAL + "      " + line + "\n";
    }

    /** The minimal layer with a square metatile, a gutter and a square maxSize. */
    private static String withMetatile(int side, int gutter, int maxSize) {
        return MINIMAL.replace("    source:", "    metatile: {width: " + side + ", height: " + side + "}\n"
                + "    gutter: " + gutter + "\n    source:")
                + "      maxSize: {width: " + maxSize + ", height: " + maxSize + "}\n";
    }

    private Path write(String yaml) throws Exception {
        Path file = dir.resolve("layers.yaml");
        Files.writeString(file, yaml, StandardCharsets.UTF_8);
        return file;
    }

    private static WmsSourceConfig wms(LayerConfig layer) {
        return (WmsSourceConfig) layer.source();
    }
}
