package io.tileseeder.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Durations are read as people write them and written back the same way, never as ISO-8601's PT15M. */
class TimeoutsTest {

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({"PT15M, 15m", "PT90S, 1m30s", "PT1H30M, 1h30m", "PT0.25S, 250ms", "PT0S, 0s", "PT36H, 36h", "PT48H, 2d",
            "PT1M0.5S, 1m500ms", "PT0.0005S, 0.5ms", "PT-30S, -30s", "PT99H, 99h"})
    void aDurationIsWrittenAsPeopleWriteIt(String iso, String written) {
        Duration duration = Duration.parse(iso);

        assertThat(Timeouts.format(duration)).isEqualTo(written);
        if (!duration.isNegative() && duration.toNanosPart() % 1_000_000 == 0) {
            assertThat(Timeouts.parse(written)).as("read back").isEqualTo(duration);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"90, PT1M30S", "90s, PT1M30S", "5m, PT5M", "2h, PT2H", "1d, PT24H", "250ms, PT0.25S",
            "1h30m, PT1H30M", "1m30s, PT1M30S", "' 2H ', PT2H", "PT30S, PT30S", "pt1m, PT1M"})
    void durationsAreReadInEveryFormTheyAreWritten(String text, String iso) {
        assertThat(Timeouts.parse(text)).isEqualTo(Duration.parse(iso));
    }

    @Test
    void whatIsNotADurationIsRefusedNamingIt() {
        assertThatThrownBy(() -> Timeouts.parse("soon")).hasMessage(
                "'soon' is not a duration like 30s, 5m, 2h, 1h30m or PT30S");
        assertThatThrownBy(() -> Timeouts.parse("1h30")).hasMessageContaining("'1h30' is not a duration");
        assertThatThrownBy(() -> Timeouts.parse("-PT1S")).hasMessage("'-PT1S' is negative");
        assertThatThrownBy(() -> Timeouts.parse("99999999999999999999d")).hasMessage(
                "'99999999999999999999d' is too long a duration");
    }
}
