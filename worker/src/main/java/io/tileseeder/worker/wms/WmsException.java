package io.tileseeder.worker.wms;

import java.io.IOException;

/**
 * An upstream WMS did not give the image asked for; the message names the upstream, the request and what came
 * back instead (the upstream's own message where it sent one).
 */
public final class WmsException extends IOException {

    private final boolean retryable;

    WmsException(String message, boolean retryable, Throwable cause) {
        super(message, cause);
        this.retryable = retryable;
    }

    /** Whether another try may succeed: a 5xx answer, an I/O error, a timeout or a truncated image. */
    public boolean retryable() {
        return retryable;
    }
}
