package io.tileseeder.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * Jackson's failures are told by line and column in plain words: never its own rendering of the place
 * ({@code [Source: REDACTED (StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION disabled); line: 1, column: 34]}) nor a
 * Java type.
 */
class JsonProblemsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String JAVA = "java\\.|`|REDACTED|\\[Source|StreamReadFeature|Cannot deserialize";

    @Test
    void textThatEndsEarlyIsNamedByWhereItEnds() {
        String reason = reason("{\"type\": \"Polygon\", \"coordinates\": [[[0,0],[10,0],[10,", Object.class);

        assertThat(reason).isEqualTo("the GeoJSON ends early at line 1, column 55");
    }

    @Test
    void aWrongCloserIsNamedByWhereItIsWithoutJacksonsPlaceOfTheOpener() {
        String reason = reason("{\"coordinates\": [[0, 0]}", Object.class);

        assertThat(reason).startsWith("the GeoJSON is malformed at line 1, column 24: Unexpected close marker '}'")
                .doesNotContainPattern(JAVA);
    }

    @Test
    void aValueOfAnotherKindIsNamedByWhatItShouldBe() {
        assertThat(reason("\"low\"", Integer.class)).isEqualTo("'low' is not a whole number");
        assertThat(reason("[1]", Integer.class)).isEqualTo("must be a whole number");
        assertThat(reason("99999999999", Integer.class))
                .isEqualTo("out of range: must be a whole number from -2147483648 to 2147483647");
    }

    @Test
    void wordsDropsJacksonsPlacesAndJavaNames() {
        assertThat(JsonProblems.words("Unexpected end-of-input: expected close marker for ARRAY (start marker at "
                + "[Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 36])"
                + "\n at [Source: REDACTED; line: 1, column: 51]"))
                .isEqualTo("Unexpected end-of-input: expected close marker for ARRAY");
    }

    private static String reason(String json, Class<?> type) {
        try {
            JSON.readValue(json, type);
        } catch (JsonProcessingException e) {
            return JsonProblems.reason(e, "the GeoJSON");
        }
        throw new AssertionError("read: " + json);
    }
}
