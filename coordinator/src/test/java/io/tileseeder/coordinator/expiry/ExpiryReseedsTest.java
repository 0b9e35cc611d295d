package io.tileseeder.coordinator.expiry;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.InvalidJobException;
import io.tileseeder.job.JobLimits;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.Dimension;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.TileFormat;
import io.tileseeder.job.TooManyJobsException;
import io.tileseeder.plan.JobSpecValidator;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Expiry events merged per layer over the window, submitted as reseed jobs, and what is held meanwhile. */
class ExpiryReseedsTest {

    private static final LayerCatalog LAYERS = LayerCatalog.of(
            new LayerInfo("world", "World", "", 0, 10, Set.of(TileMatrixSet.WEB_MERCATOR_QUAD),
                    Set.of(TileFormat.PNG, TileFormat.JPEG), MetatileSize.DEFAULT),
            new LayerInfo("roads", "Roads", "", 5, 12, Set.of(TileMatrixSet.WEB_MERCATOR_QUAD),
                    Set.of(TileFormat.PNG), MetatileSize.DEFAULT),
            new LayerInfo("radar", "Radar", "", 0, 8, Set.of(TileMatrixSet.WEB_MERCATOR_QUAD),
                    Set.of(TileFormat.PNG), MetatileSize.DEFAULT, new MetatileSize(16, 16), Map.of(), "", List.of(
                    Dimension.declare("TIME", Dimension.Kind.TIME, List.of(), null, null),
                    Dimension.declare("STYLES", Dimension.Kind.TEXT, List.of("day", "night"), null, "day"))));
    private static final JobLimits LIMITS = new JobLimits(1_000_000, 8, 100, 5);
    private static final Duration WINDOW = Duration.ofSeconds(60);

    private final MutableClock clock = new MutableClock();
    private final List<JobRequest> submitted = new ArrayList<>();
    private final List<String> keys = new ArrayList<>();
    private RuntimeException refusal;
    private final ExpiryReseeds reseeds = reseeds(3);

    private ExpiryReseeds reseeds(int maxBatches) {
        return new ExpiryReseeds((request, key) -> {
            if (refusal != null) {
                throw refusal;
            }
            new JobSpecValidator(LAYERS, LIMITS).validate(request);
            submitted.add(request);
            keys.add(key);
            return "job-" + submitted.size();
        }, LAYERS, LIMITS, new ExpirySettings(WINDOW, maxBatches, 7), clock, new SimpleMeterRegistry());
    }

    @Test
    void eventsOfALayerWithinTheWindowMakeOneReseedJobLabelledWithTheirSources() {
        assertThat(add("{\"v\":1,\"layer\":\"world\",\"source\":\"minutely\",\"tiles\":\"8/1/2\\n8/1/3\\n\"}", 0, 10))
                .isTrue();
        clock.advance(Duration.ofSeconds(30));
        assertThat(add("{\"v\":1,\"layer\":\"world\",\"source\":\"import\",\"tiles\":[\"8/1/3\",\"9/0/0\"]}", 1, 4))
                .isTrue();
        reseeds.submitDue();
        assertThat(submitted).isEmpty();
        assertThat(reseeds.held()).isEqualTo(Map.of("p0", 10L, "p1", 4L));

        clock.advance(Duration.ofSeconds(30));
        reseeds.submitDue();

        assertThat(submitted).singleElement().satisfies(job -> {
            assertThat(job.layer()).isEqualTo("world");
            assertThat(job.mode()).isEqualTo("reseed");
            assertThat(job.zoom()).isEqualTo(new JobRequest.Zoom(0, 10));
            assertThat(job.priority()).isEqualTo(7);
            assertThat(job.tiles().textValue()).isEqualTo("8/1/2\n8/1/3\n9/0/0\n");
            assertThat(job.labels()).isEqualTo(Map.of("trigger", "tile-expiry", "source", "import,minutely"));
        });
        assertThat(reseeds.held()).isEmpty();
        assertThat(reseeds.waiting()).isFalse();
    }

