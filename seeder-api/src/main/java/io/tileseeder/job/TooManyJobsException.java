package io.tileseeder.job;

/** A request that would go over a concurrency limit: too many running jobs, or too many waiting clients. */
public class TooManyJobsException extends RuntimeException {

    public TooManyJobsException(String message) {
        super(message);
    }
}
