package io.tileseeder.app.cli;

import static io.tileseeder.app.cli.Cli.describe;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;
import org.junit.jupiter.api.Test;

/**
 * The application can be started again in the same JVM (as tests, and dev mode's restarts, do): running the
 * command line leaves no global state behind that stops the next start. (It once set a {@code seeder.*}
 * system property for a help text, which the next start's config validation refused.)
 */
@QuarkusMainTest
class RelaunchCliTest {

    @Test
    void aSecondLaunchInTheSameJvmStarts(QuarkusMainLauncher launcher) {
        LaunchResult first = launcher.launch("--version");
        assertThat(first.exitCode()).as(describe(first)).isZero();
        assertThat(first.getOutput()).contains("Tile Seeder");

        LaunchResult second = launcher.launch("--version");

        assertThat(second.exitCode()).as("the second start:\n" + describe(second)).isZero();
        assertThat(second.getOutput()).contains("Tile Seeder");
    }

    @Test
    void aLaunchLeavesNoSeederSystemPropertyBehind(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch("--version");
        assertThat(result.exitCode()).as(describe(result)).isZero();

        assertThat(System.getProperties().stringPropertyNames().stream().filter(name -> name.startsWith("seeder.")))
                .as("seeder.* keys are config the 'seeder' mapping validates; a launch must not add any")
                .isEmpty();
    }
}
