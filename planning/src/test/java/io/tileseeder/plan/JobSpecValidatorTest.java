package io.tileseeder.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.Crs;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrix;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.FieldError;
import io.tileseeder.job.Fixtures;
import io.tileseeder.job.InvalidJobException;
import io.tileseeder.job.JobLimits;
import io.tileseeder.job.JobArea;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JobSpecValidatorTest {

    private final JobSpecValidator validator = new JobSpecValidator(Fixtures.CATALOG, Fixtures.LIMITS);

    // ---- defaults ---------------------------------------------------------------------------------------

    @Test
    void aMinimalRequestGetsEveryDefault() {
        JobSpec spec = validator.validate(Fixtures.minimalRequest());

        assertThat(spec.layer()).isEqualTo("world");
        assertThat(spec.tileMatrixSet()).isEqualTo(TileMatrixSet.WEB_MERCATOR_QUAD);
        assertThat(spec.format()).isEqualTo(TileFormat.PNG);
        assertThat(spec.mode()).isEqualTo(Mode.SEED);
        assertThat(spec.metatile()).isEqualTo(Fixtures.WORLD_METATILE).isNotEqualTo(MetatileSize.DEFAULT);
        assertThat(spec.bbox()).isEqualTo(Bounds.WORLD_CRS84);
        assertThat(spec.minZoom()).isZero();
        assertThat(spec.maxZoom()).isEqualTo(2);
        assertThat(spec.priority()).isZero();
        assertThat(spec.labels()).isEmpty();
        assertThat(spec.refreshBefore()).isNull();
        assertThat(MetatilePlan.of(spec).tileCount()).isEqualTo(1 + 4 + 16);
    }

    @Test
    void everyFieldGivenIsTaken() {
        JobRequest request = new JobRequest("world", "WorldCRS84Quad", new JobRequest.Zoom(3, 5),
                Fixtures.bbox(-10, 40, 20, 60), "jpeg", "reseed", new JobRequest.Metatile(2, 3),
                Fixtures.SOME_INSTANT, 7, Map.of("team", "maps"));

        JobSpec spec = validator.validate(request);

        assertThat(spec).isEqualTo(new JobSpec("world", TileMatrixSet.WORLD_CRS84_QUAD, 3, 5,
                new Bounds(-10, 40, 20, 60), TileFormat.JPEG, Mode.RESEED, new MetatileSize(2, 3),
                Fixtures.SOME_INSTANT, 7, Map.of("team", "maps")));
    }

    @Test
    void aSpecWrittenBackAsARequestValidatesToTheSameSpec() {
        // toRequest() fills in every default; validating it again must give the same job (e.g. a stored job
        // re-checked against the catalog). Its bbox is an immutable List.of(...).
        JobSpec spec = validator.validate(Fixtures.minimalRequest());

        assertThatCode(() -> validator.validate(spec.toRequest())).doesNotThrowAnyException();
        assertThat(validator.validate(spec.toRequest())).isEqualTo(spec);
    }

    @Test
    void aBboxGivenAsAnImmutableListIsAccepted() {
        JobRequest request = new JobRequest("world", null, new JobRequest.Zoom(0, 2), List.of(-10.0, 40.0, 20.0, 60.0),
                null, null, null, null, null, null);

        assertThatCode(() -> validator.validate(request)).doesNotThrowAnyException();
    }

    // ---- one bad field at a time ------------------------------------------------------------------------

    @Test
    void aMissingLayerIsRefusedListingTheKnownLayers() {
        FieldError error = onlyError(new JobRequest(null, null, new JobRequest.Zoom(0, 2), null, null, null, null,
                null, null, null));

        assertThat(error.field()).isEqualTo("layer");
        assertThat(error.reason()).contains("required").contains("roads, world");
        assertThat(onlyError(new JobRequest("  ", null, new JobRequest.Zoom(0, 2), null, null, null, null, null,
                null, null)).field()).isEqualTo("layer");
    }

    @Test
    void anUnknownLayerIsRefusedListingTheKnownLayers() {
        FieldError error = onlyError(new JobRequest("wrold", null, new JobRequest.Zoom(0, 2), null, null, null, null,
                null, null, null));

        assertThat(error.field()).isEqualTo("layer");
        assertThat(error.reason()).contains("'wrold'").contains("roads, world");
    }

    @Test
    void anUnknownTileMatrixSetIsRefused() {
        FieldError error = onlyError(with(Fixtures.minimalRequest(), "WebMercatorQuadX", null, null));

        assertThat(error.field()).isEqualTo("tileMatrixSet");
        assertThat(error.reason()).contains("WebMercatorQuadX").contains("WebMercatorQuad, WorldCRS84Quad");
    }

    @Test
    void aTileMatrixSetTheLayerDoesNotHaveIsRefused() {
        FieldError error = onlyError(new JobRequest("roads", "WorldCRS84Quad", new JobRequest.Zoom(5, 6), null, null,
                null, null, null, null, null));

        assertThat(error.field()).isEqualTo("tileMatrixSet");
        assertThat(error.reason()).contains("roads").contains("WorldCRS84Quad");
    }

    /** A layer on ETRS89-LAEA (zoom 0..15) and on a non-quad Swiss set, zoom 0..18 of its own. */
    private static final TileMatrixSet SWISS = TileMatrixSet.register(TileMatrixSet.of("ValidatorSwiss",
            Crs.of("EPSG:2056", false), List.of(new TileMatrix("0", 1000, 2420000, 1350000, 256, 256, 2, 2),
                    new TileMatrix("1", 500, 2420000, 1350000, 256, 256, 4, 3),
                    new TileMatrix("2", 250, 2420000, 1350000, 256, 256, 8, 5))));
    private static final TileMatrixSet LAEA = TileMatrixSet.byId("EuropeanETRS89_LAEAQuad").orElseThrow();
    private final JobSpecValidator europe = new JobSpecValidator(LayerCatalog.of(new LayerInfo("europe", "Europe",
            "", 0, 18, Set.of(LAEA, SWISS), Set.of(TileFormat.PNG), MetatileSize.DEFAULT)), Fixtures.LIMITS);

    private List<FieldError> europeErrors(String set, int maxZoom, List<Double> bbox, JsonNode coverage) {
        JobRequest request = new JobRequest("europe", set, new JobRequest.Zoom(0, maxZoom), bbox, null, null, null,
                null, null, null, coverage, null);
        InvalidJobException e = catchThrowableOfType(InvalidJobException.class, () -> europe.validate(request));
        return e == null ? List.of() : e.errors();
    }

    @Test
    void aZoomBeyondTheSetsLastMatrixIsRefusedNamingItsRange() {
        assertThat(europeErrors("EuropeanETRS89_LAEAQuad", 16, null, null)).containsExactly(new FieldError(
                "zoom.max", "16 is beyond the last matrix of EuropeanETRS89_LAEAQuad: its zoom levels are 0..15"));
        assertThat(europeErrors("ValidatorSwiss", 3, null, null)).extracting(FieldError::reason)
                .containsExactly("3 is beyond the last matrix of ValidatorSwiss: its zoom levels are 0..2");
        assertThat(europeErrors("EuropeanETRS89_LAEAQuad", 15, List.of(5.0, 45.0, 6.0, 46.0), null)).isEmpty();
    }

    @Test
    void aBboxOutsideTheSetsExtentIsRefused() {
        // The south Pacific is on the far side of the globe from LAEA Europe's centre (10° E, 52° N).
        assertThat(europeErrors("EuropeanETRS89_LAEAQuad", 2, List.of(-170.0, -60.0, -160.0, -50.0), null))
                .extracting(FieldError::field, FieldError::reason).containsExactly(tuple("bbox",
                        "[-170.0, -60.0, -160.0, -50.0] lies outside the extent of EuropeanETRS89_LAEAQuad "
                                + "(EPSG:3035 [2000000.0, 1000000.0, 6500000.0, 5500000.0])"));
        assertThat(europeErrors("ValidatorSwiss", 2, List.of(-5.0, 40.0, -4.0, 41.0), null))
                .extracting(FieldError::field).containsExactly("bbox");
        assertThat(europeErrors("ValidatorSwiss", 2, List.of(7.0, 46.0, 8.0, 47.0), null)).isEmpty();
        assertThat(europeErrors("ValidatorSwiss", 2, null, null)).as("the world holds the extent").isEmpty();
        assertThat(europeErrors("EuropeanETRS89_LAEAQuad", 2, null, null)).isEmpty();
    }

    @Test
    void aTileListAndACoverageAreTakenOnANonQuadSetAndATileOutsideAMatrixIsNamed() throws Exception {
        JsonNode coverage = new ObjectMapper().readTree(
                "{\"type\": \"Polygon\", \"coordinates\": [[[7, 46], [8, 46], [8, 47], [7, 47], [7, 46]]]}");
        JobRequest tiles = new JobRequest("europe", "ValidatorSwiss", new JobRequest.Zoom(0, 2), null, null, null,
                null, null, null, null, null, new ObjectMapper().readTree("\"1/0/0\""));
        JobRequest outside = new JobRequest("europe", "ValidatorSwiss", new JobRequest.Zoom(0, 2), null, null, null,
                null, null, null, null, null, new ObjectMapper().readTree("\"1/4/0\""));

        assertThat(europe.validate(tiles).area().kind()).isEqualTo(JobArea.Kind.TILES);
        assertThat(catchThrowableOfType(InvalidJobException.class, () -> europe.validate(outside)).errors())
                .extracting(FieldError::field).containsExactly("tiles");
        JobRequest deeper = new JobRequest("europe", "ValidatorSwiss", new JobRequest.Zoom(0, 2), null, null, null,
                null, null, null, null, null, new ObjectMapper().readTree("\"3/0/0\""));
        assertThat(catchThrowableOfType(InvalidJobException.class, () -> europe.validate(deeper)).errors())
                .extracting(FieldError::field, FieldError::reason)
                .containsExactly(tuple("tiles", "line 1: zoom 3 is beyond the layer's deepest zoom, 2"));
        assertThat(europeErrors("ValidatorSwiss", 2, null, coverage)).isEmpty();
        assertThat(europeErrors("EuropeanETRS89_LAEAQuad", 2, null, coverage)).isEmpty();
    }

    private JobRequest inSetCrs(String set, List<Double> bbox, String bboxCrs, JsonNode coverage) {
        return new JobRequest("europe", set, new JobRequest.Zoom(0, 2), bbox, null, null, null, null, null, null,
                coverage, null, bboxCrs);
    }

    private List<FieldError> inSetCrsErrors(String set, List<Double> bbox, String bboxCrs, JsonNode coverage) {
        InvalidJobException e = catchThrowableOfType(InvalidJobException.class,
                () -> europe.validate(inSetCrs(set, bbox, bboxCrs, coverage)));
        return e == null ? List.of() : e.errors();
    }

    /**
     * A bbox in the set's own CRS, in its axis order: the job's tiles are those that meet it there (not those of a
     * CRS84 envelope), its CRS84 bbox the envelope that says where it is, and it reads back as it was given.
     */
    @Test
    void aBboxInTheSetsOwnCrsSelectsTheTilesThatMeetItThereInTheCrsAxisOrder() {
        JobSpec swiss = europe.validate(inSetCrs("ValidatorSwiss", List.of(2600000.0, 1100000.0, 2700000.0,
                1200000.0), "http://www.opengis.net/def/crs/EPSG/0/2056", null));
        assertThat(swiss.crsBbox()).isEqualTo(new Bounds(2600000, 1100000, 2700000, 1200000));
        // Matrix 2: 64 km tiles from (2420000, 1350000): columns 2.81..4.38, rows 2.34..3.91.
        assertThat(swiss.tiles(2)).isEqualTo(SWISS.tileRangeOf(swiss.crsBbox(), 2));
        assertThat(List.of(swiss.tiles(2).minX(), swiss.tiles(2).maxX(), swiss.tiles(2).minY(),
                swiss.tiles(2).maxY())).containsExactly(2, 4, 2, 3);
        assertThat(swiss.bbox().minX()).isBetween(7.0, 7.8);
        assertThat(swiss.bbox().maxY()).isBetween(46.8, 47.6);
        assertThat(europe.validate(swiss.toRequest())).isEqualTo(swiss);
        assertThat(swiss.toRequest().bboxCrs()).isEqualTo("EPSG:2056");

        JobSpec laea = europe.validate(inSetCrs("EuropeanETRS89_LAEAQuad", List.of(2500000.0, 4000000.0,
                3000000.0, 4500000.0), "EPSG:3035", null));
        assertThat(laea.crsBbox()).as("northing first in EPSG:3035").isEqualTo(new Bounds(4000000, 2500000,
                4500000, 3000000));
        assertThat(laea.toRequest().bbox()).containsExactly(2500000.0, 4000000.0, 3000000.0, 4500000.0);
        assertThat(europe.validate(laea.toRequest())).isEqualTo(laea);

        assertThat(europe.validate(inSetCrs("ValidatorSwiss", List.of(7.0, 46.0, 8.0, 47.0), "OGC:CRS84", null))
                .crsBbox()).as("CRS84 named").isNull();
    }

    @Test
    void aBboxCrsThatIsNotTheSetsOrABboxOutsideItIsRefusedNamingWhy() throws Exception {
        List<Double> bern = List.of(2590000.0, 1190000.0, 2610000.0, 1210000.0);
        JsonNode coverage = new ObjectMapper().readTree(
                "{\"type\": \"Polygon\", \"coordinates\": [[[7, 46], [8, 46], [8, 47], [7, 47], [7, 46]]]}");

        assertThat(inSetCrsErrors("ValidatorSwiss", bern, "EPSG:4326", null)).containsExactly(new FieldError(
                "bboxCrs", "'EPSG:4326' is neither CRS84 nor the CRS of ValidatorSwiss, EPSG:2056"));
        assertThat(inSetCrsErrors("ValidatorSwiss", bern, "LV95", null)).extracting(FieldError::field)
                .containsExactly("bboxCrs");
        assertThat(inSetCrsErrors("ValidatorSwiss", null, "EPSG:2056", null)).containsExactly(new FieldError(
                "bboxCrs", "names the CRS of bbox; give a bbox with it"));
        assertThat(inSetCrsErrors("ValidatorSwiss", bern, "EPSG:2056", coverage)).containsExactly(new FieldError(
                "bboxCrs", "a job with a coverage or a tile list takes a bbox in CRS84"));
        assertThat(inSetCrsErrors("ValidatorSwiss", List.of(2610000.0, 1190000.0, 2590000.0, 1210000.0),
                "EPSG:2056", null)).extracting(FieldError::reason).singleElement().asString()
                .contains("is empty or inverted").contains("[minEasting, minNorthing, maxEasting, maxNorthing]");
        assertThat(inSetCrsErrors("ValidatorSwiss", List.of(100.0, 100.0, 200.0, 200.0), "EPSG:2056", null))
                .extracting(FieldError::reason).singleElement().asString()
                .contains("lies outside the extent of ValidatorSwiss (EPSG:2056");
        assertThat(inSetCrsErrors("EuropeanETRS89_LAEAQuad", List.of(1.0, 2.0, 3.0), "EPSG:3035", null))
                .extracting(FieldError::reason).singleElement().asString()
                .contains("[minNorthing, minEasting, maxNorthing, maxEasting]");
    }

    @Test
    void anUnknownFormatIsRefused() {
        FieldError error = onlyError(with(Fixtures.minimalRequest(), null, "gif", null));

        assertThat(error.field()).isEqualTo("format");
        assertThat(error.reason()).contains("'gif'").contains("png, png8, jpeg, jpeg-png, webp, webp-lossless");
    }

    @Test
    void aFormatTheLayerDoesNotHaveIsRefused() {
        FieldError error = onlyError(new JobRequest("roads", null, new JobRequest.Zoom(5, 6), null, "jpeg", null,
                null, null, null, null));

        assertThat(error.field()).isEqualTo("format");
        assertThat(error.reason()).contains("roads").contains("jpeg");
    }

    @Test
    void anUnknownModeIsRefused() {
        FieldError error = onlyError(with(Fixtures.minimalRequest(), null, null, "delete"));

        assertThat(error.field()).isEqualTo("mode");
        assertThat(error.reason()).contains("'delete'").contains("seed, reseed, truncate");
        assertThat(onlyError(with(Fixtures.minimalRequest(), null, null, "SEED")).field()).isEqualTo("mode");
        assertThat(onlyError(with(Fixtures.minimalRequest(), null, null, "")).field()).isEqualTo("mode");
    }

    @Test
    void aMissingZoomIsRefused() {
        assertThat(onlyError(zoom(null)).field()).isEqualTo("zoom");
        assertThat(onlyError(zoom(new JobRequest.Zoom(null, 3))).field()).isEqualTo("zoom.min");
        assertThat(onlyError(zoom(new JobRequest.Zoom(3, null))).field()).isEqualTo("zoom.max");
    }

    @Test
    void aZoomMinAboveMaxIsRefused() {
        FieldError error = onlyError(zoom(new JobRequest.Zoom(5, 3)));

        assertThat(error.field()).isEqualTo("zoom");
        assertThat(error.reason()).contains("5").contains("3");
    }

    @Test
    void aZoomOutsideTheLayersRangeIsRefused() {
        FieldError tooDeep = onlyError(zoom(new JobRequest.Zoom(0, 11)));
        assertThat(tooDeep.field()).isEqualTo("zoom.max");
        assertThat(tooDeep.reason()).contains("11").contains("0..10").contains("world");

        FieldError tooShallow = onlyError(new JobRequest("roads", null, new JobRequest.Zoom(4, 6), null, null, null,
                null, null, null, null));
        assertThat(tooShallow.field()).isEqualTo("zoom.min");
        assertThat(tooShallow.reason()).contains("4").contains("5..14");

        assertThat(errors(zoom(new JobRequest.Zoom(-1, 0)))).extracting(FieldError::field).containsExactly("zoom.min");
    }

    @Test
    void aBboxOfThreeNumbersIsRefused() {
        FieldError error = onlyError(bbox(Fixtures.bbox(1, 2, 3)));

        assertThat(error.field()).isEqualTo("bbox");
        assertThat(error.reason()).contains("four numbers");
    }

    @Test
    void aBboxWithANullIsRefused() {
        assertThat(onlyError(bbox(new ArrayList<>(Arrays.asList(1.0, null, 3.0, 4.0)))).field()).isEqualTo("bbox");
    }

    @Test
    void aBboxOutOfRangeIsRefusedPerCoordinate() {
        List<FieldError> errors = errors(bbox(Fixtures.bbox(200, -95, 10, 10)));

        assertThat(errors).hasSize(2);
        assertThat(errors.get(0).field()).startsWith("bbox[0]");
        assertThat(errors.get(0).reason()).contains("200").contains("-180..180");
        assertThat(errors.get(1).field()).startsWith("bbox[1]");
        assertThat(errors.get(1).reason()).contains("-95").contains("-90..90");

        assertThat(onlyError(bbox(Fixtures.bbox(0, 0, 10, 90.5))).field()).startsWith("bbox[3]");
        assertThat(onlyError(bbox(Fixtures.bbox(0, 0, 180.5, 10))).field()).startsWith("bbox[2]");
        assertThat(onlyError(bbox(Fixtures.bbox(0, Double.NaN, 10, 10))).field()).startsWith("bbox[1]");
    }

    @Test
    void anInvertedBboxIsRefused() {
        FieldError lon = onlyError(bbox(Fixtures.bbox(10, 0, -10, 5)));
        assertThat(lon.field()).isEqualTo("bbox");
        assertThat(lon.reason()).contains("minLon").contains("inverted");

        FieldError lat = onlyError(bbox(Fixtures.bbox(0, 10, 5, -10)));
        assertThat(lat.field()).isEqualTo("bbox");
        assertThat(lat.reason()).contains("minLat").contains("inverted");
    }

    @Test
    void aBboxInvertedInBothAxesReportsBoth() {
        assertThat(errors(bbox(Fixtures.bbox(10, 10, -10, -10)))).extracting(FieldError::reason)
                .anySatisfy(r -> assertThat(r).contains("minLon"))
                .anySatisfy(r -> assertThat(r).contains("minLat"));
    }

    @Test
    void aBboxOnTheWorldsEdgeIsAccepted() {
        assertThat(validator.validate(bbox(Fixtures.bbox(-180, -90, 180, 90))).bbox()).isEqualTo(Bounds.WORLD_CRS84);
        assertThat(MetatilePlan.of(validator.validate(bbox(Fixtures.bbox(5, 5, 5, 5)))).tileCount()).isEqualTo(3);
    }

    @Test
    void metatilesOutside1To16AreRefused() {
        FieldError zero = onlyError(metatile(new JobRequest.Metatile(0, 4)));
        assertThat(zero.field()).isEqualTo("metatile");
        assertThat(zero.reason()).contains("0x4");

        FieldError wide = onlyError(metatile(new JobRequest.Metatile(17, 1)));
        assertThat(wide.field()).isEqualTo("metatile");
        assertThat(wide.reason()).contains("17x1");

        assertThat(onlyError(metatile(new JobRequest.Metatile(4, null))).field()).isEqualTo("metatile");
        assertThat(validator.validate(metatile(new JobRequest.Metatile(16, 1))).metatile()).isEqualTo(new MetatileSize(16, 1));
    }

    @Test
    void refreshBeforeWithoutReseedIsRefused() {
        JobRequest seed = new JobRequest("world", null, new JobRequest.Zoom(0, 2), null, null, null, null,
                Fixtures.SOME_INSTANT, null, null);
        FieldError error = onlyError(seed);
        assertThat(error.field()).isEqualTo("refreshBefore");
        assertThat(error.reason()).contains("reseed");

        JobRequest truncate = new JobRequest("world", null, new JobRequest.Zoom(0, 2), null, null, "truncate", null,
                Fixtures.SOME_INSTANT, null, null);
        assertThat(onlyError(truncate).field()).isEqualTo("refreshBefore");

        JobRequest reseed = new JobRequest("world", null, new JobRequest.Zoom(0, 2), null, null, "reseed", null,
                Fixtures.SOME_INSTANT, null, null);
        assertThat(validator.validate(reseed).refreshBefore()).isEqualTo(Fixtures.SOME_INSTANT);
    }

    @Test
    void tooManyLabelsAreRefused() {
        Map<String, String> five = new LinkedHashMap<>();
        for (int i = 0; i < 5; i++) {
            five.put("k" + i, "v" + i);
        }
        FieldError error = onlyError(labels(five));

        assertThat(error.field()).isEqualTo("labels");
        assertThat(error.reason()).contains("5").contains("4");

        five.remove("k4");
        assertThat(validator.validate(labels(five)).labels()).hasSize(4);
    }

    @Test
    void overlongOrEmptyLabelsAreRefused() {
        assertThat(onlyError(labels(Map.of("team", "x".repeat(129)))).field()).isEqualTo("labels.team");
        assertThat(onlyError(labels(Map.of("", "x"))).field()).isEqualTo("labels.");
        assertThat(validator.validate(labels(Map.of("team", "x".repeat(128)))).labels()).containsKey("team");
    }

    // ---- the tile limit ---------------------------------------------------------------------------------

    @Test
    void aJobOverTheTileLimitIsRefusedWithItsExactTileCount() {
        // The world z0-10 in WebMercatorQuad: sum of 4^z for z = 0..10 = 1398101 tiles.
        long expected = 0;
        for (int z = 0; z <= 10; z++) {
            expected += 1L << (2 * z);
        }
        assertThat(expected).isEqualTo(1_398_101L);

        FieldError error = onlyError(zoom(new JobRequest.Zoom(0, 10)));

        assertThat(error.field()).isEqualTo("zoom");
        assertThat(error.reason()).contains("1398101 tiles").contains("1000000");
    }

    @Test
    void aJobAtTheTileLimitIsAccepted() {
        // The world z0-9 in WebMercatorQuad is 349525 tiles; in WorldCRS84Quad twice that.
        assertThat(MetatilePlan.of(validator.validate(zoom(new JobRequest.Zoom(0, 9)))).tileCount()).isEqualTo(349_525L);
        JobRequest crs84 = new JobRequest("world", "WorldCRS84Quad", new JobRequest.Zoom(0, 9), null, null, null, null,
                null, null, null);
        assertThat(MetatilePlan.of(validator.validate(crs84)).tileCount()).isEqualTo(699_050L);

        JobSpecValidator exact = new JobSpecValidator(Fixtures.CATALOG, new JobLimits(349_525, 4, 100_000, 100_000));
        assertThat(MetatilePlan.of(exact.validate(zoom(new JobRequest.Zoom(0, 9)))).tileCount()).isEqualTo(349_525L);
        JobSpecValidator oneLess = new JobSpecValidator(Fixtures.CATALOG, new JobLimits(349_524, 4, 100_000, 100_000));
        InvalidJobException refused = catchThrowableOfType(InvalidJobException.class,
                () -> oneLess.validate(zoom(new JobRequest.Zoom(0, 9))));
        assertThat(refused).isNotNull();
        assertThat(refused.errors()).singleElement().satisfies(e -> assertThat(e.reason()).contains("349525 tiles"));
    }

    // ---- several errors at once -------------------------------------------------------------------------

    @Test
    void everyBadFieldIsReportedAtOnce() {
        Map<String, String> labels = new LinkedHashMap<>();
        for (int i = 0; i < 5; i++) {
            labels.put("k" + i, "v");
        }
        JobRequest request = new JobRequest("nope", "WebMercatorQuadX", null, Fixtures.bbox(1, 2, 3), "gif",
                "delete", new JobRequest.Metatile(0, 4), Fixtures.SOME_INSTANT, null, labels);

        InvalidJobException e = catchThrowableOfType(InvalidJobException.class, () -> validator.validate(request));

        assertThat(e).isNotNull();
        assertThat(e.errors()).extracting(FieldError::field).containsExactlyInAnyOrder(
                "layer", "tileMatrixSet", "format", "mode", "zoom", "bbox", "metatile", "labels", "refreshBefore");
        for (FieldError error : e.errors()) {
            assertThat(e.getMessage()).contains(error.toString());
        }
    }

    @Test
    void errorsInDifferentFieldsOfAKnownLayerAreAllReported() {
        JobRequest request = new JobRequest("world", null, new JobRequest.Zoom(12, 9), Fixtures.bbox(10, 0, -10, 5),
                "jpeg", null, new JobRequest.Metatile(17, 1), null, null, null);

        assertThat(errors(request)).extracting(FieldError::field)
                .containsExactlyInAnyOrder("zoom.min", "zoom", "bbox", "metatile");
    }

    @Test
    void aMissingBodyIsRefused() {
        InvalidJobException e = catchThrowableOfType(InvalidJobException.class, () -> validator.validate(null));
        assertThat(e).isNotNull();
        assertThat(e.errors()).extracting(FieldError::field).containsExactly("body");
    }

    // ---- helpers ----------------------------------------------------------------------------------------

    private List<FieldError> errors(JobRequest request) {
        InvalidJobException e = catchThrowableOfType(InvalidJobException.class, () -> validator.validate(request));
        assertThat(e).as("validating %s", request).isNotNull();
        return e.errors();
    }

    private FieldError onlyError(JobRequest request) {
        List<FieldError> errors = errors(request);
        assertThat(errors).as("errors for %s", request).hasSize(1);
        return errors.get(0);
    }

    private static JobRequest with(JobRequest r, String tileMatrixSet, String format, String mode) {
        return new JobRequest(r.layer(), tileMatrixSet, r.zoom(), r.bbox(), format, mode, r.metatile(),
                r.refreshBefore(), r.priority(), r.labels());
    }

    private static JobRequest zoom(JobRequest.Zoom zoom) {
        return new JobRequest("world", null, zoom, null, null, null, null, null, null, null);
    }

    private static JobRequest bbox(List<Double> bbox) {
        return new JobRequest("world", null, new JobRequest.Zoom(0, 2), bbox, null, null, null, null, null, null);
    }

    private static JobRequest metatile(JobRequest.Metatile metatile) {
        return new JobRequest("world", null, new JobRequest.Zoom(0, 2), null, null, null, metatile, null, null, null);
    }

    private static JobRequest labels(Map<String, String> labels) {
        return new JobRequest("world", null, new JobRequest.Zoom(0, 2), null, null, null, null, null, null, labels);
    }
}
