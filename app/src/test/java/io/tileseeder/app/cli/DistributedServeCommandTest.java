package io.tileseeder.app.cli;

import static io.tileseeder.app.cli.Cli.describe;
import static io.tileseeder.app.cli.Cli.errorLines;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The distributed coordinator never serves an open API: without a tokens file it does not start. */
@QuarkusMainTest
@TestProfile(DistributedServeCommandTest.Distributed.class)
class DistributedServeCommandTest {

    @Test
    void withoutATokensFileItExits1NamingTheSetting(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch("serve", "--port", "8080");

        assertThat(result.exitCode()).as(describe(result)).isEqualTo(1);
        assertThat(errorLines(result)).as(describe(result)).singleElement().asString()
                .startsWith("error: the distributed coordinator needs API tokens: set SEEDER_AUTH_TOKENS_FILE");
        assertThat(result.getOutput()).as(describe(result)).doesNotContain("Tile Seeder");
    }

    /** Distributed, with settings that would fail later if the tokens check did not come first. */
    public static class Distributed implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("seeder.mode", "distributed");
        }
    }
}
