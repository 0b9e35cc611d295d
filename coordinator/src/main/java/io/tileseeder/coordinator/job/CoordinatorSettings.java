package io.tileseeder.coordinator.job;

import io.tileseeder.job.Timeouts;
import java.time.Duration;

/**
 * The job service's own bounds and rhythm, apart from the ports it is handed.
 *
 * @param maxRunningJobs the most jobs planned or running at once; also the number of planner threads and the
 *                       planners' queue, so that every started job can be planned side by side
 * @param maxQueuedJobs  the most jobs waiting for one of those places; beyond it a submission is refused
 * @param maxWaiters     the most clients long-polling on jobs at once
 * @param minAhead       the tasks of a job queued ahead of its results before any rate is known, and the least
 *                       share of a job of the highest priority
 * @param maxAhead       the most tasks of a job queued ahead of its results: the backlog a queue that is not
 *                       bounded itself (Kafka) may hold for one job
 * @param queueLead      how much work, at the rate results come in, the queue holds ahead of the workers
 *                       ({@link Shares}): about how long a task queued now waits to be taken
 * @param recoverEvery   how often to look for jobs to resume or finish (and once at start)
 */
public record CoordinatorSettings(int maxRunningJobs, int maxQueuedJobs, int maxWaiters, int minAhead,
                                  int maxAhead, Duration queueLead, Duration recoverEvery) {

    /** The least share of a job, unless the most one may have is less: a worker pod holds 64 tasks at most. */
    public static final int MIN_AHEAD = 64;

    public CoordinatorSettings {
        if (maxRunningJobs < 1 || maxQueuedJobs < 0 || maxWaiters < 0 || minAhead < 1 || maxAhead < minAhead) {
            throw new IllegalArgumentException("need maxRunningJobs >= 1, maxQueuedJobs and maxWaiters >= 0 and "
                    + "1 <= minAhead <= maxAhead, not " + maxRunningJobs + ", " + maxQueuedJobs + ", " + maxWaiters
                    + ", " + minAhead + " and " + maxAhead);
        }
        if (queueLead.isNegative()) {
            throw new IllegalArgumentException("queueLead must not be negative, not " + Timeouts.format(queueLead));
        }
        if (recoverEvery.isNegative() || recoverEvery.isZero()) {
            throw new IllegalArgumentException("recoverEvery must be positive, not " + Timeouts.format(recoverEvery));
        }
    }
}
