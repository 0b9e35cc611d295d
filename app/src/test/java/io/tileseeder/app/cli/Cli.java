package io.tileseeder.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.main.LaunchResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** What the command-line tests share: reading a run's summary and output, and listing what it wrote. */
final class Cli {

    private Cli() {
    }

    /** A launch's exit status and both streams, for assertion messages. */
    static String describe(LaunchResult result) {
        return "exit " + result.exitCode() + "\n--- stdout ---\n" + result.getOutput() + "\n--- stderr ---\n"
                + result.getErrorOutput();
    }

    /** The lines of stderr, without blank ones. */
    static List<String> errLines(LaunchResult result) {
        return Arrays.stream(result.getErrorOutput().split("\\R")).filter(line -> !line.isBlank()).toList();
    }

    /** The lines of stderr that report an error ({@code error: ...}). */
    static List<String> errorLines(LaunchResult result) {
        return errLines(result).stream().filter(line -> line.startsWith("error:")).toList();
    }

    /** Asserts that the launch exited 1 (bad usage) with exactly one error line; returns that line. */
    static String refusal(LaunchResult result) {
        assertThat(result.exitCode()).as(describe(result)).isEqualTo(ExitCodes.USAGE);
        assertThat(errorLines(result)).as(describe(result)).hasSize(1);
        return errorLines(result).get(0);
    }

    /** Every regular file below {@code folder}, relative to it, with '/' separators, sorted. */
    static List<String> files(Path folder) {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> paths = Files.walk(folder)) {
            return paths.filter(Files::isRegularFile).map(p -> folder.relativize(p).toString().replace('\\', '/'))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The closing summary {@code seed} prints on stdout. */
    record Summary(String header, long written, long empty, long alreadyThere, long failed, long bytes) {

        long total() {
            return written + empty + alreadyThere + failed;
        }

        static Summary of(LaunchResult result) {
            String out = result.getOutput();
            Matcher header = Pattern.compile("(?m)^(SUCCEEDED|FAILED|CANCELLED) .*$").matcher(out);
            assertThat(header.find()).as("a summary header in stdout:\n" + describe(result)).isTrue();
            return new Summary(header.group(), count(result, "tiles written"), count(result, "empty, skipped"),
                    count(result, "already there"), count(result, "failed"), count(result, "bytes"));
        }

        private static long count(LaunchResult result, String label) {
            Matcher m = Pattern.compile("(?m)^\\s+" + Pattern.quote(label) + "\\s+([0-9,]+)\\s*$")
                    .matcher(result.getOutput());
            assertThat(m.find()).as("'" + label + "' in the summary:\n" + describe(result)).isTrue();
            return Long.parseLong(m.group(1).replace(",", ""));
        }
    }
}
