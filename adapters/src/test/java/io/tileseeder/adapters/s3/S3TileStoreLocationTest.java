package io.tileseeder.adapters.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.adapters.s3.S3TileStore.Location;
import io.tileseeder.adapters.s3.S3TileStore.Options;
import io.tileseeder.outage.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The parts of {@link S3TileStore} that need no server: locations and settings. */
class S3TileStoreLocationTest {

    @Test
    void parsesBucketAndPrefix() {
        assertThat(Location.parse("s3://tiles/cache/v1")).isEqualTo(new Location("tiles", "cache/v1"));
        assertThat(Location.parse("s3://tiles/cache/")).isEqualTo(new Location("tiles", "cache"));
        assertThat(Location.parse("S3://tiles")).isEqualTo(new Location("tiles", ""));
        assertThat(Location.parse("s3://tiles/")).isEqualTo(new Location("tiles", ""));
        assertThat(Location.parse(" s3://my.tiles-2/a ")).isEqualTo(new Location("my.tiles-2", "a"));
    }

    @Test
    void printsAsAnS3Uri() {
        assertThat(Location.parse("s3://tiles/cache/v1/")).hasToString("s3://tiles/cache/v1");
        assertThat(Location.parse("s3://tiles")).hasToString("s3://tiles");
    }

    @Test
    void namesObjectsBelowThePrefix() {
        assertThat(Location.parse("s3://tiles/cache").objectName("world/WebMercatorQuad/0/0/0.png"))
                .isEqualTo("cache/world/WebMercatorQuad/0/0/0.png");
        assertThat(Location.parse("s3://tiles").objectName("world/WebMercatorQuad/0/0/0.png"))
                .isEqualTo("world/WebMercatorQuad/0/0/0.png");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "tiles/cache              | not an S3 location",
        "https://tiles/cache      | not an S3 location",
        "s3://                    | names no bucket",
        "s3:///cache              | names no bucket",
        "s3://ab/cache            | 3 to 63 characters",
        "s3://Tiles/cache         | lower case",
        "s3://tiles_cache         | only lower-case letters, digits, dots and hyphens",
        "s3://-tiles              | beginning and ending with a letter or digit",
        "s3://tiles.              | beginning and ending with a letter or digit",
        "s3://ti..les             | must not contain '..'",
        "s3://192.168.1.10        | IP address",
        "s3://xn--tiles           | must not begin with 'xn--'",
        "s3://tiles-s3alias       | must not end with '-s3alias'",
        "s3://tiles/a//b          | empty segment",
        "s3://tiles/a/../b        | '..' segment",
        "s3://tiles/a\\b          | backslash",
    })
    void refusesBadLocationsSayingWhy(String uri, String reason) {
        assertThatThrownBy(() -> Location.parse(uri)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(uri.strip().isEmpty() ? "" : uri.strip())
                .hasMessageContaining(reason);
    }

    @Test
    void refusesNoLocation() {
        assertThatThrownBy(() -> Location.parse(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("s3://bucket/prefix");
        assertThatThrownBy(() -> Location.parse("  ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("s3://bucket/prefix");
    }

    @Test
    void aLongBucketNameIsRefused() {
        String name = "a".repeat(64);
        assertThatThrownBy(() -> Location.parse("s3://" + name)).hasMessageContaining("3 to 63 characters");
        assertThat(Location.parse("s3://" + "a".repeat(63)).bucket()).hasSize(63);
    }

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
        assertThatThrownBy(() -> Options.defaults().withMaxInFlight(0)).hasMessageContaining("maxInFlight");
        assertThatThrownBy(() -> Options.defaults().withCacheControl("a\nb")).hasMessageContaining("Cache-Control");
        assertThat(Options.defaults().maxInFlight()).isEqualTo(32);
        assertThat(Options.defaults().cacheControl()).isEqualTo("public, max-age=86400");
        assertThat(Options.defaults().retry()).isEqualTo(RetryPolicy.DEFAULT);
    }
}
