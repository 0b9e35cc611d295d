package io.tileseeder.job;

/** An idempotency key used again with a different job: a retry must send the same job as the first try. */
public class IdempotencyConflictException extends RuntimeException {

    public IdempotencyConflictException(String key, String jobId) {
        super("key '" + key + "' was used for job " + jobId + ", which differs from this one: a retry must send the "
                + "same job, a new job needs a new key");
    }
}
