package io.tileseeder.port;

import java.util.Optional;

/**
 * What workers know of jobs, and the fence that makes "final" final. A worker {@link #enter}s a task's job
 * before it renders anything: a job that is final (SUCCEEDED, FAILED, CANCELLED, LOST) or unknown lets nobody in, and
 * the task is dropped without a tile written. A job that is not final hands out a {@link Pass}, which the worker
 * holds until the task's tiles are stored (or given up) and then closes.
 *
 * <p>The coordinator sends a job's final event only when no pass of the job is open ({@link #passesOpen} is
 * zero), so no tile of a job is written after its final event: a job made final while a worker was storing
 * waits for that worker. A gate shared by processes renews the passes its process holds; one that is not
 * renewed (its worker died) stops counting after a while, which delays the event by at most that long.
 *
 * <p>Both methods throw {@link DependencyUnavailableException} when the store behind the gate cannot be
 * reached: the caller waits, as for any outage, and does not guess the job's state.
 */
public interface JobGate {

    /** Enters the task's job: a pass while the job is neither final nor unknown, else empty (drop the task). */
    Optional<Pass> enter(String jobId);

    /** How many passes of the job are open (unexpired) now. */
    long passesOpen(String jobId);

    /** A worker's right to write a job's tiles, until closed. */
    interface Pass extends AutoCloseable {

        /**
         * Whether the gate has learnt, since it handed the pass out, that the job became final or unknown: the
         * worker then stops waiting and writes nothing more of the task. May be a few seconds late; the final
         * event waits for the pass either way.
         */
        boolean jobFinal();

        /** Closes the pass: the worker writes no more tiles of this task. Never throws; idempotent. */
        @Override
        void close();
    }
}
