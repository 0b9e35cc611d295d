package io.tileseeder.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tileseeder.area.Coverages;
import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.FieldError;
import io.tileseeder.job.InvalidJobException;
import io.tileseeder.job.JobArea;
import io.tileseeder.job.JobLimits;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Jobs over a coverage or a tile list: what is accepted, what it plans, and every way to get one wrong. */
class JobAreaValidationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SQUARE = "{\"type\":\"Polygon\",\"coordinates\":[[[10,10],[20,10],[20,20],[10,20],[10,10]]]}";
    private static final LayerInfo LAYER = new LayerInfo("world", "World", "", 0, 10,
            Set.of(TileMatrixSet.WEB_MERCATOR_QUAD, TileMatrixSet.WORLD_CRS84_QUAD), Set.of(TileFormat.PNG),
            MetatileSize.DEFAULT, new MetatileSize(16, 16),
            Map.of("square", Coverages.write(Coverages.parse(SQUARE, Bounds.WORLD_CRS84, 100))), "");
    private final JobSpecValidator validator =
            new JobSpecValidator(LayerCatalog.of(LAYER), new JobLimits(1_000_000, 4, 50, 20));

    @Test
    void aPolygonAFeatureACollectionAndAMultiPolygonOfTheSameSquarePlanTheSameTiles() {
        String feature = "{\"type\":\"Feature\",\"properties\":{\"name\":\"x\"},\"geometry\":" + SQUARE + "}";
        String collection = "{\"type\":\"FeatureCollection\",\"features\":[" + feature + "]}";
        String multi = "{\"type\":\"MultiPolygon\",\"coordinates\":[[[[10,10],[20,10],[20,20],[10,20],[10,10]]]]}";
        JobSpec polygon = validator.validate(coverage(json(SQUARE)));
        for (String form : List.of(feature, collection, multi)) {
            assertThat(validator.validate(coverage(json(form))).area()).as(form).isEqualTo(polygon.area());
        }
        assertThat(polygon.area().kind()).isEqualTo(JobArea.Kind.COVERAGE);
        assertThat(MetatilePlan.of(polygon).tileCount()).isLessThan(MetatilePlan.of(validator.validate(request(null, null, null))).tileCount());
    }

    @Test
    void aCoverageThatIsABboxPlansTheTilesOfThatBbox() {
        List<Double> box = List.of(10.0, 10.0, 20.0, 20.0);
        JobSpec byBbox = validator.validate(request(box, null, null));
        JobSpec byCoverage = validator.validate(coverage(json(SQUARE)));
        MetatilePlan bbox = MetatilePlan.of(byBbox);
        MetatilePlan area = MetatilePlan.of(byCoverage);
        for (int z = 0; z <= 6; z++) {
            assertThat(area.tileCount(z)).as("tiles at zoom %d", z).isEqualTo(bbox.tileCount(z));
            assertThat(area.taskCount(z)).as("tasks at zoom %d", z).isEqualTo(bbox.taskCount(z));
        }
    }

    @Test
    void aCoverageIsClippedToTheBbox() {
        JobSpec clipped = validator.validate(request(List.of(15.0, 15.0, 30.0, 30.0), json(SQUARE), null));
        JobSpec quarter = validator.validate(request(List.of(15.0, 15.0, 20.0, 20.0), null, null));
        assertThat(MetatilePlan.of(clipped).tileCount()).isEqualTo(MetatilePlan.of(quarter).tileCount());
    }

    @Test
    void aLayersCoverageIsNamedAndAnUnknownNameListsTheKnownOnes() {
        JobSpec named = validator.validate(coverage(TextNode.valueOf("square")));
        assertThat(named.area().name()).isEqualTo("square");
        assertThat(MetatilePlan.of(named).tileCount()).isEqualTo(MetatilePlan.of(validator.validate(coverage(json(SQUARE)))).tileCount());
        assertThat(error(coverage(TextNode.valueOf("circle")))).isEqualTo(new FieldError("coverage",
                "layer 'world' has no coverage 'circle'; its coverages: square"));
    }

    @Test
    void aSelfCrossingRingIsRepairedRatherThanRefused() {
        String bowtie = "{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[10,10],[10,0],[0,10],[0,0]]]}";
        assertThat(MetatilePlan.of(validator.validate(coverage(json(bowtie)))).tileCount()).isPositive();
    }

    @Test
    void everyBadCoverageIsRefusedSayingWhy() {
        assertThat(error(coverage(json("{\"type\":\"LineString\",\"coordinates\":[[0,0],[1,1]]}"))).reason())
                .isEqualTo("holds a LineString, which has no area; a coverage holds Polygons and MultiPolygons");
        assertThat(error(coverage(json("{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[200,0],[0,1],[0,0]]]}")))
                .reason()).startsWith("has the point (200.0, 0.0) outside CRS84");
        assertThat(error(coverage(json("{\"type\":\"Circle\",\"radius\":3}"))).reason())
                .startsWith("is not GeoJSON this server reads");
        assertThat(error(coverage(json("{\"type\":\"Polygon\",\"crs\":{\"type\":\"name\",\"properties\":"
                + "{\"name\":\"EPSG:3857\"}},\"coordinates\":[[[0,0],[1,0],[0,1],[0,0]]]}")))).isEqualTo(
                new FieldError("coverage.crs", "'EPSG:3857' is not supported; a coverage is in CRS84 longitudes and "
                        + "latitudes (RFC 7946: leave crs out)"));
        assertThat(error(coverage(IntNode.valueOf(42))).reason()).startsWith("must be a GeoJSON object");
        assertThat(error(request(List.of(50.0, 50.0, 60.0, 60.0), json(SQUARE), null)).reason())
                .isEqualTo("has no area inside the job's bbox 50.0,50.0,60.0,60.0");
        assertThat(error(coverage(json("{\"type\":\"Polygon\",\"coordinates\":[[[0,86],[10,86],[10,89],[0,89],[0,86]]]}")))
                .reason()).startsWith("holds no tile of WebMercatorQuad");
        StringBuilder ring = new StringBuilder("[[0,0]");
        for (int i = 1; i < 60; i++) {
            ring.append(",[").append(Math.cos(i * 0.1)).append(',').append(Math.sin(i * 0.1)).append(']');
        }
        ring.append(",[0,0]]");
        assertThat(error(coverage(json("{\"type\":\"Polygon\",\"coordinates\":[" + ring + "]}"))).reason())
                .isEqualTo("has 61 vertices, more than the limit of 50; simplify it");
    }

    @Test
    void aSliverAlongACellsMiddlePlansConsistentlyOrNotAtAll() {
        // Clipped to the bbox, 1 cm of this rectangle is left on longitude 0, the middle of the zoom 0 tile: thinner
        // than the precision the cells are tested with, so the zoom 0 tile holds it and no tile of zoom 1 does.
        String sliver = "{\"type\":\"Polygon\",\"coordinates\":[[[-10,40],[1e-7,40],[1e-7,50],[-10,50],[-10,40]]]}";
        JobSpec spec = validator.validate(request(List.of(0.0, 40.0, 10.0, 50.0), json(sliver), null));
        MetatilePlan plan = MetatilePlan.of(spec);
        long tasks = 0;
        long tiles = 0;
        for (PlannedMetatile task : plan) {
            assertThat(task.seq()).isEqualTo(tasks++);
            assertThat(task.tileCount()).isPositive();
            tiles += task.tileCount();
        }
        assertThat(tasks).isEqualTo(plan.taskCount());
        assertThat(tiles).isEqualTo(plan.tileCount()).isPositive();
        for (long k = 0; k <= tasks; k++) {
            assertThat(plan.from(k).hasNext()).isEqualTo(k < tasks);
        }
    }

    @Test
    void aCoverageOverTheTileLimitIsRefusedWithoutCountingItToTheEnd() {
        JobSpecValidator small = new JobSpecValidator(LayerCatalog.of(LAYER), new JobLimits(10, 4, 50, 20));
        assertThat(catchThrowableOfType(InvalidJobException.class, () -> small.validate(coverage(json(SQUARE))))
                .errors()).containsExactly(new FieldError("zoom", "the job would have more tiles than the limit of 10 "
                + "tiles per job; lower zoom.max, narrow the area or split the job"));
    }

    @Test
    void countingStopsPastTheLimitAndAnExactLimitIsNotPast() {
        JobSpec fresh = new JobSpec("world", TileMatrixSet.WORLD_CRS84_QUAD, 2, 7, Bounds.WORLD_CRS84, TileFormat.PNG,
                Mode.SEED, MetatileSize.DEFAULT, null, 0, Map.of(), new JobArea(JobArea.Kind.COVERAGE, null,
                "{\"type\":\"Polygon\",\"coordinates\":[[[-3,-3],[33,-3],[7,29],[-3,-3]]]}"));
        MetatilePlans plans = new MetatilePlans(4);
        assertThat(plans.tileCount(fresh, 5)).as("stopped past 5").isEmpty();
        long tiles = MetatilePlan.of(fresh).tileCount();
        assertThat(tiles).isGreaterThan(5);
        assertThat(plans.tileCount(fresh, tiles)).hasValue(tiles);
        assertThat(plans.tileCount(fresh, tiles - 1)).as("counted and kept, then asked with a lower limit").isEmpty();
    }

    @Test
    void aRingClosedWithTheSameNumberWrittenOtherwiseIsClosed() {
        String ring = "{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[10,0],[10,10],[0.0,0.0]]]}";
        assertThat(MetatilePlan.of(validator.validate(coverage(json(ring)))).tileCount()).isPositive();
    }

    @Test
    void aLayersCoverageIsNotHeldToTheVertexLimitOfWhatClientsSend() {
        StringBuilder ring = new StringBuilder("[[0,0]");
        for (int i = 1; i < 60; i++) {
            ring.append(",[").append(Math.cos(i * 0.1)).append(',').append(Math.sin(i * 0.1)).append(']');
        }
        String detailed = "{\"type\":\"Polygon\",\"coordinates\":[" + ring + ",[0,0]]]}";
        LayerInfo layer = new LayerInfo("world", "World", "", 0, 10, Set.of(TileMatrixSet.WEB_MERCATOR_QUAD),
                Set.of(TileFormat.PNG), MetatileSize.DEFAULT, new MetatileSize(16, 16),
                Map.of("detailed", Coverages.write(Coverages.parse(detailed, Bounds.WORLD_CRS84, Integer.MAX_VALUE))),
                "");
        JobSpecValidator limited = new JobSpecValidator(LayerCatalog.of(layer), new JobLimits(1_000_000, 4, 50, 20));
        assertThat(MetatilePlan.of(limited.validate(coverage(TextNode.valueOf("detailed")))).tileCount()).isPositive();
    }

    @Test
    void aTileListAsLinesOrAsAnArrayPlansTheSameTiles() {
        JobSpec lines = validator.validate(tiles(TextNode.valueOf("3/4/2\n\n  3/4/3 \n3/4/2\n")));
        JobSpec array = validator.validate(tiles(json("[\"3/4/3\", \"3/4/2\"]")));
        assertThat(array.area()).isEqualTo(lines.area());
        assertThat(lines.area().data()).isEqualTo("3/4/2\n3/4/3\n");
        MetatilePlan plan = MetatilePlan.of(lines);
        assertThat(plan.tileCount(0)).isEqualTo(1);
        assertThat(plan.tileCount(2)).isEqualTo(1);
        assertThat(plan.tileCount(3)).isEqualTo(2);
        assertThat(plan.tileCount(5)).isEqualTo(2 * 16);
    }

    @Test
    void everyBadTileListIsRefusedNamingTheLine() {
        assertThat(error(tiles(TextNode.valueOf("3/4/2\n3-4-2")))).isEqualTo(new FieldError("tiles",
                "line 2: '3-4-2' is not a tile; each line is z/x/y, such as 14/8508/5489"));
        assertThat(error(tiles(TextNode.valueOf("3/8/2"))).reason())
                .isEqualTo("line 1: 3/8/2 is outside WebMercatorQuad, whose zoom 3 has x 0..7 and y 0..7");
        assertThat(error(tiles(TextNode.valueOf("11/0/0"))).reason())
                .isEqualTo("line 1: zoom 11 is beyond the layer's deepest zoom, 10");
        assertThat(error(tiles(TextNode.valueOf("\n \n"))).reason()).isEqualTo("the list has no tiles");
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 21; i++) {
            many.append("8/").append(i).append("/0\n");
        }
        assertThat(error(tiles(TextNode.valueOf(many.toString()))).reason())
                .isEqualTo("the list has more than 20 distinct tiles, the limit; split it into several jobs");
        assertThat(error(tiles(json("[\"1/0/0\", 3]"))).reason())
                .isEqualTo("must be z/x/y lines in one string, or an array of z/x/y strings");
    }

    @Test
    void aJobTakesACoverageOrATileListNotBothAndAListTakesNoBboxNorAnOddMetatile() {
        assertThat(errors(request(null, json(SQUARE), TextNode.valueOf("1/0/0"))))
                .contains(new FieldError("tiles", "a job takes a coverage or a tile list, not both"));
        assertThat(errors(request(List.of(0.0, 0.0, 1.0, 1.0), null, TextNode.valueOf("1/0/0")))).containsExactly(
                new FieldError("bbox", "a job from a tile list takes its tiles from the list; leave bbox out"));
        JobRequest odd = new JobRequest("world", null, new JobRequest.Zoom(0, 5), null, null, null,
                new JobRequest.Metatile(4, 2), null, null, null, json(SQUARE), null);
        assertThat(errors(odd)).containsExactly(new FieldError("metatile", "4x2: a job with a coverage or a tile "
                + "list needs square metatiles of 1, 2, 4, 8 or 16 tiles a side"));
    }

    @Test
    void aJobOverAnAreaValidatesAgainAsItselfFromItsRequest() {
        for (JobRequest request : List.of(coverage(json(SQUARE)), coverage(TextNode.valueOf("square")),
                tiles(TextNode.valueOf("3/4/2")), request(List.of(15.0, 15.0, 30.0, 30.0), json(SQUARE), null))) {
            JobSpec spec = validator.validate(request);
            assertThat(validator.validate(spec.toRequest())).isEqualTo(spec);
        }
    }

    private static JobRequest coverage(JsonNode coverage) {
        return request(null, coverage, null);
    }

    private static JobRequest tiles(JsonNode tiles) {
        return request(null, null, tiles);
    }

    private static JobRequest request(List<Double> bbox, JsonNode coverage, JsonNode tiles) {
        return new JobRequest("world", null, new JobRequest.Zoom(0, 6), bbox, null, null, null, null, null, null,
                coverage, tiles);
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private List<FieldError> errors(JobRequest request) {
        return catchThrowableOfType(InvalidJobException.class, () -> validator.validate(request)).errors();
    }

    private FieldError error(JobRequest request) {
        List<FieldError> errors = errors(request);
        assertThat(errors).hasSize(1);
        return errors.get(0);
    }
}
