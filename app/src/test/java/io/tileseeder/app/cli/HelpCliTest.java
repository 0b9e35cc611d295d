package io.tileseeder.app.cli;

import static io.tileseeder.app.cli.Cli.describe;
import static io.tileseeder.app.cli.Cli.errorLines;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;
import java.util.Arrays;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine;

/** {@code seeder --help} lists the commands, and each command's {@code --help} documents every option it has. */
@QuarkusMainTest
class HelpCliTest {

    @Test
    void helpListsTheCommands(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch("--help");

        assertThat(result.exitCode()).as(describe(result)).isZero();
        String help = result.getOutput();
        assertThat(help).as(describe(result)).contains("Usage: seeder").contains("Commands:");
        for (String command : new String[] {"seed", "serve", "worker", "pack", "submit", "wait", "cancel"}) {
            assertThat(help).as(describe(result)).containsPattern("(?m)^\\s+" + command + "\\s+\\S");
        }
        // The benchmark commands run from the bench module (the seeder script dispatches them), not the application.
        assertThat(help).as(describe(result)).doesNotContainPattern("(?m)^\\s+bench");
    }

    @Test
    void noCommandIsAUsageError(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch();

        assertThat(result.exitCode()).as(describe(result)).isEqualTo(1);
        assertThat(errorLines(result)).as(describe(result))
                .containsExactly("error: a command is required: seed, serve, worker, pack, submit, wait or cancel");
    }

    @Test
    void seedHelpDocumentsTheMainOptions(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch("seed", "--help");

        assertThat(result.exitCode()).as(describe(result)).isZero();
        String help = result.getOutput().replaceAll("\\s+", " ");
        assertThat(help).as(describe(result)).contains("Usage: seeder seed")
                .contains("--layer=<layer>").contains("--zoom=MIN-MAX").contains("--bbox=W,S,E,N")
                .contains("--timeout=DURATION").contains("--out=DIR")
                .contains("Exit status: 0 succeeded, 1 bad usage or request, 2 failed, 3 cancelled, 4 timed out.");
    }

    /** Every option the command has appears in its help with its description, whatever is added later. */
    @ParameterizedTest
    @ValueSource(strings = {"seed", "serve", "worker", "pack", "submit", "wait", "cancel"})
    void commandHelpDocumentsEveryOption(String command, QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch(command, "--help");

        assertThat(result.exitCode()).as(describe(result)).isZero();
        String help = result.getOutput();
        CommandLine line = SeederMain.commandLine(null, null, null, Map.of()).getSubcommands().get(command);
        assertThat(line.getCommandSpec().options()).isNotEmpty();
        for (OptionSpec option : line.getCommandSpec().options()) {
            assertThat(option.description()).as(option.longestName() + " has a description").isNotEmpty();
            // The option's entry in the list: from its name at the start of a line to the next option's. Entries
            // are indented 2 to 8 spaces; the wrapped usage synopsis above them is indented further.
            Matcher entry = Pattern.compile("(?ms)^ {2,8}(?:-\\S+, )?" + Pattern.quote(option.longestName())
                    + "\\b(.*?)(?=^ {2,8}-|\\z)").matcher(help);
            assertThat(entry.find()).as(option.longestName() + " listed in:\n" + help).isTrue();
            String text = entry.group(1).replaceAll("\\s+", " ");
            assertThat(text).as(option.longestName() + " described in:\n" + help).contains(firstWords(option));
        }
    }

    /** The description's first words, up to three, before any variable or parenthesis. */
    private static String firstWords(OptionSpec option) {
        String[] words = option.description()[0].split("[($]")[0].trim().split("\\s+");
        return String.join(" ", Arrays.copyOf(words, Math.min(3, words.length)));
    }
}
