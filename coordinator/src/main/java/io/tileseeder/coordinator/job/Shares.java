package io.tileseeder.coordinator.job;

import io.tileseeder.job.JobStatus;
import io.tileseeder.port.JobStore;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * How many tasks each job may have queued ahead of its results: the scheduling policy, decided where tasks enter
 * the one queue, so that workers stay plain consumers and the embedded and distributed modes behave alike.
 *
 * <ul>
 *   <li><b>Priority.</b> Only the jobs of the highest priority among those still planning may queue more; the
 *       others wait, keeping what they have queued. A job of higher priority therefore waits at most for the
 *       backlog queued before it came, which the next rule keeps short.</li>
 *   <li><b>Depth.</b> The queue holds about {@code lead} of work: the rate at which results of all jobs came in over
 *       the last {@link #WINDOW}, times {@code lead}. More workers give a higher rate and so a deeper queue that
 *       keeps them busy; a task queued now is taken about {@code lead} later, whatever job it belongs to.</li>
 *   <li><b>Fair share.</b> That depth is split evenly among the jobs of the highest priority, so jobs of equal
 *       priority have as many tasks queued each and progress side by side (a queue taken in order serves them at
 *       equal rates).</li>
 * </ul>
 * Each job's share is at least {@code minAhead} (a job starts before any rate is known) and at most
 * {@code maxAhead}. Replicas decide alike from the same store, each on its own snapshot of the unfinished jobs, taken
 * at most every {@link #REFRESH}.
 */
final class Shares {

    /** How old a snapshot of the unfinished jobs may be. */
    static final Duration REFRESH = Duration.ofMillis(200);
    /** The span over which the results' rate is measured. */
    static final Duration WINDOW = Duration.ofSeconds(5);

    private final JobStore store;
    private final double leadSeconds;
    private final long minAhead;
    private final long maxAhead;
    private final LongSupplier nanoTime;

    private long takenAt;
    private List<JobStatus> snapshot = List.of();
    /** Tasks done per job at the last snapshot, to count what each new snapshot adds. */
    private Map<String, Long> doneBefore = Map.of();
    /** (time, results counted so far) at each snapshot of the window, oldest first. */
    private final ArrayDeque<long[]> samples = new ArrayDeque<>();
    private long results;

    /**
     * @param lead     how much work (at the measured rate) the queue holds
     * @param minAhead the share of a job before any rate is known, and the least one a job of the highest priority gets
     * @param maxAhead the most tasks of one job queued ahead of its results
     */
    Shares(JobStore store, Duration lead, int minAhead, int maxAhead, LongSupplier nanoTime) {
        if (lead.isNegative() || minAhead < 1 || maxAhead < minAhead) {
            throw new IllegalArgumentException("need lead >= 0 and 1 <= minAhead <= maxAhead, not " + lead + ", "
                    + minAhead + " and " + maxAhead);
        }
        this.store = store;
        this.leadSeconds = lead.toNanos() / 1e9;
        this.minAhead = minAhead;
        this.maxAhead = maxAhead;
        this.nanoTime = nanoTime;
        this.takenAt = nanoTime.getAsLong() - REFRESH.toNanos() - 1;
    }

    /** How many tasks of the job may be queued and without a result now: 0 while a job of higher priority plans. */
    synchronized long allowance(JobStatus job) {
        refresh();
        int top = job.spec().priority();
        int sharing = 0;
        for (JobStatus other : snapshot) {
            if (!other.id().equals(job.id()) && other.beingPlanned()) {
                int priority = other.spec().priority();
                if (priority > top) {
                    return 0;
                }
                if (priority == top) {
                    sharing++;
                }
            }
        }
        double share = leadSeconds * rate() / (sharing + 1);
        return Math.max(minAhead, Math.min(maxAhead, (long) Math.ceil(share)));
    }

    /** Results per second of all unfinished jobs over the window; 0 until it spans a second. */
    synchronized double rate() {
        refresh();
        long[] oldest = samples.peekFirst();
        long[] newest = samples.peekLast();
        long span = newest[0] - oldest[0];
        return span < 1_000_000_000L ? 0 : (newest[1] - oldest[1]) * 1e9 / span;
    }

    private void refresh() {
        long now = nanoTime.getAsLong();
        if (now - takenAt <= REFRESH.toNanos()) {
            return;
        }
        snapshot = store.unfinished();
        takenAt = now;
        Map<String, Long> done = new HashMap<>();
        for (JobStatus job : snapshot) {
            done.put(job.id(), job.tasksDone());
            results += Math.max(0, job.tasksDone() - doneBefore.getOrDefault(job.id(), job.tasksDone()));
        }
        doneBefore = done;
        samples.addLast(new long[] {now, results});
        while (samples.size() > 1 && now - samples.peekFirst()[0] > WINDOW.toNanos()) {
            samples.removeFirst();
        }
    }
}
