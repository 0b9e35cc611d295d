package io.tileseeder.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which command lines let the API listen without tokens on an address other machines reach. */
class ExposedApiCheckTest {

    @Test
    void onlyServeWithAllowUnauthenticatedDoes() {
        assertThat(ExposedApiCheck.allowUnauthenticated("serve", "--allow-unauthenticated")).isTrue();
        assertThat(ExposedApiCheck.allowUnauthenticated("serve", "--host", "0.0.0.0", "--allow-unauthenticated",
                "--port", "8080")).isTrue();
        assertThat(ExposedApiCheck.allowUnauthenticated("serve", "--host", "0.0.0.0")).isFalse();
        assertThat(ExposedApiCheck.allowUnauthenticated("seed", "--layer", "world", "--zoom", "0")).isFalse();
        assertThat(ExposedApiCheck.allowUnauthenticated()).isFalse();
        assertThat(ExposedApiCheck.allowUnauthenticated("serve", "--allow-unauthenticated", "--no-such-option"))
                .as("arguments the command line refuses allow nothing").isFalse();
    }
}
