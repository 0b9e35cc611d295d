package io.tileseeder.job;

/**
 * QUEUED → PLANNING → RUNNING → SUCCEEDED | FAILED | CANCELLED; the last three are final. A job is QUEUED while
 * the most jobs that may run at once are planning or running, PLANNING until its first tasks are queued.
 */
public enum JobState {
    QUEUED, PLANNING, RUNNING, SUCCEEDED, FAILED, CANCELLED;

    public boolean isFinal() {
        return this == SUCCEEDED || this == FAILED || this == CANCELLED;
    }
}
