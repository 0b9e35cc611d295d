package io.tileseeder.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.TextNode;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.Dimension;
import io.tileseeder.job.FieldError;
import io.tileseeder.job.Fixtures;
import io.tileseeder.job.InvalidJobException;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A pack job: the whole finished cache of a layer, set and format into one archive. It plans one task whatever the
 * cache holds; what would choose tiles, and what a PMTiles archive cannot hold, is refused with the field named.
 */
class PackJobValidationTest {

    private final JobSpecValidator validator = new JobSpecValidator(Fixtures.CATALOG, Fixtures.LIMITS);

    @Test
    void aPackJobPlansOneTaskCountedAsOneTileAndCarriesItsArchive() {
        JobSpec spec = validator.validate(pack("world", null, "png", "s3://bucket/archives/world.pmtiles"));

        assertThat(spec.mode()).isEqualTo(Mode.PACK);
        assertThat(spec.archive()).isEqualTo("s3://bucket/archives/world.pmtiles");
        assertThat(spec.tileMatrixSet()).isEqualTo(TileMatrixSet.WEB_MERCATOR_QUAD);
        assertThat(spec.metatile()).isEqualTo(new MetatileSize(1, 1));
        MetatilePlan plan = MetatilePlan.of(spec);
        assertThat(plan.taskCount()).isEqualTo(1);
        assertThat(plan.tileCount()).isEqualTo(1);
        assertThat(plan).singleElement().satisfies(task -> {
            assertThat(task.seq()).isZero();
            assertThat(task.tileCount()).isEqualTo(1);
        });
        assertThat(plan.from(1).hasNext()).as("nothing after the one task").isFalse();
        assertThat(new MetatilePlans(1).tileCount(spec, 0)).as("no tile limit to meet").hasValue(1);
    }

    @Test
    void aPackJobWrittenBackAsARequestValidatesToTheSameSpec() {
        JobSpec spec = validator.validate(pack("world", null, "jpeg", "/data/world.pmtiles"));

        assertThat(validator.validate(spec.toRequest())).isEqualTo(spec);
    }

    @Test
    void whatWouldChooseTilesIsRefusedEachByName() {
        JobRequest request = new JobRequest("world", null, new JobRequest.Zoom(0, 3), List.of(0.0, 0.0, 1.0, 1.0),
                null, "pack", new JobRequest.Metatile(2, 2), Fixtures.SOME_INSTANT, null, null, TextNode.valueOf("x"),
                TextNode.valueOf("0/0/0"), "OGC:CRS84", Map.of("time", TextNode.valueOf("2024")), "world.pmtiles");

        assertThat(errors(request)).extracting(FieldError::field).containsExactlyInAnyOrder("zoom", "bbox", "bboxCrs",
                "metatile", "refreshBefore", "coverage", "tiles", "dimensions");
        assertThat(errors(request)).allSatisfy(error -> assertThat(error.reason())
                .isEqualTo("a pack job packs every tile of the finished cache; leave " + error.field() + " out"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "world.mbtiles", "world.pmtiles.tmp", "s3://world.pmtiles",
            "http://example.com/world.pmtiles", "ftp://bucket/world.pmtiles"})
    void anArchiveThatIsNoPmtilesPathOrStoreUrlIsRefused(String archive) {
        FieldError error = onlyError(pack("world", null, null, archive));

        assertThat(error.field()).isEqualTo("archive");
        assertThat(error.reason()).satisfiesAnyOf(
                m -> assertThat(m).startsWith("is required with mode pack"),
                m -> assertThat(m).isEqualTo("'" + archive + "' does not end in .pmtiles"),
                m -> assertThat(m).startsWith("'" + archive + "' is neither a path nor a store URL"));
    }

    @Test
    void aPackJobWithoutAnArchiveIsRefused() {
        assertThat(onlyError(pack("world", null, null, null)).reason()).isEqualTo("is required with mode pack: a "
                + "path or a store URL (s3://, az://, gs://) ending in .pmtiles");
    }

    @Test
    void anArchiveIsRefusedOnEveryOtherMode() {
        for (String mode : List.of("seed", "reseed", "truncate")) {
            JobRequest request = new JobRequest("world", null, new JobRequest.Zoom(0, 2), null, null, mode, null,
                    null, null, null, null, null, null, null, "world.pmtiles");
            assertThat(onlyError(request)).as(mode).isEqualTo(new FieldError("archive", "only applies to mode pack"));
        }
    }

    @Test
    void whatAPmtilesArchiveCannotHoldIsRefused() {
        assertThat(onlyError(pack("world", "WorldCRS84Quad", null, "w.pmtiles"))).isEqualTo(new FieldError(
                "tileMatrixSet", "a PMTiles archive holds tiles of WebMercatorQuad only, not WorldCRS84Quad"));

        LayerInfo mixed = new LayerInfo("mixed", "Mixed", "", 0, 5, Set.of(TileMatrixSet.WEB_MERCATOR_QUAD),
                Set.of(TileFormat.JPEG_PNG), MetatileSize.DEFAULT);
        LayerInfo timed = new LayerInfo("timed", "Timed", "", 0, 5, Set.of(TileMatrixSet.WEB_MERCATOR_QUAD),
                Set.of(TileFormat.PNG), MetatileSize.DEFAULT, MetatileSize.DEFAULT, Map.of(), "",
                List.of(Dimension.declare("STYLES", Dimension.Kind.TEXT, List.of("day", "night"), null, "day")));
        JobSpecValidator other = new JobSpecValidator(LayerCatalog.of(mixed, timed), Fixtures.LIMITS);
        assertThat(catchThrowableOfType(InvalidJobException.class,
                () -> other.validate(pack("mixed", null, "jpeg-png", "m.pmtiles"))).errors()).containsExactly(
                new FieldError("format", "a PMTiles archive holds one image type; jpeg-png mixes two"));
        assertThat(catchThrowableOfType(InvalidJobException.class,
                () -> other.validate(pack("timed", null, null, "t.pmtiles"))).errors()).containsExactly(
                new FieldError("layer", "layer 'timed' has dimensions, each value a cache of its own; a PMTiles "
                        + "archive holds one cache"));
    }

    @Test
    void anUnknownModeNamesEveryMode() {
        JobRequest request = new JobRequest("world", null, new JobRequest.Zoom(0, 2), null, null, "squash", null,
                null, null, null);
        assertThat(onlyError(request).reason()).isEqualTo("unknown mode 'squash'; one of: seed, reseed, truncate, "
                + "pack");
    }

    private static JobRequest pack(String layer, String set, String format, String archive) {
        return new JobRequest(layer, set, null, null, format, "pack", null, null, null, null, null, null, null, null,
                archive);
    }

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
}
