package io.tileseeder.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.adapters.FreePorts;
import io.tileseeder.app.cli.RemoteCommandsTest.Run;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine;

/**
 * {@code submit} and {@code wait} with no server and no application around them: built with no engine at
 * all (they must not need one), they report a server that is down in one line, and document every option.
 */
class RemoteCommandsOfflineTest {

    @Test
    void submittingToAServerThatIsDownIsOneLineAndExitStatusOne() throws IOException {
        String server = "http://127.0.0.1:" + FreePorts.next();

        Run submitted = run("submit", "--server", server, "--layer", "world", "--zoom", "0-1", "--wait");

        assertThat(submitted.exit()).as(submitted.describe()).isEqualTo(1);
        assertThat(submitted.out()).as(submitted.describe()).isEmpty();
        assertThat(submitted.errLines()).as(submitted.describe()).singleElement().asString()
                .startsWith("error: cannot reach " + server + ": ")
                .doesNotContain("Exception", "\tat ");
    }

    /**
     * A server that does not answer may be restarting: {@code wait} asks again, saying so, until its timeout (or
     * its ten minutes), then exits 1 naming why.
     */
    @Test
    void waitAsksAServerThatIsDownAgainUntilItsTimeoutThenExitsOne() throws IOException {
        String server = "http://127.0.0.1:" + FreePorts.next();

        Run waited = run("wait", "--server", server, "--timeout", "2s", "some-job");

        assertThat(waited.exit()).as(waited.describe()).isEqualTo(1);
        assertThat(waited.out()).as(waited.describe()).isEmpty();
        List<String> lines = waited.errLines();
        assertThat(lines.getFirst()).as(waited.describe())
                .matches("job some-job: cannot reach " + Pattern.quote(server) + ": .*; asking again in 1 s");
        assertThat(lines.getLast()).as(waited.describe()).startsWith("error: cannot reach " + server + ": ");
        assertThat(lines).as(waited.describe()).noneMatch(line -> line.contains("Exception") || line.contains("\tat "));
    }

    /** A host name that does not resolve is a mistake, not a restart: one line at once. */
    @Test
    void waitOnAnUnknownHostIsOneLineAtOnce() {
        String server = "http://no-such-host.invalid:8080";

        Run waited = run("wait", "--server", server, "some-job");

        assertThat(waited.exit()).as(waited.describe()).isEqualTo(1);
        assertThat(waited.errLines()).as(waited.describe())
                .containsExactly("error: cannot reach " + server + ": unknown host");
    }

    @ParameterizedTest
    @ValueSource(strings = {"submit", "wait"})
    void helpDocumentsEveryOption(String command) {
        Run run = run(command, "--help");

        assertThat(run.exit()).as(run.describe()).isZero();
        String help = run.out().replaceAll("\\s+", " ");
        assertThat(help).as(run.describe()).contains("Usage: seeder " + command).contains("--server=URL")
                .contains("--timeout=DURATION").contains("Exit status: 0 ");
        CommandLine line = SeederMain.commandLine(null, null, null, Map.of()).getSubcommands().get(command);
        for (OptionSpec option : line.getCommandSpec().options()) {
            assertThat(option.description()).as(option.longestName() + " has a description").isNotEmpty();
            String start = option.description()[0].split("[($]")[0].trim();
            assertThat(help).as(option.longestName() + " in:\n" + run.out()).contains(option.longestName())
                    .contains(start.substring(0, Math.min(20, start.length())));
        }
    }

    @Test
    void submitTakesTheSameJobOptionsAsSeed() {
        var commands = SeederMain.commandLine(null, null, null, Map.of()).getSubcommands();
        var seed = commands.get("seed").getCommandSpec().optionsMap().keySet();
        var submit = commands.get("submit").getCommandSpec().optionsMap().keySet();
        assertThat(submit).contains("--layer", "--zoom", "--bbox", "--tile-matrix-set", "--format", "--mode",
                "--metatile", "--refresh-before", "--label");
        assertThat(seed).contains("--layer", "--zoom", "--bbox", "--tile-matrix-set", "--format", "--mode",
                "--metatile", "--refresh-before", "--label");
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = SeederMain.commandLine(null, null, null, Map.of());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args);
        return new Run(String.join(" ", args), exit, out.toString(), err.toString());
    }
}
