package io.tileseeder.adapters.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link S3Location}: parsing, printing and the rules of bucket names and key prefixes. */
class S3LocationTest {

    @Test
    void parsesBucketAndPrefix() {
        assertThat(S3Location.parse("s3://tiles/cache/v1")).isEqualTo(new S3Location("tiles", "cache/v1"));
        assertThat(S3Location.parse("s3://tiles/cache/")).isEqualTo(new S3Location("tiles", "cache"));
        assertThat(S3Location.parse("S3://tiles")).isEqualTo(new S3Location("tiles", ""));
        assertThat(S3Location.parse("s3://tiles/")).isEqualTo(new S3Location("tiles", ""));
        assertThat(S3Location.parse(" s3://my.tiles-2/a ")).isEqualTo(new S3Location("my.tiles-2", "a"));
    }

    @Test
    void printsAsAnS3Uri() {
        assertThat(S3Location.parse("s3://tiles/cache/v1/")).hasToString("s3://tiles/cache/v1");
        assertThat(S3Location.parse("s3://tiles")).hasToString("s3://tiles");
    }

    @Test
    void namesObjectsBelowThePrefix() {
        assertThat(S3Location.parse("s3://tiles/cache").objectName("world/WebMercatorQuad/0/0/0.png"))
                .isEqualTo("cache/world/WebMercatorQuad/0/0/0.png");
        assertThat(S3Location.parse("s3://tiles").objectName("world/WebMercatorQuad/0/0/0.png"))
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
        assertThatThrownBy(() -> S3Location.parse(uri)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(uri.strip().isEmpty() ? "" : uri.strip())
                .hasMessageContaining(reason);
    }

    @Test
    void refusesNoLocation() {
        assertThatThrownBy(() -> S3Location.parse(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("s3://bucket/prefix");
        assertThatThrownBy(() -> S3Location.parse("  ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("s3://bucket/prefix");
    }

    @Test
    void aLongBucketNameIsRefused() {
        String name = "a".repeat(64);
        assertThatThrownBy(() -> S3Location.parse("s3://" + name)).hasMessageContaining("3 to 63 characters");
        assertThat(S3Location.parse("s3://" + "a".repeat(63)).bucket()).hasSize(63);
    }
}
