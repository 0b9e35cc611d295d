package io.tileseeder.adapters.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.outage.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@link S3Options} and the {@link RetryPolicy} they carry: defaults, checks and backoff. */
class S3OptionsTest {

    @Test
    void backoffGrowsExponentiallyWithJitterUpToTheCap() {
        RetryPolicy policy = new RetryPolicy(10, Duration.ofMillis(100), Duration.ofMillis(1000));
        for (int i = 0; i < 200; i++) {
            assertThat(policy.backoff(1)).isBetween(Duration.ofMillis(50), Duration.ofMillis(100));
            assertThat(policy.backoff(2)).isBetween(Duration.ofMillis(100), Duration.ofMillis(200));
            assertThat(policy.backoff(4)).isBetween(Duration.ofMillis(400), Duration.ofMillis(800));
            assertThat(policy.backoff(5)).isBetween(Duration.ofMillis(500), Duration.ofMillis(1000));
            assertThat(policy.backoff(60)).isBetween(Duration.ofMillis(500), Duration.ofMillis(1000));
        }
        assertThat(RetryPolicy.NONE.backoff(1)).isZero();
    }

    @Test
    void settingsAreChecked() {
        assertThatThrownBy(() -> new RetryPolicy(0, Duration.ZERO, Duration.ZERO))
                .hasMessageContaining("maxAttempts");
        assertThatThrownBy(() -> new RetryPolicy(3, Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessageContaining("backoff");
        assertThatThrownBy(() -> S3Options.defaults().withMaxInFlight(0)).hasMessageContaining("maxInFlight");
        assertThatThrownBy(() -> S3Options.defaults().withCacheControl("a\nb")).hasMessageContaining("Cache-Control");
        assertThat(S3Options.defaults().maxInFlight()).isEqualTo(32);
        assertThat(S3Options.defaults().cacheControl()).isEqualTo("public, max-age=86400");
        assertThat(S3Options.defaults().retry()).isEqualTo(RetryPolicy.DEFAULT);
    }
}
