package io.tileseeder.worker.task;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where a worker's time goes, summed over all its threads: the pipeline's stages in nanoseconds, and how often
 * each ran (so {@code count(RENDER)} is the number of metatiles rendered).
 */
public final class StageTimes {

    public enum Stage { LOCK, CHECK, RENDER, ENCODE, STORE }

    private final Map<Stage, LongAdder> nanos = new EnumMap<>(Stage.class);
    private final Map<Stage, LongAdder> counts = new EnumMap<>(Stage.class);

    public StageTimes() {
        for (Stage stage : Stage.values()) {
            nanos.put(stage, new LongAdder());
            counts.put(stage, new LongAdder());
        }
    }

    public void add(Stage stage, long elapsedNanos) {
        nanos.get(stage).add(elapsedNanos);
        counts.get(stage).increment();
    }

    /** How many times the stage ran. */
    public long count(Stage stage) {
        return counts.get(stage).sum();
    }

    public long nanos(Stage stage) {
        return nanos.get(stage).sum();
    }

    /** Seconds per stage, in stage order. */
    public Map<Stage, Double> seconds() {
        Map<Stage, Double> seconds = new EnumMap<>(Stage.class);
        nanos.forEach((stage, sum) -> seconds.put(stage, sum.sum() / 1e9));
        return seconds;
    }
}