    @Test
    void layersFormatsAndZoomLevelsMakeJobsOfTheirOwn() {
        add("{\"v\":1,\"layer\":\"world\",\"source\":\"a\",\"tiles\":\"8/1/2\"}", 0, 0);
        add("{\"v\":1,\"layer\":\"world\",\"source\":\"a\",\"tiles\":\"8/1/2\",\"format\":\"jpeg\"}", 0, 1);
        add("{\"v\":1,\"layer\":\"roads\",\"source\":\"a\",\"tiles\":\"8/1/2\"}", 0, 2);
        add("{\"v\":1,\"layer\":\"world\",\"source\":\"a\",\"tiles\":\"8/1/2\",\"zoom\":{\"min\":6,\"max\":9}}", 0, 3);
        clock.advance(WINDOW);
        reseeds.submitDue();
        assertThat(submitted).extracting(j -> j.layer() + " " + j.format() + " " + j.zoom().min() + "-" + j.zoom().max())
                .containsExactlyInAnyOrder("world png 0-10", "world jpeg 0-10", "roads png 5-12", "world png 6-9");
    }

    /**
     * An event names the cache whose tiles expired by its dimension values, normalized (two spellings of one instant
     * are one batch), defaulted; a new radar frame is an event of tile 0/0/0 with its time.
     */
    @Test
    void eventsOfEachCacheOfALayerWithDimensionsMakeJobsOfTheirOwn() {
        add("{\"v\":1,\"layer\":\"radar\",\"source\":\"a\",\"tiles\":\"0/0/0\","
                + "\"dimensions\":{\"TIME\":\"2026-11-26T12:05Z\"}}", 0, 0);
        add("{\"v\":1,\"layer\":\"radar\",\"source\":\"b\",\"tiles\":\"3/1/1\","
                + "\"dimensions\":{\"time\":\"2026-11-26T13:05:00+01:00\",\"STYLES\":\"day\"}}", 0, 1);
        add("{\"v\":1,\"layer\":\"radar\",\"source\":\"a\",\"tiles\":\"3/1/1\","
                + "\"dimensions\":{\"TIME\":\"2026-11-26T12:05Z\",\"STYLES\":\"night\"}}", 0, 2);
        for (String bad : List.of("{\"TIME\":\"noon\"}", "{\"STYLES\":\"night\"}",
                "{\"TIME\":\"2026-11-26T12:05Z\",\"DIM_X\":\"1\"}")) {
            assertThat(add("{\"v\":1,\"layer\":\"radar\",\"source\":\"a\",\"tiles\":\"3/1/1\","
                    + "\"dimensions\":" + bad + "}", 0, 3)).as(bad).isFalse();
        }
        clock.advance(WINDOW);
        reseeds.submitDue();

        assertThat(submitted).extracting(j -> j.dimensions().toString() + " " + j.tiles().textValue().strip())
                .containsExactlyInAnyOrder(
                        "{TIME=\"2026-11-26T12:05:00Z\", STYLES=\"day\"} 0/0/0\n3/1/1",
                        "{TIME=\"2026-11-26T12:05:00Z\", STYLES=\"night\"} 3/1/1");
        assertThat(keys).doesNotHaveDuplicates();
    }

    @Test
    void aFullListOrTooManyBatchesSubmitEarly() {
        add("{\"v\":1,\"layer\":\"world\",\"source\":\"a\",\"tiles\":\"8/0/0\\n8/0/1\\n8/0/2\"}", 0, 0);
        add("{\"v\":1,\"layer\":\"world\",\"source\":\"b\",\"tiles\":\"8/0/3\\n8/0/4\\n8/0/5\"}", 0, 1);
        reseeds.submitDue();
        assertThat(submitted).singleElement().satisfies(job ->
                assertThat(job.tiles().textValue()).isEqualTo("8/0/0\n8/0/1\n8/0/2\n"));
        assertThat(reseeds.held()).isEqualTo(Map.of("p0", 1L));

        add("{\"v\":1,\"layer\":\"world\",\"source\":\"a\",\"tiles\":\"8/0/0\",\"format\":\"jpeg\"}", 0, 2);
        add("{\"v\":1,\"layer\":\"roads\",\"source\":\"a\",\"tiles\":\"8/0/0\"}", 0, 3);
        add("{\"v\":1,\"layer\":\"world\",\"source\":\"a\",\"tiles\":\"8/0/0\",\"zoom\":{\"min\":8,\"max\":8}}", 0, 4);
        reseeds.submitDue();
        assertThat(submitted).hasSize(2);
        assertThat(submitted.get(1).labels()).containsEntry("source", "b");
        assertThat(reseeds.held()).isEqualTo(Map.of("p0", 2L));
    }

