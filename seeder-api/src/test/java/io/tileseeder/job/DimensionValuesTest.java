package io.tileseeder.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DimensionValuesTest {

    @Test
    void plainValuesAreTheirOwnFolders() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("TIME", "2026-11-26T12:05:00Z");
        values.put("STYLES", "night");
        values.put("ELEVATION", "-12.5");
        assertThat(new DimensionValues(values).path()).isEqualTo("2026-11-26T12:05:00Z/night/-12.5");
        assertThat(DimensionValues.NONE.path()).isEmpty();
    }

    @Test
    void anyOtherCharacterIsPercentEncodedSoNoValueLeavesItsFolder() {
        assertThat(DimensionValues.folder("network='gas'")).isEqualTo("network%3D%27gas%27");
        assertThat(DimensionValues.folder("../../etc")).isEqualTo("%2E%2E%2F%2E%2E%2Fetc");
        assertThat(DimensionValues.folder("..")).isEqualTo("%2E%2E");
        assertThat(DimensionValues.folder(".")).isEqualTo("%2E");
        assertThat(DimensionValues.folder("a b")).isEqualTo("a%20b");
        assertThat(DimensionValues.folder("100%")).isEqualTo("100%25");
        assertThat(DimensionValues.folder("地図")).isEqualTo("%E5%9C%B0%E5%9B%B3");
    }

    static Stream<String> values() {
        return Gen.cases(0x5EED_D1A1L, 500, List.of(".", "..", "%", "%2E", "a/b", "\\", "C:", "~"),
                g -> g.text(1, 40));
    }

    /** Every value has one folder, a name that stays in its folder, and the folder gives the value back. */
    @ParameterizedTest
    @MethodSource("values")
    void everyValueRoundTripsThroughASafeFolderName(String value) {
        String folder = DimensionValues.folder(value);
        assertThat(folder).matches("[A-Za-z0-9._~:+%-]+").isNotIn(".", "..");
        assertThat(DimensionValues.value(folder)).isEqualTo(value);
    }

    @Test
    void valuesKeepTheLayersOrderThroughJson() throws Exception {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("TIME", "2026-11-26");
        values.put("STYLES", "night");
        values.put("A", "1");
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        String text = json.writeValueAsString(new DimensionValues(values));
        assertThat(text).isEqualTo("{\"TIME\":\"2026-11-26\",\"STYLES\":\"night\",\"A\":\"1\"}");
        assertThat(json.readValue(text, DimensionValues.class).path()).isEqualTo("2026-11-26/night/1");
    }
}
