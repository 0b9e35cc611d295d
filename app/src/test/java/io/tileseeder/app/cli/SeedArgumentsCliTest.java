package io.tileseeder.app.cli;

import static io.tileseeder.app.cli.Cli.describe;
import static io.tileseeder.app.cli.Cli.errLines;
import static io.tileseeder.app.cli.Cli.errorLines;
import static io.tileseeder.app.cli.Cli.files;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input to {@code seeder seed}: every case exits 1 with the reason on one {@code error:} line on stderr
 * (docs/getting-started.md: "1 bad usage or a refused request (with the reason on one line)"), prints no summary and writes
 * nothing. In the arguments, {@code {dir}} stands for the test's
 * temporary folder, which holds the layer files the cases write.
 */
@QuarkusMainTest
class SeedArgumentsCliTest {

    /** A layer file with a YAML syntax mistake: a quoted string that is never closed. */
    private static final String BROKEN_YAML = """
            layers:
              - name: world
                title: "World countries
                source:
                  type: vector
                  data: [countries.geojson]
            """;

    /** A layer file that is valid YAML with a key the format does not have. */
    private static final String UNKNOWN_KEY = """
            layers:
              - name: world
                source:
                  type: vector
                  data: [countries.geojson]
                style:
                  - colour: "#ff0000"
            """;

