package io.tileseeder.app.cli;

import static io.tileseeder.app.cli.Cli.describe;
import static io.tileseeder.app.cli.Cli.errorLines;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;
import io.tileseeder.adapters.FreePorts;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** {@code seeder wait} as the application runs it, against a server that is not there. */
@QuarkusMainTest
class RemoteCliLaunchTest {

    @Test
    void waitOnAServerThatIsDownExitsOneWithOneErrorLineAtItsTimeout(QuarkusMainLauncher launcher) throws IOException {
        int port = FreePorts.next();
        String server = "http://127.0.0.1:" + port;

        LaunchResult result = launcher.launch("wait", "--server", server, "--timeout", "2s", "some-job");

        assertThat(result.exitCode()).as(describe(result)).isEqualTo(1);
        // The test profile logs at INFO to the console (stdout); the seeder script logs only warnings.
        assertThat(result.getOutput().lines().filter(line -> !line.isBlank()))
                .as("nothing on stdout but log lines: " + describe(result))
                .allMatch(line -> line.matches("\\d\\d:\\d\\d:\\d\\d [A-Z]+ .*"));
        assertThat(errorLines(result)).as(describe(result)).singleElement().asString()
                .startsWith("error: cannot reach " + server + ": ");
        assertThat(result.getErrorOutput()).as(describe(result)).doesNotContain("\tat ");
    }
}
