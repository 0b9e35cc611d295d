package io.tileseeder.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DimensionTest {

    private static final Dimension ANY_TIME = Dimension.declare("TIME", Dimension.Kind.TIME, List.of(), null, null);
    private static final Dimension RADAR = Dimension.declare("TIME", Dimension.Kind.TIME,
            List.of("2026-11-26T00:00Z/2026-11-26T23:55Z/PT5M"), null, "2026-11-26T12:05Z");
    private static final Dimension STYLES = Dimension.declare("STYLES", Dimension.Kind.TEXT,
            List.of("default", "night"), null, "default");
    private static final Dimension ELEVATION = Dimension.declare("ELEVATION", Dimension.Kind.NUMBER,
            List.of("0/1000/250", "5000"), null, null);

    @ParameterizedTest
    @CsvSource({
            "2026-11-26T12:05Z, 2026-11-26T12:05:00Z",
            "2026-11-26T12:05:00Z, 2026-11-26T12:05:00Z",
            "2026-11-26T13:05:00+01:00, 2026-11-26T12:05:00Z",
            "2026-11-26T12:05:00.250Z, 2026-11-26T12:05:00.250Z",
            "2026-11-26, 2026-11-26"})
    void aTimeIsOneValueHoweverItIsWritten(String given, String normalized) {
        assertThat(ANY_TIME.check(given)).isEqualTo(normalized);
    }

    @Test
    void badTimesAreRefusedWithWhatIsWrong() {
        assertThatThrownBy(() -> ANY_TIME.check("2026-13-01")).hasMessage("TIME 2026-13-01 is not an ISO 8601 "
                + "instant (2026-11-26T12:05Z) or date (2026-11-26)");
        assertThatThrownBy(() -> ANY_TIME.check("2026-11-26T12:05")).hasMessage("TIME 2026-11-26T12:05 has no UTC "
                + "offset: add Z for UTC");
        assertThatThrownBy(() -> ANY_TIME.check("yesterday")).hasMessageContaining("is not an ISO 8601 instant");
        assertThatThrownBy(() -> RADAR.check("2026-11-26T12:07Z")).hasMessage("TIME 2026-11-26T12:07Z is not within "
                + "2026-11-26T00:00:00Z/2026-11-26T23:55:00Z/PT5M");
        assertThatThrownBy(() -> RADAR.check("2026-11-27T00:00Z")).hasMessageContaining("is not within");
        assertThatThrownBy(() -> RADAR.check("2026-11-26")).as("a date where instants are allowed")
                .hasMessageContaining("is not within");
    }

    @Test
    void anIntervalExpandsToTheInstantsItsPeriodSteps() {
        assertThat(RADAR.expand("2026-11-26T12:00Z/2026-11-26T12:20Z/PT5M", 100)).containsExactly(
                "2026-11-26T12:00:00Z", "2026-11-26T12:05:00Z", "2026-11-26T12:10:00Z", "2026-11-26T12:15:00Z",
                "2026-11-26T12:20:00Z");
        assertThat(ANY_TIME.expand("2026-01-31/2026-05-01/P1M", 100)).as("months from the start, day clamped")
                .containsExactly("2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30");
        assertThat(ANY_TIME.expand("2026-11-26/2026-11-28/P1D", 100))
                .containsExactly("2026-11-26", "2026-11-27", "2026-11-28");
        assertThat(RADAR.expand("2026-11-26T12:05Z", 100)).containsExactly("2026-11-26T12:05:00Z");
    }

    @Test
    void anIntervalIsBoundedAndEveryValueOfItChecked() {
        assertThatThrownBy(() -> ANY_TIME.expand("2026-01-01T00:00Z/2027-01-01T00:00Z/PT1S", 1000))
                .hasMessage("TIME 2026-01-01T00:00Z/2027-01-01T00:00Z/PT1S has more than 1000 values");
        assertThatThrownBy(() -> RADAR.expand("2026-11-26T23:50Z/2026-11-27T00:10Z/PT5M", 100))
                .as("runs past the layer's interval").hasMessageContaining("2026-11-27T00:00:00Z is not within");
        assertThatThrownBy(() -> ANY_TIME.expand("2026-11-27/2026-11-26/P1D", 100))
                .hasMessageContaining("ends before it starts");
        assertThatThrownBy(() -> ANY_TIME.expand("2026-11-26/2026-11-27/PT0S", 100))
                .hasMessageContaining("not positive");
        assertThatThrownBy(() -> ANY_TIME.expand("2026-11-26/2026-11-27/PT6H", 100))
                .hasMessageContaining("dates step by whole days");
        assertThatThrownBy(() -> ANY_TIME.expand("2026-11-26/2026-11-27/often", 100))
                .hasMessageContaining("often is not an ISO 8601 period");
        assertThatThrownBy(() -> ANY_TIME.expand("a/b/c/d", 100)).hasMessageContaining("neither a value nor");
    }

    @Test
    void textValuesAreOneOfAListOrMatchAPattern() {
        assertThat(STYLES.check("night")).isEqualTo("night");
        assertThatThrownBy(() -> STYLES.check("dark")).hasMessage("STYLES 'dark' is not one of default, night");
        assertThatThrownBy(() -> STYLES.expand("default/night", 10)).as("a slash is text in a text value")
                .hasMessage("STYLES 'default/night' is not one of default, night");
    }

    @Test
    void aPatternMustMatchTheWholeValue() {
        Dimension network = Dimension.declare("CQL_FILTER", Dimension.Kind.TEXT, List.of(),
                "network='[a-z]+'", null);
        assertThat(network.check("network='gas'")).isEqualTo("network='gas'");
        assertThatThrownBy(() -> network.check("network='gas' OR 1=1"))
                .hasMessage("CQL_FILTER 'network='gas' OR 1=1' does not match network='[a-z]+'");
        assertThatThrownBy(() -> network.check("")).hasMessage("CQL_FILTER value is empty");
        assertThatThrownBy(() -> network.check("a\nb")).hasMessageContaining("control character");
        assertThatThrownBy(() -> network.check("x".repeat(121))).hasMessageContaining("longer than 120");
    }

    @Test
    void numbersAreNormalizedAndSteppedFromTheStartOfTheirInterval() {
        assertThat(ELEVATION.check("250.00")).isEqualTo("250");
        assertThat(ELEVATION.check("5e3")).isEqualTo("5000");
        assertThat(ELEVATION.expand("0/500/250", 10)).containsExactly("0", "250", "500");
        assertThatThrownBy(() -> ELEVATION.check("100")).hasMessage("ELEVATION 100 is not within 0/1000/250, 5000");
        assertThatThrownBy(() -> ELEVATION.check("high")).hasMessage("ELEVATION high is not a number");
        Dimension any = Dimension.declare("DIM_DEPTH", Dimension.Kind.NUMBER, List.of("-10.5/10.5"), null, null);
        assertThat(any.check("3.25")).as("an interval without a resolution holds every value in it")
                .isEqualTo("3.25");
    }

    @Test
    void aDeclarationIsCheckedWhole() {
        assertThatThrownBy(() -> Dimension.declare("STYLES", Dimension.Kind.TEXT, List.of(), null, null))
                .hasMessageContaining("needs its allowed values");
        assertThatThrownBy(() -> Dimension.declare("TIME", Dimension.Kind.TIME, List.of(), "\\d+", null))
                .hasMessageContaining("a pattern is for text dimensions");
        assertThatThrownBy(() -> Dimension.declare("STYLES", Dimension.Kind.TEXT, List.of(), "(", null))
                .hasMessageContaining("pattern is not a regular expression");
        assertThatThrownBy(() -> Dimension.declare("TIME", Dimension.Kind.TIME, List.of("2026-11-26T00:00"), null,
                null)).hasMessageContaining("has no UTC offset");
        assertThatThrownBy(() -> Dimension.declare("STYLES", Dimension.Kind.TEXT, List.of("a"), null, "b"))
                .as("a default outside the allowed values").hasMessage("STYLES 'b' is not one of a");
        assertThatThrownBy(() -> Dimension.declare("1TIME", Dimension.Kind.TIME, List.of(), null, null))
                .hasMessageContaining("not a request parameter name");
    }

    @Test
    void retentionKeepsTheLastValuesAndThoseNewerThanItsDuration() {
        java.time.Instant now = java.time.Instant.parse("2026-11-26T12:30:00Z");
        List<String> held = List.of("2026-11-26T12:05:00Z", "2026-11-26T09:00:00Z", "2026-11-26T12:00:00Z",
                "2026-11-25T12:00:00Z", "2026-11-26");
        Dimension lastThree = ANY_TIME.withRetention(new Dimension.Retention(3, null));
        assertThat(lastThree.expired(held, now)).as("in time order, the dates' midnight among them")
                .containsExactly("2026-11-25T12:00:00Z", "2026-11-26");
        Dimension day = ANY_TIME.withRetention(new Dimension.Retention(0, java.time.Duration.ofHours(12)));
        assertThat(day.expired(held, now)).containsExactly("2026-11-25T12:00:00Z", "2026-11-26");
        Dimension both = ANY_TIME.withRetention(new Dimension.Retention(1, java.time.Duration.ofHours(12)));
        assertThat(both.expired(held, now)).hasSize(4).doesNotContain("2026-11-26T12:05:00Z");
        assertThat(ANY_TIME.expired(held, now)).as("no rule").isEmpty();

        Dimension levels = ELEVATION.withRetention(new Dimension.Retention(2, null));
        assertThat(levels.expired(List.of("1000", "250", "5000", "0"), now)).as("by value, not by text")
                .containsExactly("0", "250");
        assertThatThrownBy(() -> STYLES.withRetention(new Dimension.Retention(0, java.time.Duration.ofDays(1))))
                .hasMessageContaining("newerThan is for a time dimension");
        assertThatThrownBy(() -> new Dimension.Retention(0, null)).hasMessageContaining("keeps a positive number");
    }

    @Test
    void kindsFollowTheWellKnownNames() {
        assertThat(Dimension.Kind.of("time")).isEqualTo(Dimension.Kind.TIME);
        assertThat(Dimension.Kind.of("Elevation")).isEqualTo(Dimension.Kind.NUMBER);
        assertThat(Dimension.Kind.of("DIM_RUN")).isEqualTo(Dimension.Kind.TEXT);
    }
}
