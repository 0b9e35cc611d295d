package io.tileseeder.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.Fixtures;
import io.tileseeder.job.JobState;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import java.time.Instant;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Every message survives being written and read back. */
class MessagesPropertyTest {

    @Property(tries = 300)
    void tasksRoundTrip(@ForAll("tasks") MetatileTask task) {
        assertThat(Messages.task(Messages.toJson(task))).isEqualTo(task);
    }

    @Property(tries = 300)
    void resultsRoundTrip(@ForAll("results") TaskResult result) {
        assertThat(Messages.result(Messages.toJson(result))).isEqualTo(result);
    }

    @Property(tries = 300)
    void eventsRoundTrip(@ForAll("events") JobEvent event) {
        assertThat(Messages.event(Messages.toJson(event))).isEqualTo(event);
    }

    @Provide
    Arbitrary<MetatileTask> tasks() {
        Arbitrary<Integer> ints = Arbitraries.integers().between(0, Integer.MAX_VALUE);
        return Builders.withBuilder(TaskBuilder::new)
                .use(text()).in((b, v) -> b.with(t -> t.jobId = v))
                .use(Arbitraries.longs().greaterOrEqual(0)).in((b, v) -> b.with(t -> t.seq = v))
                .use(text()).in((b, v) -> b.with(t -> t.layer = v))
                .use(Arbitraries.of(TileMatrixSet.class)).in((b, v) -> b.with(t -> t.tms = v))
                .use(Arbitraries.of(TileFormat.class)).in((b, v) -> b.with(t -> t.format = v))
                .use(Arbitraries.of(Mode.class)).in((b, v) -> b.with(t -> t.mode = v))
                .use(Arbitraries.integers().between(0, TileMatrixSet.MAX_ZOOM)).in((b, v) -> b.with(t -> t.z = v))
                .use(ints.list().ofSize(8)).in((b, v) -> b.with(t -> t.numbers = v.stream().mapToInt(i -> i).toArray()))
                .use(Fixtures.instants().injectNull(0.4)).in((b, v) -> b.with(t -> t.refreshBefore = v))
                .build(TaskBuilder::build);
    }

    @Provide
    Arbitrary<TaskResult> results() {
        return Combinators.combine(text(), Arbitraries.longs().greaterOrEqual(0), Arbitraries.of(true, false),
                        counts(), text().injectNull(0.5))
                .as((jobId, seq, ok, counts, error) -> new TaskResult(TaskResult.VERSION, jobId, seq, ok, counts, error));
    }

    @Provide
    Arbitrary<JobEvent> events() {
        Arbitrary<Map<Long, String>> failed = Arbitraries.maps(Arbitraries.longs().greaterOrEqual(0), text()).ofMaxSize(5);
        Arbitrary<Map<String, String>> labels = Arbitraries.maps(text().ofMinLength(1), text()).ofMaxSize(4);
        return Combinators.combine(text(), Arbitraries.of(JobState.class), Fixtures.instants(), counts(),
                        Arbitraries.longs().greaterOrEqual(0), failed, text().injectNull(0.5), labels)
                .as((jobId, state, time, counts, tasksFailed, failedTasks, reason, labelMap) -> new JobEvent(
                        JobEvent.VERSION, jobId, state, time, counts, tasksFailed, failedTasks, reason, labelMap));
    }

    private static Arbitrary<TileCounts> counts() {
        Arbitrary<Long> n = Arbitraries.longs().greaterOrEqual(0);
        return Combinators.combine(n, n, n, n, n, n).as(TileCounts::new);
    }

    /** Text with the characters JSON must escape and some outside ASCII. */
    private static net.jqwik.api.arbitraries.StringArbitrary text() {
        return Arbitraries.strings().withCharRange('a', 'z').withCharRange('0', '9')
                .withChars('-', '_', '/', ' ', '"', '\\', '\n', '\t', '\u0001', 'é', 'ß', '地', '図')
                .ofMaxLength(30);
    }

    /** Mutable holder for the seventeen fields of a task. */
    private static final class TaskBuilder {
        String jobId;
        long seq;
        String layer;
        TileMatrixSet tms;
        TileFormat format;
        Mode mode;
        int z;
        int[] numbers;
        Instant refreshBefore;

        TaskBuilder with(java.util.function.Consumer<TaskBuilder> change) {
            change.accept(this);
            return this;
        }

        MetatileTask build() {
            return new MetatileTask(MetatileTask.VERSION, jobId, seq, layer, tms, format, mode, z, numbers[0],
                    numbers[1], numbers[2], numbers[3], numbers[4], numbers[5], numbers[6], numbers[7], refreshBefore);
        }
    }
}
