package io.tileseeder.job;

/**
 * Limits on what one job may ask for.
 *
 * @param maxTilesPerJob the most tiles a job may cover; a larger one is refused with its count
 * @param maxLabels      the most labels a job may carry
 */
public record JobLimits(long maxTilesPerJob, int maxLabels) {

    public static final int MAX_LABEL_LENGTH = 128;

    public JobLimits {
        if (maxTilesPerJob < 1 || maxLabels < 0) {
            throw new IllegalArgumentException("job limits must be positive");
        }
    }
}
