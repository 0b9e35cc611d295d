package io.tileseeder.coordinator.expiry;

import io.tileseeder.job.Timeouts;
import java.time.Duration;

/**
 * How tile-expiry events become reseed jobs.
 *
 * @param window     how long the events of one layer (and matrix set, format and zoom levels) are merged before their
 *                   job is submitted, from the first of them
 * @param maxBatches batches merging at once; a new one beyond them submits the oldest at once
 * @param priority   the reseed jobs' priority
 */
public record ExpirySettings(Duration window, int maxBatches, int priority) {

    public ExpirySettings {
        if (window.isNegative() || maxBatches < 1) {
            throw new IllegalArgumentException("the expiry window must not be negative and max batches at least 1; got "
                    + Timeouts.format(window) + " and " + maxBatches);
        }
    }
}
