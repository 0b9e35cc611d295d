package io.tileseeder.app.cli;

import io.tileseeder.job.JobRequest;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Parses the compact forms options take on the command line ({@code 0-5}, {@code W,S,E,N}, {@code 4x4}). Public for
 * the benchmark commands (module {@code bench}), whose {@code --zoom} reads like {@code seed}'s.
 */
public final class CliArgs {

    private CliArgs() {
    }

    public static JobRequest.Zoom zoom(CommandSpec spec, String option, String text) {
        String[] parts = text.trim().split("-", -1);
        try {
            if (parts.length == 1) {
                int z = Integer.parseInt(parts[0].trim());
                return new JobRequest.Zoom(z, z);
            }
            if (parts.length == 2) {
                return new JobRequest.Zoom(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ParameterException(spec.commandLine(), option + ": '" + text + "' is not a zoom range like 0-5 or 7");
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
                    + "' is not four numbers minLon,minLat,maxLon,maxLat");
        }
        return values;
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
}
