package io.tileseeder.message;

import io.tileseeder.job.JobState;
import java.time.Instant;
import java.util.Map;

/**
 * Message from the coordinator: a job reached a final state. Sent only after the job's last tile was durably
 * stored; a consumer may see it twice, never miss it.
 *
 * @param failedTasks a bounded sample of the failed tasks' reasons, keyed by task number
 * @param changes     for a reseed, the folder, relative to the store, of the lists of the tiles it changed
 *                    ({@link io.tileseeder.port.ChangeLists}); null for other jobs
 */
public record JobEvent(int v, String jobId, JobState state, Instant time, TileCounts counts,
                       long tasksFailed, Map<Long, String> failedTasks, String reason, Map<String, String> labels,
                       String changes) {

    public static final int VERSION = 1;

    public JobEvent {
        failedTasks = Map.copyOf(failedTasks);
        labels = Map.copyOf(labels);
    }
}
