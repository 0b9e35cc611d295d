package io.tileseeder.layer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.TileFormat;
import java.awt.Color;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class LayerCatalogFileTest {

    /** The smallest layer the format accepts. */
    private static final String MINIMAL = """
            layers:
              - name: good
                source:
                  type: vector
                  data: [data/land.geojson]
                style:
                  - fill: "#f2efe9"
            """;

    @TempDir
    Path dir;

    @Test
    void theBundledCatalogueLoads() {
        LayerCatalogConfig catalog = LayerCatalogFile.bundled();

        assertThat(catalog.source()).isEqualTo("classpath:layers/layers.yaml");
        assertThat(catalog.layers()).extracting(LayerConfig::name).containsExactly("world");
        LayerConfig world = catalog.layer("world").orElseThrow();
        assertThat(world.minZoom()).isZero();
        assertThat(world.maxZoom()).isEqualTo(14);
        assertThat(world.tileMatrixSets()).as("every well-known set").hasSize(67)
                .containsExactlyInAnyOrderElementsOf(TileMatrixSet.wellKnown());
        assertThat(world.formats()).isEqualTo(Set.of(TileFormat.values()));
        assertThat(world.metatile()).isEqualTo(new MetatileSize(4, 4));
        assertThat(world.gutter()).isEqualTo(16);
        assertThat(world.coverages()).containsOnlyKeys("africa");
        assertThat(world.emptyTiles()).isEqualTo(EmptyTilePolicy.SKIP);
        assertThat(vector(world).data()).containsExactly(LayerConfig.DataFile.resource("layers/world/countries.geojson"));
        assertThat(vector(world).style()).isNotEmpty().allSatisfy(rule -> {
            assertThat(rule.fill()).isEqualTo(new Color(0xf2efe9));
            assertThat(rule.stroke()).isEqualTo(new Color(0x9a8c98));
            assertThat(rule.opacity()).isEqualTo(1f);
        });
        assertThat(vector(world).style().stream().filter(rule -> rule.appliesTo(0)).count()).isEqualTo(1);
        assertThat(vector(world).style().stream().filter(rule -> rule.appliesTo(14)).count()).isEqualTo(1);
        assertThat(world.attribution()).contains("Natural Earth");
        assertThat(catalog.find("world")).hasValue(world.info());
        assertThat(catalog.find("nope")).isEmpty();
        assertThat(catalog.all()).extracting(LayerInfo::name).containsExactly("world");
        assertThat(LayerCatalogFile.class.getClassLoader().getResource("layers/world/countries.geojson"))
                .as("the bundled data").isNotNull();
    }

    @Test
    void aMinimalLayerGetsTheDocumentedDefaults() throws Exception {
        Path file = write(MINIMAL);

        LayerConfig layer = LayerCatalogFile.read(file).layer("good").orElseThrow();

        assertThat(layer.title()).isEqualTo("good");
        assertThat(layer.attribution()).isEmpty();
        assertThat(layer.minZoom()).isZero();
        assertThat(layer.maxZoom()).isEqualTo(18);
        assertThat(layer.tileMatrixSets()).isEqualTo(Set.copyOf(TileMatrixSet.builtIn()));
        assertThat(layer.formats()).isEqualTo(Set.of(TileFormat.values()));
        assertThat(layer.metatile()).isEqualTo(MetatileSize.DEFAULT);
        assertThat(layer.gutter()).isEqualTo(16);
        assertThat(layer.emptyTiles()).isEqualTo(EmptyTilePolicy.SKIP);
        assertThat(layer.background()).isEqualTo(Color.WHITE);
        assertThat(layer.pngLevel()).as("the documented default").isEqualTo(1);
        assertThat(layer.jpegQuality()).isEqualTo(0.85f);
        assertThat(layer.webpQuality()).isEqualTo(0.75f);
        assertThat(vector(layer).data()).containsExactly(LayerConfig.DataFile.file(dir.resolve("data/land.geojson")
                .toAbsolutePath().normalize()));
        assertThat(vector(layer).style()).containsExactly(new StyleRule(0, TileMatrixSet.MAX_ZOOM, new Color(0xf2efe9), null,
                1f, 1f));
    }

    @Test
    void everyKeyIsRead() throws Exception {
        Path file = write("""
                layers:
                  - name: roads_2-b
                    title: Roads
                    attribution: me
                    zoom: {min: 3, max: 9}
                    tileMatrixSets: [WorldCRS84Quad]
                    formats: [jpeg]
                    metatile: {width: 2, height: 8}
                    gutter: 0
                    emptyTiles: STORE
                    background: "#11223344"
                    pngLevel: 9
                    jpegQuality: 1
                    webpQuality: 0
                    source:
                      type: vector
                      data: [../shared/a.geojson, b.geojson]
                    style:
                      - zoom: {min: 5, max: 7}
                        stroke: "#0000ff"
                        strokeWidth: 2.5
                        opacity: 0.5
                """);

        LayerConfig layer = LayerCatalogFile.read(file).layer("roads_2-b").orElseThrow();

        assertThat(layer.title()).isEqualTo("Roads");
        assertThat(layer.attribution()).isEqualTo("me");
        assertThat(layer.minZoom()).isEqualTo(3);
        assertThat(layer.maxZoom()).isEqualTo(9);
        assertThat(layer.tileMatrixSets()).containsExactly(TileMatrixSet.WORLD_CRS84_QUAD);
        assertThat(layer.formats()).containsExactly(TileFormat.JPEG);
        assertThat(layer.metatile()).isEqualTo(new MetatileSize(2, 8));
        assertThat(layer.gutter()).isZero();
        assertThat(layer.emptyTiles()).isEqualTo(EmptyTilePolicy.STORE);
        assertThat(layer.background()).isEqualTo(new Color(0x11, 0x22, 0x33, 0x44));
        assertThat(layer.pngLevel()).isEqualTo(9);
        assertThat(layer.jpegQuality()).isEqualTo(1f);
        assertThat(layer.webpQuality()).isZero();
        Path folder = dir.toAbsolutePath();
        assertThat(vector(layer).data()).extracting(LayerConfig.DataFile::path).containsExactly(
                folder.getParent().resolve("shared/a.geojson"), folder.resolve("b.geojson"));
        assertThat(vector(layer).style()).containsExactly(new StyleRule(5, 7, null, new Color(0, 0, 255), 2.5f, 0.5f));
        assertThat(layer.info().metatile()).isEqualTo(new MetatileSize(2, 8));
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
                mistake("unknown key", "layers:\n  - name: good\n    colour: red\n", "'colour'"),
                mistake("unknown key in a style rule", MINIMAL.replace("fill: \"#f2efe9\"", "fil: \"#f2efe9\""),
                        "'fil'"),
                mistake("unknown top-level key", MINIMAL + "extra: 1\n", "'extra'"),
                mistake("bad fill colour", MINIMAL.replace("#f2efe9", "#f2efe"), "style[0].fill"),
                mistake("colour by name", MINIMAL.replace("\"#f2efe9\"", "white"), "style[0].fill"),
                mistake("bad background", withKey("background: \"#12345g\""), "background"),
                mistake("zoom min > max", withKey("zoom: {min: 5, max: 3}"), "zoom"),
                mistake("zoom max too deep", withKey("zoom: {min: 0, max: 25}"), "zoom"),
                mistake("negative zoom", withKey("zoom: {min: -1, max: 3}"), "zoom"),
                mistake("zoom not a number", withKey("zoom: {min: low, max: 3}"), "zoom.min"),
                mistake("unknown tile matrix set", withKey("tileMatrixSets: [GoogleMapsCompatible]"),
                        "tileMatrixSets"),
                mistake("no tile matrix set", withKey("tileMatrixSets: []"), "tileMatrixSets"),
                mistake("unknown format", withKey("formats: [gif]"), "formats"),
                mistake("metatile too big", withKey("metatile: {width: 17, height: 4}"), "metatile"),
                mistake("gutter too wide", withKey("gutter: 300"), "gutter"),
                mistake("unknown empty tile policy", withKey("emptyTiles: drop"), "emptyTiles"),
                mistake("png level", withKey("pngLevel: 10"), "pngLevel"),
                mistake("jpeg quality", withKey("jpegQuality: 0"), "jpegQuality"),
                mistake("webp quality", withKey("webpQuality: 1.01"), "webpQuality"),
                mistake("missing source", "layers:\n  - name: good\n    style:\n      - fill: \"#f2efe9\"\n",
                        "source"),
                mistake("unsupported source type", MINIMAL.replace("type: vector", "type: raster"), "source.type"),
                mistake("no data files", MINIMAL.replace("[data/land.geojson]", "[]"), "source.data"),
                mistake("no style", MINIMAL.replace("    style:\n      - fill: \"#f2efe9\"\n", ""), "style"),
                mistake("stroke too wide", MINIMAL.replace("fill: \"#f2efe9\"", "strokeWidth: 100"), "strokeWidth"),
                mistake("missing name", MINIMAL.replace("name: good", "title: good"), "name"),
                mistake("name with a slash", MINIMAL.replace("name: good", "name: a/b"), "name"),
                mistake("duplicate layer name", MINIMAL + MINIMAL.substring(MINIMAL.indexOf("  - name")),
                        "'good'"),
                mistake("no layers", "layers: []\n", "layers"),
                mistake("not YAML", "layers: [ {name: good, source: {type: vector\n", "parsing"),
                mistake("tab-indented", "layers:\n\t- name: good\n", "YAML"),
                mistake("an empty layer entry", "layers:\n  -\n", "layers[0]"),
                mistake("an empty style rule", MINIMAL.replace("      - fill: \"#f2efe9\"", "      -"),
                        "style[0]"),
                mistake("an empty data entry", MINIMAL.replace("[data/land.geojson]", "[~]"), "source.data"),
                mistake("bundled data that is not bundled", MINIMAL.replace("[data/land.geojson]",
                        "[classpath:layers/world/nowhere.geojson]"), "classpath:layers/world/nowhere.geojson"),
                mistake("a style rule whose zoom min > max", MINIMAL.replace("      - fill:",
                        "      - zoom: {min: 6, max: 2}\n        fill:"), "style[0]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void eachMistakeNamesTheFileAndTheKey(String mistake, String yaml, String key) throws Exception {
        Path file = write(yaml);

        assertThatThrownBy(() -> LayerCatalogFile.read(file))
                .as(mistake)
                .isInstanceOf(LayerConfigException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining(key);
    }

    @Test
    void aFileNamesBundledDataWithTheClasspathPrefixBesideItsOwn() throws Exception {
        Path file = write(MINIMAL.replace("[data/land.geojson]",
                "[classpath:layers/world/countries.geojson, data/land.geojson]"));

        LayerConfig layer = LayerCatalogFile.read(file).layer("good").orElseThrow();

        assertThat(vector(layer).data()).containsExactly(
                LayerConfig.DataFile.resource("layers/world/countries.geojson"),
                LayerConfig.DataFile.file(dir.resolve("data/land.geojson").toAbsolutePath().normalize()));
    }

    private static final String GRID = """
            {"id": "%s", "crs": "http://www.opengis.net/def/crs/EPSG/0/2056", "orderedAxes": ["E", "N"],
             "tileMatrices": [{"id": "0", "cellSize": %s, "pointOfOrigin": [2420000, 1350000], "tileWidth": 256,
              "tileHeight": 256, "matrixWidth": 8, "matrixHeight": 5}]}""";

    @Test
    void aLayerOffersASetFromAnOgcJsonFileAndAnyWellKnownSet() throws Exception {
        Files.createDirectories(dir.resolve("grids"));
        Files.writeString(dir.resolve("grids/lv95.json"), GRID.formatted("LayerFileLv95", "250"));
        Path file = write("tileMatrixSetFiles: [grids/lv95.json]\n"
                + MINIMAL.replace("    source:", "    tileMatrixSets: [LayerFileLv95, UTM32WGS84Quad]\n    source:"));

        LayerConfig layer = LayerCatalogFile.read(file).layer("good").orElseThrow();

        assertThat(layer.tileMatrixSets()).extracting(TileMatrixSet::id)
                .containsExactlyInAnyOrder("LayerFileLv95", "UTM32WGS84Quad");
        assertThat(TileMatrixSet.byId("LayerFileLv95").orElseThrow().crs()).isEqualTo("EPSG:2056");
    }

    @Test
    void aBadSetFileStopsTheLoadNamingTheLayersFileTheSetFileAndTheMatrix() throws Exception {
        Files.writeString(dir.resolve("bad.json"), GRID.formatted("LayerFileBad", "-1"));
        Path file = write("tileMatrixSetFiles: [bad.json]\n" + MINIMAL);

        assertThatThrownBy(() -> LayerCatalogFile.read(file)).isInstanceOf(LayerConfigException.class)
                .hasMessageContaining(file + ": tileMatrixSetFiles[0]")
                .hasMessageContaining("bad.json: tile matrix set LayerFileBad, matrix 0: 'cellSize' must be a positive");
    }

    @Test
    void aMissingSetFileOrAnUnknownSetIsNamed() throws Exception {
        Path missing = write("tileMatrixSetFiles: [nowhere.json]\n" + MINIMAL);
        assertThatThrownBy(() -> LayerCatalogFile.read(missing)).isInstanceOf(LayerConfigException.class)
                .hasMessageContaining("tileMatrixSetFiles[0]: cannot read").hasMessageContaining("nowhere.json");

        Path unknown = write(MINIMAL.replace("    source:", "    tileMatrixSets: [NoSuchGrid]\n    source:"));
        assertThatThrownBy(() -> LayerCatalogFile.read(unknown)).isInstanceOf(LayerConfigException.class)
                .hasMessageContaining("tileMatrixSets: unknown 'NoSuchGrid'")
                .hasMessageContaining("or one of tileMatrixSetFiles");
    }

    @Test
    void theLayerInWhichAMistakeIsIsNamed() throws Exception {
        Path file = write(MINIMAL + """
                  - name: second
                    gutter: -1
                    source: {type: vector, data: [x.geojson]}
                    style: [{fill: "#000000"}]
                """);

        assertThatThrownBy(() -> LayerCatalogFile.read(file)).isInstanceOf(LayerConfigException.class)
                .hasMessageContaining("layers[1]").hasMessageContaining("second").hasMessageContaining("gutter");
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = dir.resolve("nowhere.yaml");

        assertThatThrownBy(() -> LayerCatalogFile.read(missing)).isInstanceOf(LayerConfigException.class)
                .hasMessageContaining(missing.toString());
    }

    @Test
    void binaryJunkIsNotACatalogue() throws Exception {
        Path file = dir.resolve("layers.yaml");
        Files.write(file, new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 0, 0, 13, (byte) 0xff, (byte) 0xfe, 0, 1});

        assertThatThrownBy(() -> LayerCatalogFile.read(file)).isInstanceOf(LayerConfigException.class)
                .hasMessageContaining(file.toString());
    }

    /** What the YAML parser and Jackson report is said in the file's words: no Java type, class or setting. */
    @Test
    void mistakesAreSaidInTheFilesWordsNotJavas() throws Exception {
        Files.createDirectories(dir.resolve("areas"));
        Files.writeString(dir.resolve("areas/cut.geojson"), "{\"type\":\"Polygon\",\"coordinates\":[[[10,10],[20,");

        assertInTheFilesWords(withKey("zoom: {min: low, max: 3}"), "layers[0].zoom.min: 'low' is not a whole number");
        assertInTheFilesWords(withKey("zoom: {min: 0, max: [3]}"), "layers[0].zoom.max: must be a whole number");
        assertInTheFilesWords(withKey("coverages: {cut: areas/cut.geojson}"), "coverages.cut: "
                + dir.resolve("areas/cut.geojson") + " cannot be read: the GeoJSON ends early at line 1, column 47");
        assertInTheFilesWords("layers: [ {name: good, source: {type: vector\n", "is not valid YAML: ");
        assertThatThrownBy(() -> LayerCatalogFile.read(dir))
                .hasMessage("layer configuration " + dir + " is a folder, not a YAML file");
    }

    private void assertInTheFilesWords(String yaml, String ending) throws Exception {
        Path file = write(yaml);

        assertThatThrownBy(() -> LayerCatalogFile.read(file)).message().startsWith(file.toString())
                .contains(ending).doesNotContainPattern("java\\.|`|REDACTED|\\[Source|Cannot deserialize|Exception");
    }

    private static Arguments mistake(String name, String yaml, String key) {
        return Arguments.of(name, yaml, key);
    }

    @Test
    void aLayersCoveragesAreReadAtLoadAndABadOneStopsItNamingTheFile() throws Exception {
        Files.createDirectories(dir.resolve("areas"));
        Files.writeString(dir.resolve("areas/square.geojson"),
                "{\"type\":\"Polygon\",\"coordinates\":[[[10,10],[20,10],[20,20],[10,20],[10,10]]]}");
        Files.writeString(dir.resolve("areas/line.geojson"), "{\"type\":\"LineString\",\"coordinates\":[[0,0],[1,1]]}");

        LayerConfig layer = LayerCatalogFile.read(write(withKey("coverages: {square: areas/square.geojson}")))
                .layer("good").orElseThrow();
        assertThat(layer.coverages()).containsOnlyKeys("square");
        assertThat(layer.info().coverages().get("square")).contains("Polygon");

        Path bad = write(withKey("coverages: {line: areas/line.geojson}"));
        assertThatThrownBy(() -> LayerCatalogFile.read(bad)).isInstanceOf(LayerConfigException.class)
                .hasMessageContaining("coverages.line").hasMessageContaining(dir.resolve("areas/line.geojson").toString())
                .hasMessageContaining("holds a LineString, which has no area");
        Path missing = write(withKey("coverages: {gone: areas/gone.geojson}"));
        assertThatThrownBy(() -> LayerCatalogFile.read(missing)).isInstanceOf(LayerConfigException.class)
                .hasMessageContaining("coverages.gone").hasMessageContaining("no such file");
        Path badName = write(withKey("coverages: {\"a b\": areas/square.geojson}"));
        assertThatThrownBy(() -> LayerCatalogFile.read(badName)).isInstanceOf(LayerConfigException.class)
                .hasMessageContaining("'a b'");
    }

    /** The minimal layer with one more key. */
    private static String withKey(String line) {
        return MINIMAL.replace("    source:", "    " + line + "\n    source:");
    }

    @Test
    void theConfigurationHashFollowsTheLayersOwnEntryOnly() throws Exception {
        String hash = LayerCatalogFile.read(write(MINIMAL)).layer("good").orElseThrow().configHash();
        assertThat(hash).matches("[0-9a-f]{64}");
        assertThat(LayerCatalogFile.read(write(MINIMAL)).layer("good").orElseThrow().configHash()).isEqualTo(hash);

        String reordered = """
                # the same entry, its keys in another order, beside another layer
                layers:
                  - style:
                      - fill: "#f2efe9"
                    source:
                      data: [data/land.geojson]
                      type: vector
                    name: good
                  - name: other
                    source:
                      type: vector
                      data: [data/land.geojson]
                    style:
                      - fill: "#000000"
                """;
        assertThat(LayerCatalogFile.read(write(reordered)).layer("good").orElseThrow().configHash()).isEqualTo(hash);

        String restyled = MINIMAL.replace("#f2efe9", "#f2efe8");
        assertThat(LayerCatalogFile.read(write(restyled)).layer("good").orElseThrow().configHash()).isNotEqualTo(hash);
        assertThat(LayerCatalogFile.read(write(restyled)).layer("good").orElseThrow().info().configHash())
                .isNotEqualTo(hash);
    }

    private Path write(String yaml) throws Exception {
        Path file = dir.resolve("layers.yaml");
        Files.writeString(file, yaml, StandardCharsets.UTF_8);
        return file;
    }

    private static VectorSourceConfig vector(LayerConfig layer) {
        return (VectorSourceConfig) layer.source();
    }
}
