package io.tileseeder.job;

/**
 * QUEUED → PLANNING → RUNNING → SUCCEEDED | FAILED | CANCELLED | LOST; the last four are final. A job is QUEUED
 * while the most jobs that may run at once are planning or running, PLANNING until its first tasks are queued. A job
 * is LOST when the job store lost its record while it was unfinished (a Redis that came back without its data): a
 * coordinator that knew it records it again as LOST, from what it last saw of it, and announces it.
 */
public enum JobState {
    QUEUED, PLANNING, RUNNING, SUCCEEDED, FAILED, CANCELLED, LOST;

    public boolean isFinal() {
        return this == SUCCEEDED || this == FAILED || this == CANCELLED || this == LOST;
    }
}
