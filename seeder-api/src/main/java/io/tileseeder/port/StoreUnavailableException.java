package io.tileseeder.port;

import java.io.IOException;

/**
 * The store cannot be reached, or answers that it cannot serve now (5xx, throttling), even after its own
 * retries. Not the task's fault: a worker waits for the store to come back instead of spending the task's
 * deliveries, which would fail a job because of an outage.
 */
public class StoreUnavailableException extends IOException {

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
