package io.tileseeder.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.Dimension;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.job.FieldError;
import io.tileseeder.job.Fixtures;
import io.tileseeder.job.InvalidJobException;
import io.tileseeder.job.JobLimits;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.TileFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A job's dimension values: checked against the layer's, defaulted, expanded, bounded, and carried into its plan. */
class JobDimensionsValidationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final LayerInfo RADAR = new LayerInfo("radar", "Radar", "", 0, 10,
            Set.of(TileMatrixSet.WEB_MERCATOR_QUAD), Set.of(TileFormat.PNG), MetatileSize.DEFAULT,
            new MetatileSize(16, 16), Map.of(), "", List.of(
            Dimension.declare("TIME", Dimension.Kind.TIME, List.of("2026-11-26T00:00Z/2026-11-26T23:55Z/PT5M"),
                    null, null),
            Dimension.declare("STYLES", Dimension.Kind.TEXT, List.of("default", "night"), null, "default")));
    private static final JobLimits LIMITS = new JobLimits(1_000_000, 4, 100_000, 100_000, 12);

    private final JobSpecValidator validator = new JobSpecValidator(LayerCatalog.of(RADAR, Fixtures.WORLD), LIMITS);

    @Test
    void valuesAreNormalizedDefaultedAndCombinedInTheLayersOrder() {
        JobSpec spec = validator.validate(request("radar", Map.of("styles", "night",
                "time", List.of("2026-11-26T12:05Z", "2026-11-26T13:10:00+01:00"))));
        assertThat(spec.dimensions()).containsExactly(
                Map.entry("TIME", List.of("2026-11-26T12:05:00Z", "2026-11-26T12:10:00Z")),
                Map.entry("STYLES", List.of("night")));
        assertThat(spec.combinations()).extracting(DimensionValues::path)
                .containsExactly("2026-11-26T12:05:00Z/night", "2026-11-26T12:10:00Z/night");
        assertThat(MetatilePlan.of(spec).tileCount()).isEqualTo(2 * (1 + 4 + 16));

        JobSpec defaulted = validator.validate(request("radar", Map.of("TIME", "2026-11-26T12:00Z")));
        assertThat(defaulted.dimensions().get("STYLES")).containsExactly("default");
        assertThat(validator.validate(defaulted.toRequest())).as("the stored request gives the same job")
                .isEqualTo(defaulted);
    }

    @Test
    void anIntervalExpandsAndRepeatsCountOnce() {
        JobSpec spec = validator.validate(request("radar", Map.of("TIME",
                List.of("2026-11-26T12:00Z/2026-11-26T12:15Z/PT5M", "2026-11-26T12:05Z"))));
        assertThat(spec.dimensions().get("TIME")).hasSize(4);
        assertThat(spec.combinationCount()).isEqualTo(4);
    }

    @Test
    void everyBadValueIsNamedWithItsDimension() {
        assertThat(errors(request("radar", Map.of("TIME", "2026-13-01")))).containsExactly(new FieldError(
                "dimensions.TIME", "TIME 2026-13-01 is not an ISO 8601 instant (2026-11-26T12:05Z) or date "
                + "(2026-11-26)"));
        assertThat(errors(request("radar", Map.of("TIME", "2026-11-26T12:05Z", "STYLES", "dark"))))
                .containsExactly(new FieldError("dimensions.STYLES", "STYLES 'dark' is not one of default, night"));
        assertThat(errors(request("radar", Map.of()))).containsExactly(new FieldError("dimensions.TIME",
                "is required: layer 'radar' has no default TIME"));
        assertThat(errors(request("radar", Map.of("TIME", "2026-11-26T12:05Z", "DIM_RUN", "a"))))
                .containsExactly(new FieldError("dimensions.DIM_RUN", "layer 'radar' has no dimension DIM_RUN; its "
                        + "dimensions: TIME, STYLES"));
        assertThat(errors(request("world", Map.of("TIME", "2026-11-26T12:05Z")))).containsExactly(new FieldError(
                "dimensions.TIME", "layer 'world' has no dimension TIME; it has none"));
        assertThat(errors(request("radar", Map.of("TIME", List.of())))).containsExactly(new FieldError(
                "dimensions.TIME", "names no value"));
        assertThat(errors(request("radar", Map.of("TIME", Map.of("a", 1))))).containsExactly(new FieldError(
                "dimensions.TIME", "must be a value, an interval min/max/resolution or an array of them, not object"));
        Map<String, Object> twice = new LinkedHashMap<>();
        twice.put("TIME", "2026-11-26T12:05Z");
        twice.put("time", "2026-11-26T12:10Z");
        assertThat(errors(request("radar", twice))).containsExactly(new FieldError("dimensions.time",
                "is named twice"));
    }

    @Test
    void moreCombinationsThanTheLimitAreRefused() {
        assertThat(errors(request("radar", Map.of("TIME", "2026-11-26T12:00Z/2026-11-26T13:00Z/PT5M"))))
                .as("13 values of one dimension").containsExactly(new FieldError("dimensions.TIME",
                        "TIME 2026-11-26T12:00Z/2026-11-26T13:00Z/PT5M has more than 12 values"));
        assertThat(errors(request("radar", Map.of("TIME", "2026-11-26T12:00Z/2026-11-26T12:30Z/PT5M",
                "STYLES", List.of("default", "night"))))).as("7 times 2").containsExactly(new FieldError("dimensions",
                "the job would seed more than 12 caches (combinations of dimension values), the limit per job; name "
                        + "fewer values or split the job"));
    }

    @Test
    void theTileLimitCountsEveryCache() {
        JobSpecValidator tight = new JobSpecValidator(LayerCatalog.of(RADAR),
                new JobLimits(40, 4, 100_000, 100_000, 12));
        assertThat(errors(tight, request("radar", Map.of("TIME", List.of("2026-11-26T12:00Z", "2026-11-26T12:05Z")))))
                .singleElement().satisfies(error -> assertThat(error.reason()).startsWith("the job would have 42 "
                        + "tiles, more than the limit of 40 tiles per job (2 caches of its dimension values)"));
    }

    private static JobRequest request(String layer, Map<String, ?> dimensions) {
        Map<String, JsonNode> values = new LinkedHashMap<>();
        dimensions.forEach((name, value) -> values.put(name, JSON.valueToTree(value)));
        return new JobRequest(layer, null, new JobRequest.Zoom(0, 2), null, null, null, null, null, null, null, null,
                null, null, values);
    }

    private List<FieldError> errors(JobRequest request) {
        return errors(validator, request);
    }

    private static List<FieldError> errors(JobSpecValidator validator, JobRequest request) {
        return catchThrowableOfType(InvalidJobException.class, () -> validator.validate(request)).errors();
    }
}
