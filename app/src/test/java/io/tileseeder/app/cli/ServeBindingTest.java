package io.tileseeder.app.cli;

import static io.tileseeder.app.cli.Cli.describe;
import static io.tileseeder.app.cli.Cli.files;
import static io.tileseeder.app.cli.Cli.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;
import io.tileseeder.adapters.FreePorts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code seeder serve} on an address other machines reach ({@code quarkus.http.host=0.0.0.0}) without a tokens file
 * refuses to start, before the API listens, unless told to with {@code --allow-unauthenticated}. {@code --port 1}
 * (HTTP is on another port in tests) makes a serve that passes this check stop at the next one instead of serving
 * forever.
 */
@QuarkusMainTest
@TestProfile(ServeBindingTest.EveryInterface.class)
class ServeBindingTest {

    @TempDir
    Path out;

    @Test
    void anOpenApiOnEveryInterfaceIsRefusedSayingWhatToDo(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch("serve", "--port", "1", "--out", out.toString());

        assertThat(refusal(result)).isEqualTo("error: the API would answer anyone on 0.0.0.0 without "
                + "authentication: set SEEDER_AUTH_TOKENS_FILE to a tokens file, listen on this machine only "
                + "(--host 127.0.0.1), or pass --allow-unauthenticated");
        assertThat(result.getOutput()).as(describe(result)).doesNotContain("Tile Seeder");
        assertThat(files(out)).isEmpty();
    }

    @Test
    void allowUnauthenticatedLetsItPassThatCheck(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch("serve", "--port", "1", "--allow-unauthenticated", "--out",
                out.toString());

        assertThat(refusal(result)).startsWith("error: start it with the seeder script ('./seeder serve --port 1");
    }

    /**
     * The refusal comes before the API's socket is bound: with the port held by the test, an application that tried
     * to listen on it would stop with an error of the port in use instead.
     */
    @Test
    void theRefusalComesBeforeTheApiListens(QuarkusMainLauncher launcher) throws IOException {
        LaunchResult result;
        try (ServerSocket held = new ServerSocket(EveryInterface.PORT, 50, InetAddress.getByName("0.0.0.0"))) {
            result = launcher.launch("serve", "--port", "1", "--out", out.toString());
        }

        assertThat(refusal(result)).startsWith("error: the API would answer anyone on 0.0.0.0 without "
                + "authentication");
        assertThat(result.getOutput() + result.getErrorOutput()).as(describe(result)).doesNotContain("in use")
                .doesNotContain("Listening on");
    }

    /**
     * HTTP on every interface, as {@code --host 0.0.0.0} or {@code QUARKUS_HTTP_HOST=0.0.0.0} would have it, on a
     * port of its own.
     */
    public static class EveryInterface implements QuarkusTestProfile {

        static final int PORT = FreePorts.next();

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.http.host", "0.0.0.0", "quarkus.http.test-port", String.valueOf(PORT));
        }
    }
}
