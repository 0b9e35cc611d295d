package io.tileseeder.message;

/**
 * Message from a worker: a task is finished, after every tile of it was durably stored (or it failed for good).
 *
 * @param error why the task failed; null when it succeeded
 */
public record TaskResult(int v, String jobId, long seq, boolean succeeded, TileCounts counts, String error) {

    public static final int VERSION = 1;

    public static TaskResult succeeded(MetatileTask task, TileCounts counts) {
        return new TaskResult(VERSION, task.jobId(), task.seq(), true, counts, null);
    }

    public static TaskResult failed(MetatileTask task, TileCounts counts, String error) {
        return new TaskResult(VERSION, task.jobId(), task.seq(), false, counts, error);
    }
}
