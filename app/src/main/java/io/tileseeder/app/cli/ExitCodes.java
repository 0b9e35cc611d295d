package io.tileseeder.app.cli;

import io.tileseeder.job.JobState;

/** Exit statuses of the command line, the same for every command that waits on a job. */
final class ExitCodes {

    static final int SUCCEEDED = 0;
    /** Bad usage or a refused request. */
    static final int USAGE = 1;
    static final int FAILED = 2;
    static final int CANCELLED = 3;
    static final int TIMED_OUT = 4;

    private ExitCodes() {
    }

    static int of(JobState state) {
        return switch (state) {
            case SUCCEEDED -> SUCCEEDED;
            case FAILED -> FAILED;
            case CANCELLED -> CANCELLED;
            default -> TIMED_OUT;
        };
    }
}
