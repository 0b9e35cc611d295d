package io.tileseeder.layer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.job.Dimension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code dimensions:} of a layer in the layers file, read through {@link LayerCatalogFile#read(Path)}. */
class LayerDimensionsFileTest {

    private static final String RADAR = """
            layers:
              - name: radar
                source:
                  type: wms
                  url: http://maps.example.com/wms
                  layers: [radar]
                  params: {map_resolution: "96"}
                dimensions:
            """;

    @TempDir
    Path dir;

    @Test
    void everyKindIsReadInTheOrderDeclared() throws Exception {
        LayerConfig layer = LayerCatalogFile.read(write(RADAR + """
                  - name: TIME
                    values: ["2026-11-26T00:00Z/2026-11-26T23:55Z/PT5M"]
                    default: "2026-11-26T13:05:00+01:00"
                    retention: {keep: 288, newerThan: P1D}
                  - name: elevation
                    values: [0/1000/250, 5000]
                  - name: STYLES
                    values: [default, night]
                    default: night
                  - name: CQL_FILTER
                    pattern: "network='[a-z]+'"
                    retention: {keep: 3}
            """)).layer("radar").orElseThrow();

        List<Dimension> dimensions = layer.dimensions();
        assertThat(dimensions).extracting(Dimension::name).containsExactly("TIME", "elevation", "STYLES",
                "CQL_FILTER");
        assertThat(dimensions).extracting(Dimension::kind).containsExactly(Dimension.Kind.TIME,
                Dimension.Kind.NUMBER, Dimension.Kind.TEXT, Dimension.Kind.TEXT);
        assertThat(dimensions.get(0).allowed()).containsExactly("2026-11-26T00:00:00Z/2026-11-26T23:55:00Z/PT5M");
        assertThat(dimensions.get(0).defaultValue()).isEqualTo("2026-11-26T12:05:00Z");
        assertThat(dimensions.get(1).defaultValue()).isNull();
        assertThat(dimensions.get(2).defaultValue()).isEqualTo("night");
        assertThat(dimensions.get(3).pattern().pattern()).isEqualTo("network='[a-z]+'");
        assertThat(dimensions.get(0).retention()).isEqualTo(new Dimension.Retention(288, java.time.Duration.ofDays(1)));
        assertThat(dimensions.get(1).retention()).isNull();
        assertThat(dimensions.get(3).retention()).isEqualTo(new Dimension.Retention(3, null));
        assertThat(layer.info().dimensions()).isEqualTo(dimensions);
    }

    @Test
    void theDimensionsArePartOfTheLayersConfigurationHash() throws Exception {
        String one = LayerCatalogFile.read(write(RADAR + "      - {name: STYLES, values: [a, b]}\n"))
                .layer("radar").orElseThrow().configHash();
        String other = LayerCatalogFile.read(write(RADAR + "      - {name: STYLES, values: [a, c]}\n"))
                .layer("radar").orElseThrow().configHash();
        assertThat(one).isNotEqualTo(other);
    }

    static Stream<Arguments> mistakes() {
        String vector = """
                layers:
                  - name: radar
                    source: {type: vector, data: ["classpath:layers/world/countries.geojson"]}
                    style: [{fill: "#000000"}]
                    dimensions:
                      - {name: TIME}
                """;
        return Stream.of(
                Arguments.of("on a vector layer", vector, "dimensions", "only a wms or tile layer"),
                Arguments.of("no name", RADAR + "      - {values: [a]}\n", "dimensions[0]", "name: required"),
                Arguments.of("a GetMap parameter", RADAR + "      - {name: bbox, values: [a]}\n", "dimensions[0]",
                        "bbox is a GetMap parameter the seeder sets itself"),
                Arguments.of("declared twice", RADAR + "      - {name: TIME}\n      - {name: time}\n",
                        "dimensions[1]", "time is declared twice"),
                Arguments.of("one of params", RADAR + "      - {name: MAP_RESOLUTION, values: [\"72\"]}\n",
                        "dimensions[0]", "also one of source.params"),
                Arguments.of("an unknown type", RADAR + "      - {name: DIM_X, type: date}\n",
                        "dimensions[0].type", "'date' is not time, number or text"),
                Arguments.of("a text dimension without values", RADAR + "      - {name: DIM_X}\n", "dimensions[0]",
                        "needs its allowed values"),
                Arguments.of("a pattern that is not one", RADAR + "      - {name: DIM_X, pattern: \"(\"}\n",
                        "dimensions[0]", "not a regular expression"),
                Arguments.of("a default outside the values", RADAR
                        + "      - {name: STYLES, values: [a], default: b}\n", "dimensions[0]", "'b' is not one of a"),
                Arguments.of("a time without an offset", RADAR + "      - {name: TIME, values: [\"2026-11-26T12:00\"]}\n",
                        "dimensions[0]", "has no UTC offset"),
                Arguments.of("a name that is no parameter", RADAR + "      - {name: \"a b\", values: [x]}\n",
                        "dimensions[0]", "not a request parameter name"),
                Arguments.of("a retention of nothing", RADAR + "      - {name: TIME, retention: {keep: 0}}\n",
                        "dimensions[0].retention", "keeps a positive number"),
                Arguments.of("a retention duration that is not one", RADAR
                        + "      - {name: TIME, retention: {newerThan: 1d}}\n", "dimensions[0].retention.newerThan",
                        "'1d' is not an ISO 8601 duration"),
                Arguments.of("a retention duration of a text dimension", RADAR
                        + "      - {name: STYLES, values: [a], retention: {newerThan: P1D}}\n", "dimensions[0]",
                        "newerThan is for a time dimension"),
                Arguments.of("five of them", RADAR + "      - {name: A, values: [a]}\n      - {name: B, values: [a]}\n"
                        + "      - {name: C, values: [a]}\n      - {name: D, values: [a]}\n"
                        + "      - {name: E, values: [a]}\n", "dimensions", "at most 4"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void eachMistakeNamesTheLayerTheDimensionAndWhatIsWrong(String mistake, String yaml, String key, String what)
            throws Exception {
        Path file = write(yaml);
        assertThatThrownBy(() -> LayerCatalogFile.read(file)).as(mistake)
                .isInstanceOf(LayerConfigException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("layers[0] (radar)." + key)
                .hasMessageContaining(what);
    }

    private Path write(String yaml) throws Exception {
        Path file = dir.resolve("layers.yaml");
        Files.writeString(file, yaml, StandardCharsets.UTF_8);
        return file;
    }
}
