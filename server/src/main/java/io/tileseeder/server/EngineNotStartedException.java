package io.tileseeder.server;

/** The API was called before {@code seeder serve} had started its engine: the API answers 503. */
public final class EngineNotStartedException extends IllegalStateException {

    public EngineNotStartedException() {
        super("the coordinator is starting: try again in a moment");
    }
}
