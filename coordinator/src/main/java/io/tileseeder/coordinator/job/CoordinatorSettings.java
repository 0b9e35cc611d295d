package io.tileseeder.coordinator.job;

import java.time.Duration;

/**
 * The job service's own bounds and rhythm, apart from the ports it is handed.
 *
 * @param maxRunningJobs the most unfinished jobs at once; also the number of planner threads and the planners'
 *                       queue, so that every admitted job can be planned side by side
 * @param maxWaiters     the most clients long-polling on jobs at once
 * @param maxAhead       the most tasks of a job queued ahead of its results: the backlog a queue that is not
 *                       bounded itself (Kafka) may hold for one job
 * @param recoverEvery   how often to look for jobs to resume or finish (and once at start)
 */
public record CoordinatorSettings(int maxRunningJobs, int maxWaiters, int maxAhead, Duration recoverEvery) {

    public CoordinatorSettings {
        if (maxRunningJobs < 1 || maxWaiters < 0 || maxAhead < 1) {
            throw new IllegalArgumentException("maxRunningJobs and maxAhead must be at least 1 and maxWaiters at "
                    + "least 0, not " + maxRunningJobs + ", " + maxAhead + " and " + maxWaiters);
        }
        if (recoverEvery.isNegative() || recoverEvery.isZero()) {
            throw new IllegalArgumentException("recoverEvery must be positive, not " + recoverEvery);
        }
    }
}
