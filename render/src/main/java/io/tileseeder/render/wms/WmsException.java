package io.tileseeder.render.wms;

import java.io.IOException;

/**
 * An upstream WMS did not give the image asked for; the message names the upstream, the request and what came
 * back instead (the upstream's own message where it sent one).
 */
public final class WmsException extends IOException {

    private final boolean retryable;
    private final boolean unreachable;

    WmsException(String message, boolean retryable, Throwable cause) {
        this(message, retryable, false, cause);
    }

    WmsException(String message, boolean retryable, boolean unreachable, Throwable cause) {
        super(message, cause);
        this.retryable = retryable;
        this.unreachable = unreachable;
    }

    /**
     * Whether the upstream could not be reached or said it cannot serve now (a connection refused or reset, a
     * timeout, 502, 503 or 504): an outage to wait out, not a fault of the task.
     */
    public boolean unreachable() {
        return unreachable;
    }

    /** Whether another try may succeed: a 5xx answer, an I/O error, a timeout or a truncated image. */
    public boolean retryable() {
        return retryable;
    }
}
