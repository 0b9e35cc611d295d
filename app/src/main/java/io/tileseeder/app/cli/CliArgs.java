package io.tileseeder.app.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JsonProblems;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Parses the compact forms options take on the command line ({@code 0-5}, {@code W,S,E,N}, {@code 4x4}). Public for
 * the benchmark commands (module {@code bench}), whose {@code --zoom} reads like {@code seed}'s.
 */
public final class CliArgs {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** One zoom level or two, each maybe negative: {@code 7}, {@code 0-5}, {@code -1-3}. */
    private static final Pattern ZOOM = Pattern.compile("\\s*(-?\\d+)\\s*(?:-\\s*(-?\\d+)\\s*)?");

    private CliArgs() {
    }

    /**
     * {@code MIN-MAX} or one level. A level below 0 or beyond the layer's is left for the job's checks, which name
     * the layer's range; one too large to be read as a number is refused here, naming the range any layer may have.
     */
    public static JobRequest.Zoom zoom(CommandSpec spec, String option, String text) {
        Matcher levels = ZOOM.matcher(text);
        if (!levels.matches()) {
            throw new ParameterException(spec.commandLine(), option + ": '" + text
                    + "' is not a zoom range like 0-5 or 7");
        }
        int min = level(spec, option, levels.group(1));
        return new JobRequest.Zoom(min, levels.group(2) == null ? min : level(spec, option, levels.group(2)));
    }

    private static int level(CommandSpec spec, String option, String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), option + ": " + digits + " is outside the zoom range 0.."
                    + TileMatrixSet.MAX_ZOOM);
        }
    }

    static List<Double> bbox(CommandSpec spec, String option, String text) {
        String[] parts = text.split(",");
        List<Double> values = new ArrayList<>();
        try {
            for (String part : parts) {
                values.add(Double.parseDouble(part.trim()));
            }
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), option + ": '" + text
                    + "' is not four numbers: minLon,minLat,maxLon,maxLat, or the corners in --bbox-crs");
        }
        return values;
    }

    /**
     * Dimension options, {@code NAME=VALUE} each: the values of each name in the order given, a name given twice
     * naming two values (a job's {@code dimensions}); null for none.
     */
    static Map<String, JsonNode> dimensions(CommandSpec spec, String option, List<String> texts) {
        if (texts.isEmpty()) {
            return null;
        }
        Map<String, ArrayNode> values = new LinkedHashMap<>();
        for (String text : texts) {
            int equals = text.indexOf('=');
            if (equals < 1) {
                throw new ParameterException(spec.commandLine(), option + ": '" + text + "' is not NAME=VALUE, "
                        + "e.g. TIME=2026-11-26T12:05Z or STYLES=night");
            }
            values.computeIfAbsent(text.substring(0, equals), name -> JSON.createArrayNode())
                    .add(text.substring(equals + 1));
        }
        return new LinkedHashMap<String, JsonNode>(values);
    }

    static JobRequest.Metatile metatile(CommandSpec spec, String option, String text) {
        String[] parts = text.toLowerCase(java.util.Locale.ROOT).split("x");
        try {
            if (parts.length == 2) {
                return new JobRequest.Metatile(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ParameterException(spec.commandLine(), option + ": '" + text + "' is not a size like 4x4");
    }

    /**
     * A coverage option: the JSON of a file if {@code text} names one, else the name of a layer's coverage. A value
     * that looks like a path ({@code /} in it, or a .json or .geojson name) but names no file is an error.
     */
    static JsonNode coverage(CommandSpec spec, String option, String text) {
        Path file = Path.of(text);
        if (Files.isRegularFile(file)) {
            try {
                return JSON.readTree(file.toFile());
            } catch (JsonProcessingException e) {
                throw new ParameterException(spec.commandLine(), option + ": " + text + ": "
                        + JsonProblems.reason(e, "the GeoJSON"));
            } catch (IOException e) {
                throw new ParameterException(spec.commandLine(), option + ": cannot read " + text + ": "
                        + e.getMessage());
            }
        }
        if (text.contains("/") || text.endsWith(".json") || text.endsWith(".geojson")) {
            throw new ParameterException(spec.commandLine(), option + ": " + text + ": no such file");
        }
        return TextNode.valueOf(text);
    }

    /** The text of a file, or of standard input for {@code -}. */
    static String text(CommandSpec spec, String option, String file) {
        try {
            return file.equals("-") ? new String(System.in.readAllBytes(), StandardCharsets.UTF_8)
                    : Files.readString(Path.of(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), option + ": cannot read " + file + ": "
                    + (e instanceof NoSuchFileException ? "no such file" : e.getMessage()));
        }
    }
}