    @Test
    void invalidEventsAreDroppedAndHoldNothing() {
        for (String bad : List.of("not json", "{\"v\":2,\"layer\":\"world\",\"source\":\"a\",\"tiles\":\"1/0/0\"}",
                "{\"v\":1,\"layer\":\"sea\",\"source\":\"a\",\"tiles\":\"1/0/0\"}",
                "{\"v\":1,\"layer\":\"world\",\"source\":\"a\",\"tiles\":\"1/0/9\"}",
                "{\"v\":1,\"layer\":\"world\",\"tiles\":\"1/0/0\"}",
                "{\"v\":1,\"layer\":\"world\",\"source\":\"a\",\"tiles\":\"1/0/0\",\"format\":\"webp\"}",
                "{\"v\":1,\"layer\":\"world\",\"source\":\"a\",\"tiles\":\"1/0/0\",\"zoom\":{\"min\":3,\"max\":11}}",
                "{\"v\":1,\"layer\":\"world\",\"source\":\"a\",\"tiles\":\"1/0/0\",\"extra\":1}",
                "{\"v\":1,\"layer\":\"world\",\"source\":\"a\",\"tiles\":[1,2]}")) {
            assertThat(add(bad, 0, 0)).as(bad).isFalse();
        }
        clock.advance(WINDOW);
        reseeds.submitDue();
        assertThat(submitted).isEmpty();
        assertThat(reseeds.held()).isEmpty();
    }

    @Test
    void aRefusedSubmissionIsKeptAndRetriedAndAnInvalidJobIsDropped() {
        add("{\"v\":1,\"layer\":\"world\",\"source\":\"a\",\"tiles\":\"8/1/2\"}", 0, 5);
        clock.advance(WINDOW);
        refusal = new TooManyJobsException("queue full");
        reseeds.submitDue();
        assertThat(reseeds.waiting()).isTrue();
        assertThat(reseeds.held()).isEqualTo(Map.of("p0", 5L));

        refusal = null;
        clock.advance(Duration.ofSeconds(1));
        reseeds.submitDue();
        assertThat(submitted).as("retried only after 5 s").isEmpty();
        clock.advance(Duration.ofSeconds(5));
        reseeds.submitDue();
        assertThat(submitted).hasSize(1);
        assertThat(reseeds.waiting()).isFalse();

        add("{\"v\":1,\"layer\":\"world\",\"source\":\"a\",\"tiles\":\"8/1/2\"}", 0, 6);
        clock.advance(WINDOW);
        refusal = new InvalidJobException(List.of());
        reseeds.submitDue();
        assertThat(reseeds.waiting()).isFalse();
        assertThat(reseeds.held()).isEmpty();
    }

    @Test
    void theSameBatchReadAgainHasTheSameIdempotencyKeyAndTheSameTilesExpiredAgainAnother() {
        for (long offset : new long[] {0, 0, 1}) {
            add("{\"v\":1,\"layer\":\"world\",\"source\":\"a\",\"tiles\":\"8/1/2\"}", 0, offset);
            clock.advance(WINDOW);
            reseeds.submitDue();
        }
        add("{\"v\":1,\"layer\":\"world\",\"source\":\"b\",\"tiles\":\"8/1/2\"}", 0, 1);
        clock.advance(WINDOW);
        reseeds.submitDue();
        assertThat(keys).hasSize(4);
        assertThat(keys.get(0)).startsWith("tile-expiry-").isEqualTo(keys.get(1));
        assertThat(keys.subList(1, 4)).doesNotHaveDuplicates();
    }

