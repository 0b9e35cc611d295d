package io.tileseeder.server.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.tileseeder.job.FieldError;
import io.tileseeder.job.JobRequest;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The job request is read as documented, each field of its own kind only, and a value of another kind is refused
 * naming the field in the API's words ({@link JsonErrors}). The mapper is made as Quarkus makes it: the customizer
 * first, Java time's module registered after it.
 */
class StrictJsonTest {

    private static final ObjectMapper JSON = strictMapper();

    private static ObjectMapper strictMapper() {
        ObjectMapper mapper = new ObjectMapper();
        new StrictJson().customize(mapper);
        return mapper.registerModule(new JavaTimeModule());
    }

    private static final String JOB = """
            {"layer": "world", "zoom": {"min": 0, "max": 1}, %s}""";

    static Stream<Arguments> valuesOfAnotherKind() {
        return Stream.of(
                Arguments.of("a number for a label's value", "\"labels\": {\"a\": 1}", "labels.a", "must be a string"),
                Arguments.of("a fraction for a label's value", "\"labels\": {\"a\": 1.5}", "labels.a",
                        "must be a string"),
                Arguments.of("true for a label's value", "\"labels\": {\"a\": true}", "labels.a", "must be a string"),
                Arguments.of("a number for a name", "\"format\": 1", "format", "must be a string"),
                Arguments.of("false for a name", "\"mode\": false", "mode", "must be a string"),
                Arguments.of("a number for an instant", "\"mode\": \"reseed\", \"refreshBefore\": 1767225600",
                        "refreshBefore", "must be an instant such as 2026-01-01T00:00:00Z"),
                Arguments.of("a fraction for an instant", "\"mode\": \"reseed\", \"refreshBefore\": 1767225600.5",
                        "refreshBefore", "must be an instant such as 2026-01-01T00:00:00Z"),
                Arguments.of("a number as a string", "\"priority\": \"1\"", "priority",
                        "must be a whole number"),
                Arguments.of("a number as a string in an array", "\"bbox\": [-10, \"40\", 10, 50]", "bbox[1]",
                        "must be a number"),
                Arguments.of("true for a whole number", "\"priority\": true", "priority",
                        "must be a whole number"),
                Arguments.of("true for a number", "\"bbox\": [-10, true, 10, 50]", "bbox[1]", "must be a number"),
                Arguments.of("a fraction for a whole number", "\"metatile\": {\"width\": 4.5, \"height\": 4}",
                        "metatile.width", "'4.5' is not a whole number"),
                Arguments.of("an unknown field", "\"zom\": 1", "zom", "unknown field; known fields: "),
                Arguments.of("an unknown field of a part", "\"metatile\": {\"width\": 4, \"heigth\": 4}",
                        "metatile.heigth", "unknown field; known fields: "));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valuesOfAnotherKind")
    void aValueOfAnotherKindIsRefusedNamingItsField(String what, String fields, String field, String reason) {
        JsonProcessingException refused = catchThrowableOfType(JsonProcessingException.class,
                () -> JSON.readValue(JOB.formatted(fields), JobRequest.class));

        assertThat(refused).as(what).isNotNull();
        FieldError error = JsonErrors.describe(refused);
        assertThat(error.field()).as(what).isEqualTo(field);
        assertThat(error.reason()).as(what).startsWith(reason);
    }

    /** Booleans are no field of a job; the same rule holds for them: a number is not true or false. */
    @Test
    void aNumberForTrueOrFalseIsRefused() {
        record Flag(Boolean on) {
        }
        JsonProcessingException refused = catchThrowableOfType(JsonProcessingException.class,
                () -> JSON.readValue("{\"on\": 1}", Flag.class));

        assertThat(JsonErrors.describe(refused)).isEqualTo(new FieldError("on", "must be true or false"));
    }

    @Test
    void everyFieldOfItsOwnKindIsRead() throws Exception {
        JobRequest job = JSON.readValue("""
                {"layer": "world", "tileMatrixSet": "WebMercatorQuad", "zoom": {"min": 0, "max": 6},
                 "bbox": [-10, 35.5, 30, 60], "format": "png", "mode": "reseed", "metatile": {"width": 4, "height": 4},
                 "refreshBefore": "2026-01-01T00:00:00Z", "priority": 0, "labels": {"pipeline": "nightly"},
                 "coverage": null, "tiles": null}""", JobRequest.class);

        assertThat(job.labels()).isEqualTo(Map.of("pipeline", "nightly"));
        assertThat(job.refreshBefore()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
        assertThat(job.bbox()).containsExactly(-10.0, 35.5, 30.0, 60.0);
        assertThat(job.zoom()).isEqualTo(new JobRequest.Zoom(0, 6));
    }
}