    @TempDir
    Path dir;

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of("unknown layer", List.of("--layer", "atlantis", "--zoom", "0-1"),
                        List.of("layer", "unknown layer 'atlantis'", "world")),
                Arguments.of("no zoom", List.of("--layer", "world"), List.of("Missing required option: '--zoom")),
                Arguments.of("mode pack", List.of("--layer", "world", "--mode", "pack"),
                        List.of("--mode pack", "seeder pack CACHE ARCHIVE.pmtiles", "seeder submit --mode pack")),
                Arguments.of("zoom beyond the layer's", List.of("--layer", "world", "--zoom", "0-20"),
                        List.of("zoom", "20", "0..14")),
                Arguments.of("zoom not a range", List.of("--layer", "world", "--zoom", "x"),
                        List.of("--zoom", "'x'", "zoom range")),
                Arguments.of("zoom below 0", List.of("--layer", "world", "--zoom", "-1-3"),
                        List.of("zoom.min", "-1", "0..14")),
                Arguments.of("zoom too large to be a number", List.of("--layer", "world", "--zoom", "0-99999999999"),
                        List.of("--zoom", "99999999999", "0..24")),
                Arguments.of("bbox of three numbers", List.of("--layer", "world", "--zoom", "0", "--bbox", "1,2,3"),
                        List.of("bbox", "four numbers")),
                Arguments.of("bbox not numbers", List.of("--layer", "world", "--zoom", "0", "--bbox", "a,b,c,d"),
                        List.of("--bbox", "'a,b,c,d'")),
                Arguments.of("unknown tile matrix set",
                        List.of("--layer", "world", "--zoom", "0", "--tile-matrix-set", "Mars"),
                        List.of("tileMatrixSet", "'Mars'")),
                Arguments.of("unknown format", List.of("--layer", "world", "--zoom", "0", "--format", "gif"),
                        List.of("format", "'gif'")),
                Arguments.of("metatile not a size", List.of("--layer", "world", "--zoom", "0", "--metatile", "4"),
                        List.of("--metatile", "'4'", "4x4")),
                Arguments.of("refresh-before not an instant",
                        List.of("--layer", "world", "--zoom", "0", "--mode", "reseed", "--refresh-before", "yesterday"),
                        List.of("--refresh-before", "yesterday")),
                Arguments.of("no --layer", List.of("--zoom", "0-1"),
                        List.of("--layer")),
                Arguments.of("no threads", List.of("--layer", "world", "--zoom", "0", "--threads", "0"),
                        List.of("--threads", "at least 1")),
                Arguments.of("timeout not a duration", List.of("--layer", "world", "--zoom", "0", "--timeout", "abc"),
                        List.of("--timeout", "'abc'")),
                Arguments.of("layers file missing",
                        List.of("--layers", "{dir}/nowhere.yaml", "--layer", "world", "--zoom", "0"),
                        List.of("{dir}/nowhere.yaml", "does not exist")),
                Arguments.of("layers file not YAML",
                        List.of("--layers", "{dir}/broken.yaml", "--layer", "world", "--zoom", "0"),
                        List.of("{dir}/broken.yaml")),
                Arguments.of("layers file with an unknown key",
                        List.of("--layers", "{dir}/unknown-key.yaml", "--layer", "world", "--zoom", "0"),
                        List.of("{dir}/unknown-key.yaml", "unknown key 'colour'")),
                Arguments.of("coverage file missing",
                        List.of("--layer", "world", "--zoom", "0", "--coverage", "{dir}/nowhere.geojson"),
                        List.of("--coverage", "{dir}/nowhere.geojson", "no such file")),
                Arguments.of("coverage file not JSON",
                        List.of("--layer", "world", "--zoom", "0", "--coverage", "{dir}/broken.yaml"),
                        List.of("--coverage", "{dir}/broken.yaml", "the GeoJSON is malformed at line 1")),
                Arguments.of("coverage file cut short",
                        List.of("--layer", "world", "--zoom", "0", "--coverage", "{dir}/cut.geojson"),
                        List.of("--coverage: {dir}/cut.geojson: the GeoJSON ends early at line 1, column ")),
                Arguments.of("coverage file of a line",
                        List.of("--layer", "world", "--zoom", "0", "--coverage", "{dir}/line.geojson"),
                        List.of("coverage", "holds a LineString, which has no area")),
                Arguments.of("unknown layer coverage",
                        List.of("--layer", "world", "--zoom", "0", "--coverage", "europe"),
                        List.of("coverage", "no coverage 'europe'", "africa")),
                Arguments.of("tile list missing", List.of("--layer", "world", "--zoom", "0", "--tiles", "{dir}/none"),
                        List.of("--tiles", "{dir}/none", "no such file")),
                Arguments.of("tile list with a bad line",
                        List.of("--layer", "world", "--zoom", "0", "--tiles", "{dir}/bad.list"),
                        List.of("tiles", "line 2", "'14/1'")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInput")
    void badInputExits1WithOneErrorLine(String name, List<String> args, List<String> expected,
                                        QuarkusMainLauncher launcher) throws IOException {
        Files.writeString(dir.resolve("broken.yaml"), BROKEN_YAML);
        Files.writeString(dir.resolve("unknown-key.yaml"), UNKNOWN_KEY);
        Files.writeString(dir.resolve("cut.geojson"), "{\"type\": \"Polygon\", \"coordinates\": [[[0,0],[10,0],[10,");
        Files.writeString(dir.resolve("line.geojson"), "{\"type\":\"LineString\",\"coordinates\":[[0,0],[1,1]]}");
        Files.writeString(dir.resolve("bad.list"), "14/8508/5489\n14/1\n");
        Path out = dir.resolve("out");
        List<String> command = new ArrayList<>(List.of("seed", "--out", out.toString()));
        args.forEach(arg -> command.add(arg.replace("{dir}", dir.toString())));

        LaunchResult result = launcher.launch(command.toArray(String[]::new));

        assertThat(result.exitCode()).as(describe(result)).isEqualTo(1);
        List<String> errors = errorLines(result);
        assertThat(errors).as("exactly one error line:\n" + describe(result)).hasSize(1);
        String error = errors.get(0);
        for (String part : expected) {
            assertThat(error).as(describe(result)).contains(part.replace("{dir}", dir.toString()));
        }
        // One line: nothing else on stderr but, for a malformed option, the hint where the options are listed.
        assertThat(errLines(result)).as("the error on one line, no continuation or stack trace:\n" + describe(result))
                .allMatch(line -> line.equals(error) || line.equals("Run 'seeder seed --help' for the options."));
        assertThat(result.getOutput()).as(describe(result)).doesNotContain("tiles written");
        assertThat(files(out)).as("nothing written").isEmpty();
    }
}
