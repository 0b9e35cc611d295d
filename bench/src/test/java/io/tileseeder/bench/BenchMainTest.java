package io.tileseeder.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** Each benchmark command's {@code --help} documents every option it has, as the app's commands do. */
class BenchMainTest {

    @ParameterizedTest
    @ValueSource(strings = {"bench", "bench-coordinator", "bench-wms"})
    void commandHelpDocumentsEveryOption(String command) {
        CommandLine cli = BenchMain.commandLine();
        StringWriter out = new StringWriter();
        cli.setOut(new PrintWriter(out));

        assertThat(cli.execute(command, "--help")).isZero();
        String help = out.toString().replaceAll("\\s+", " ");
        assertThat(help).contains("Usage: seeder " + command);
        for (OptionSpec option : cli.getSubcommands().get(command).getCommandSpec().options()) {
            assertThat(option.description()).as(option.longestName() + " has a description").isNotEmpty();
            assertThat(help).as(option.longestName() + " listed").contains(option.longestName());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"--zoom=x", "--no-such-option"})
    void badUsageExitsWithTheUsageStatus(String argument) {
        CommandLine cli = BenchMain.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));

        assertThat(cli.execute("bench", argument)).isEqualTo(1);
        assertThat(err.toString()).startsWith("error: ").contains("Run 'seeder bench --help' for the options.");
    }
}
