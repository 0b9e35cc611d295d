package io.tileseeder.job;

/**
 * Limits on what one job may ask for.
 *
 * @param maxTilesPerJob the most tiles a job may cover; a larger one is refused with its count. At most
 *                       {@link Integer#MAX_VALUE}: a job's tasks are numbered, and their results recorded in
 *                       a bitmap, by int
 * @param maxLabels      the most labels a job may carry
 * @param maxCoverageVertices the most vertices a job's coverage may have
 * @param maxListTiles   the most distinct tiles a job's tile list may have
 * @param maxCombinations the most caches (combinations of dimension values) a job may seed
 */
public record JobLimits(long maxTilesPerJob, int maxLabels, int maxCoverageVertices, int maxListTiles,
                        int maxCombinations) {

    public static final int MAX_LABEL_LENGTH = 128;
    /** The default of {@link #maxCombinations}: a day of five-minute radar frames fits, three times over. */
    public static final int DEFAULT_MAX_COMBINATIONS = 1000;

    public JobLimits {
        if (maxTilesPerJob < 1 || maxTilesPerJob > Integer.MAX_VALUE || maxLabels < 0 || maxCoverageVertices < 4
                || maxListTiles < 1 || maxCombinations < 1) {
            throw new IllegalArgumentException("max tiles per job must be 1.." + Integer.MAX_VALUE
                    + ", max labels not negative, max coverage vertices at least 4, max list tiles and max "
                    + "combinations at least 1; got " + maxTilesPerJob + ", " + maxLabels + ", " + maxCoverageVertices
                    + ", " + maxListTiles + " and " + maxCombinations);
        }
    }

    /** Limits with the default {@link #maxCombinations}. */
    public JobLimits(long maxTilesPerJob, int maxLabels, int maxCoverageVertices, int maxListTiles) {
        this(maxTilesPerJob, maxLabels, maxCoverageVertices, maxListTiles, DEFAULT_MAX_COMBINATIONS);
    }
}
