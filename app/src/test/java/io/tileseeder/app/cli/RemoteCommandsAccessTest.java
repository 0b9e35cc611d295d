package io.tileseeder.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.tileseeder.server.Engines;
import io.tileseeder.server.access.Access;
import io.tileseeder.server.api.TokensProfile;
import jakarta.inject.Inject;
import java.net.URL;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code seeder submit}, {@code wait} and {@code cancel} against a server with a tokens file: SEEDER_TOKEN is their
 * token.
 */
@QuarkusTest
@TestProfile(TokensProfile.class)
class RemoteCommandsAccessTest {

    @TestHTTPResource("/")
    URL root;

    @Inject
    Engines engines;

    @Inject
    Access access;

    @Test
    void withoutSeederTokenTheRefusalSaysToSetIt() {
        RemoteCommandsTest.Run run = run(null, "submit", "--server", server(), "--layer", "world", "--zoom", "0");

        assertThat(run.exit()).as(run.describe()).isEqualTo(1);
        assertThat(run.errLines()).as(run.describe())
                .containsExactly("error: no bearer token: set SEEDER_TOKEN to an API token of " + server());
    }

    @Test
    void anUnknownTokenIsNamedAsSuch() {
        RemoteCommandsTest.Run run = run("nope", "wait", "--server", server(), "some-job");

        assertThat(run.exit()).as(run.describe()).isEqualTo(1);
        assertThat(run.errLines()).as(run.describe())
                .containsExactly("error: unknown token: SEEDER_TOKEN is not an API token of " + server());
    }

    @Test
    void aReadTokenMayWaitButNotSubmit() {
        RemoteCommandsTest.Run refused = run(TokensProfile.READER, "submit", "--server", server(), "--layer", "world",
                "--zoom", "0");
        assertThat(refused.exit()).as(refused.describe()).isEqualTo(1);
        assertThat(refused.errLines()).as(refused.describe()).containsExactly("error: token 'ci-reader' has role read; "
                + "submitting and cancelling need write: set SEEDER_TOKEN to a token with role write");

        RemoteCommandsTest.Run submitted = run(TokensProfile.WRITER, "submit", "--server", server(), "--layer",
                "world", "--zoom", "0", "--tile-matrix-set", "WorldCRS84Quad");
        assertThat(submitted.exit()).as(submitted.describe()).isZero();
        String id = submitted.outLines().get(0);
        RemoteCommandsTest.Run waited = run(TokensProfile.READER, "wait", "--server", server(), "--timeout", "60s", id);
        assertThat(waited.exit()).as(waited.describe()).isZero();
        assertThat(waited.err()).as(waited.describe()).contains("job " + id + " SUCCEEDED");
    }

    @Test
    void aReadTokenMayNotCancel() {
        RemoteCommandsTest.Run refused = run(TokensProfile.READER, "cancel", "--server", server(), "some-job");

        assertThat(refused.exit()).as(refused.describe()).isEqualTo(1);
        assertThat(refused.errLines()).as(refused.describe()).containsExactly("error: token 'ci-reader' has role read; "
                + "submitting and cancelling need write: set SEEDER_TOKEN to a token with role write");
    }

    private String server() {
        String url = root.toString();
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    private RemoteCommandsTest.Run run(String token, String... args) {
        Map<String, String> env = new HashMap<>();
        if (token != null) {
            env.put("SEEDER_TOKEN", token);
        }
        return RemoteCommandsTest.Run.of(SeederMain.commandLine(engines, null, access, env), args);
    }
}