    @Test
    void tilesBelowTheEventsZoomLevelsReseedTheirAncestors() {
        assertThat(add("{\"v\":1,\"layer\":\"world\",\"source\":\"a\",\"tiles\":\"10/5/6\","
                + "\"zoom\":{\"min\":2,\"max\":4}}", 0, 0)).isTrue();
        clock.advance(WINDOW);
        reseeds.submitDue();
        assertThat(submitted).singleElement().satisfies(job -> {
            assertThat(job.zoom()).isEqualTo(new JobRequest.Zoom(2, 4));
            assertThat(job.metatile()).isEqualTo(new JobRequest.Metatile(4, 4));
        });
    }

    @Test
    void aListTooLargeForOneJobIsSplitUntilItsPartsFitAndALoneTileTooLargeIsDropped() {
        JobLimits small = new JobLimits(100, 8, 100, 5);
        ExpiryReseeds reseeds = new ExpiryReseeds((request, key) -> {
            new JobSpecValidator(LAYERS, small).validate(request);
            submitted.add(request);
            return "job-" + submitted.size();
        }, LAYERS, small, new ExpirySettings(WINDOW, 3, 0), clock, new SimpleMeterRegistry());
        // Each z8 tile is 1 + 4 + 16 tiles at z8-10 and 1 at each of z0-7 (some shared): all five are over 100.
        reseeds.add(("{\"v\":1,\"layer\":\"world\",\"source\":\"a\",\"tiles\":\"8/0/0\\n8/9/9\\n8/20/20\\n"
                + "8/40/40\\n8/80/80\"}").getBytes(StandardCharsets.UTF_8), "p0", 0);
        clock.advance(WINDOW);
        reseeds.submitDue();
        assertThat(submitted).extracting(r -> r.tiles().textValue().lines().count()).containsExactly(2L, 3L);
        assertThat(reseeds.held()).isEmpty();

        JobLimits tiny = new JobLimits(25, 8, 100, 5);
        List<JobRequest> refusedAll = new ArrayList<>();
        ExpiryReseeds dropping = new ExpiryReseeds((request, key) -> {
            refusedAll.add(request);
            new JobSpecValidator(LAYERS, tiny).validate(request);
            return "never";
        }, LAYERS, tiny, new ExpirySettings(WINDOW, 3, 0), clock, new SimpleMeterRegistry());
        dropping.add("{\"v\":1,\"layer\":\"world\",\"source\":\"a\",\"tiles\":\"8/0/0\\n8/9/9\\n8/20/20\"}"
                .getBytes(StandardCharsets.UTF_8), "p0", 3);
        clock.advance(WINDOW);
        dropping.submitDue();
        assertThat(refusedAll).extracting(r -> r.tiles().textValue().lines().count())
                .containsExactly(3L, 1L, 2L, 1L, 1L);
        assertThat(dropping.held()).isEmpty();
        assertThat(dropping.waiting()).isFalse();
    }

    @Test
    void manySourcesAreNamedWithinALabel() {
        TreeSet<String> sources = new TreeSet<>();
        for (int i = 0; i < 40; i++) {
            sources.add("pipeline-" + i);
        }
        String label = ExpiryReseeds.sources(sources);
        assertThat(label.length()).isLessThanOrEqualTo(JobLimits.MAX_LABEL_LENGTH);
        assertThat(label).startsWith("pipeline-0,pipeline-1,").matches(".*,\\+\\d+ more");
        int named = label.split(",").length - 1;
        assertThat(label).endsWith("+" + (40 - named) + " more");
    }

    private boolean add(String json, int partition, long offset) {
        return reseeds.add(json.getBytes(StandardCharsets.UTF_8), "p" + partition, offset);
    }

    private static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-11-25T00:00:00Z");

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
