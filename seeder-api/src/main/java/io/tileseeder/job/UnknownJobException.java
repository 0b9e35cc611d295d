package io.tileseeder.job;

/** The job is not (or no longer) in the store: never submitted, forgotten after its retention, or deleted. */
public class UnknownJobException extends RuntimeException {

    public UnknownJobException(String id) {
        super("no job " + id);
    }
}
