package io.tileseeder.coordinator.job;

import io.tileseeder.message.TaskResult;
import io.tileseeder.port.JobStore;
import java.util.List;
import java.util.Set;

/**
 * Records workers' task results in the {@link JobStore}, each at most once (the store's bitmap), and hands the
 * jobs that got a new result to the {@link Finisher}. Runs on the thread that delivers the results and returns
 * only once they are recorded, so the caller may then acknowledge them: the results consumer's thread in the
 * distributed mode (which commits offsets afterwards), a worker's store thread in the embedded mode.
 */
final class ResultsRecorder {

    private final JobStore store;
    private final JobMetrics metrics;
    private final Finisher finisher;

    ResultsRecorder(JobStore store, JobMetrics metrics, Finisher finisher) {
        this.store = store;
        this.metrics = metrics;
        this.finisher = finisher;
    }

    void record(TaskResult result) {
        if (store.record(result)) {
            metrics.received(List.of(result));
            finisher.finishIfDone(result.jobId());
        }
    }

    void recordAll(List<TaskResult> results) {
        Set<String> changed = store.recordAll(results);
        metrics.received(results);
        changed.forEach(finisher::finishIfDone);
    }
}
