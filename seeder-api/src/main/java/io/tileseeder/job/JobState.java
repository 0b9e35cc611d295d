package io.tileseeder.job;

/** PLANNING → RUNNING → SUCCEEDED | FAILED | CANCELLED; the last three are final. */
public enum JobState {
    PLANNING, RUNNING, SUCCEEDED, FAILED, CANCELLED;

    public boolean isFinal() {
        return this == SUCCEEDED || this == FAILED || this == CANCELLED;
    }
}
