package io.tileseeder.app.cli;

import static io.tileseeder.app.cli.Cli.describe;
import static io.tileseeder.app.cli.Cli.files;
import static io.tileseeder.app.cli.Cli.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code seeder serve} refuses to run when the application's HTTP server is not on the port asked for. The
 * test profile turns HTTP on ({@code %test.quarkus.http.host-enabled=true}) with {@code quarkus.http.port=8080},
 * so a different {@code --port} is the case a test can reach without serving forever.
 */
@QuarkusMainTest
class ServeCommandTest {

    @TempDir
    Path out;

    @Test
    void serveOnAPortHttpIsNotOnExits1TellingHowToStartIt(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch("serve", "--port", "1", "--out", out.toString());

        assertThat(refusal(result))
                .startsWith("error: start it with the seeder script ('./seeder serve --port 1 --management-port 9080')")
                .contains("QUARKUS_HTTP_HOST_ENABLED=true").contains("QUARKUS_HTTP_PORT=1")
                .contains("QUARKUS_MANAGEMENT_HOST_ENABLED=true").contains("QUARKUS_MANAGEMENT_PORT=9080");
        assertThat(result.getOutput()).as(describe(result)).doesNotContain("Tile Seeder");
        assertThat(files(out)).isEmpty();
    }

    @Test
    void onePortForTheApiAndTheManagementInterfaceIsRefused(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch("serve", "--port", "8080", "--management-port", "8080", "--out",
                out.toString());

        assertThat(refusal(result)).isEqualTo("error: --port and --management-port are both 8080: the API and its "
                + "health and metrics need a port each");
        assertThat(files(out)).isEmpty();
    }

    @Test
    void aHostHttpIsNotOnIsRefusedTellingHowToStartIt(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch("serve", "--host", "127.0.0.2", "--port", "1", "--out", out.toString());

        assertThat(refusal(result)).isEqualTo("error: start it with the seeder script ('./seeder serve --host "
                + "127.0.0.2'), which makes HTTP listen there, or set QUARKUS_HTTP_HOST=127.0.0.2 and "
                + "QUARKUS_MANAGEMENT_HOST=127.0.0.2");
    }
}
