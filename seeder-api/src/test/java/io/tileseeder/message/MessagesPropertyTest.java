package io.tileseeder.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.Gen;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.job.JobState;
import io.tileseeder.job.Mode;
import io.tileseeder.job.ShowFailingCase;
import io.tileseeder.job.TileFormat;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every message survives being written and read back. Each test runs on its edge cases (empty and extreme
 * values, every character that JSON must escape), then on random messages from a {@link Gen} with the test's
 * own fixed seed.
 */
@ExtendWith(ShowFailingCase.class)
class MessagesPropertyTest {

    /** Every character {@link Gen#text} uses besides a-z and 0-9. */
    private static final String AWKWARD = "-_/ \"\\\n\t\u0001éß地図";
    private static final Instant FIRST = Instant.EPOCH;
    private static final Instant LAST = Instant.ofEpochSecond(4_102_444_800L, 999_999_999);
    private static final TileCounts MAX_COUNTS = new TileCounts(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE,
            Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE);

    static Stream<Named<MetatileTask>> tasksRoundTrip() {
        int max = Integer.MAX_VALUE;
        List<MetatileTask> edgeCases = List.of(
                new MetatileTask(MetatileTask.VERSION, "", 0, "", TileMatrixSet.WEB_MERCATOR_QUAD, TileFormat.PNG,
                        Mode.SEED, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, null, null),
                new MetatileTask(MetatileTask.VERSION, AWKWARD, Long.MAX_VALUE, AWKWARD, TileMatrixSet.WORLD_CRS84_QUAD,
                        TileFormat.JPEG, Mode.RESEED, TileMatrixSet.MAX_ZOOM, max, max, max, max, max, max, max, max, LAST, "ff01",
                        new DimensionValues(Map.of(AWKWARD, AWKWARD))),
                new MetatileTask(MetatileTask.VERSION, "j", 1, "l", TileMatrixSet.WEB_MERCATOR_QUAD, TileFormat.PNG,
                        Mode.TRUNCATE, 1, 1, 1, 1, 1, 1, 1, 1, 1, FIRST, "",
                        new DimensionValues(Map.of("TIME", "2026-11-26T12:05:00Z", "STYLES", ""))),
                new MetatileTask(MetatileTask.VERSION, "p", 0, "l", TileMatrixSet.WEB_MERCATOR_QUAD, TileFormat.PNG,
                        Mode.PACK, 0, 0, 0, 1, 1, 0, 0, 0, 0, null, null, null, "s3://b/" + AWKWARD + ".pmtiles"));
        return named(Gen.cases(0x5EED_3001L, 300, edgeCases, MessagesPropertyTest::task));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource
    void tasksRoundTrip(MetatileTask task) {
        assertThat(Messages.task(Messages.toJson(task))).isEqualTo(task);
    }

    static Stream<Named<TaskResult>> resultsRoundTrip() {
        List<TaskResult> edgeCases = List.of(
                new TaskResult(TaskResult.VERSION, "", 0, true, TileCounts.ZERO, null),
                new TaskResult(TaskResult.VERSION, AWKWARD, Long.MAX_VALUE, false, MAX_COUNTS, AWKWARD),
                new TaskResult(TaskResult.VERSION, "j", 1, false, TileCounts.ZERO, ""));
        return named(Gen.cases(0x5EED_3002L, 300, edgeCases, g -> new TaskResult(TaskResult.VERSION, text(g),
                g.nonNegativeLong(), g.chance(0.5), counts(g), g.orNull(0.5, () -> text(g)))));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource
    void resultsRoundTrip(TaskResult result) {
        assertThat(Messages.result(Messages.toJson(result))).isEqualTo(result);
    }

    static Stream<Named<JobEvent>> eventsRoundTrip() {
        List<JobEvent> edgeCases = List.of(
                new JobEvent(JobEvent.VERSION, "", JobState.PLANNING, FIRST, TileCounts.ZERO, 0, Map.of(), null, Map.of(),
                        null),
                new JobEvent(JobEvent.VERSION, AWKWARD, JobState.CANCELLED, LAST, MAX_COUNTS, Long.MAX_VALUE,
                        Map.of(0L, "", Long.MAX_VALUE, AWKWARD), AWKWARD, Map.of(AWKWARD, "", "k", AWKWARD),
                        AWKWARD),
                new JobEvent(JobEvent.VERSION, "j", JobState.FAILED, FIRST, TileCounts.ZERO, 1, Map.of(1L, "x"), "",
                        Map.of("k", "v"), "world/WebMercatorQuad/changes/j/"));
        return named(Gen.cases(0x5EED_3003L, 300, edgeCases, g -> new JobEvent(JobEvent.VERSION, text(g),
                g.oneOf(JobState.class), g.instant(), counts(g), g.nonNegativeLong(),
                g.map(5, g::nonNegativeLong, () -> text(g)), g.orNull(0.5, () -> text(g)),
                g.map(4, () -> g.text(1, 30), () -> text(g)), g.orNull(0.5, () -> text(g)))));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource
    void eventsRoundTrip(JobEvent event) {
        assertThat(Messages.event(Messages.toJson(event))).isEqualTo(event);
    }

    private static MetatileTask task(Gen g) {
        return new MetatileTask(MetatileTask.VERSION, text(g), g.nonNegativeLong(), text(g), g.tileMatrixSet(),
                g.oneOf(TileFormat.class), g.oneOf(Mode.class), g.between(0, TileMatrixSet.MAX_ZOOM),
                g.nonNegativeInt(), g.nonNegativeInt(), g.nonNegativeInt(), g.nonNegativeInt(),
                g.nonNegativeInt(), g.nonNegativeInt(), g.nonNegativeInt(), g.nonNegativeInt(),
                g.orNull(0.4, g::instant), g.orNull(0.5, () -> text(g)),
                new DimensionValues(g.map(3, () -> g.text(1, 30), () -> text(g))), g.orNull(0.8, () -> text(g)));
    }

    private static TileCounts counts(Gen g) {
        return new TileCounts(g.nonNegativeLong(), g.nonNegativeLong(), g.nonNegativeLong(), g.nonNegativeLong(),
                g.nonNegativeLong(), g.nonNegativeLong(), g.chance(0.3) ? 0 : g.nonNegativeLong());
    }

    /** Text of up to 30 characters, with the characters JSON must escape and some outside ASCII. */
    private static String text(Gen g) {
        return g.text(0, 30);
    }

    /** Each message named by its fields, strings quoted and escaped. */
    private static <T> Stream<Named<T>> named(Stream<T> messages) {
        return messages.map(m -> Named.of(Gen.describe(m), m));
    }
}
