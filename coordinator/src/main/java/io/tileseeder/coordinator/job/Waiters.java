package io.tileseeder.coordinator.job;

import io.tileseeder.job.JobStatus;
import io.tileseeder.job.TooManyJobsException;
import io.tileseeder.job.UnknownJobException;
import io.tileseeder.port.JobGate;
import io.tileseeder.port.JobStore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The long-poll waiters of {@code GET /jobs/{id}/wait}: owns each waiting client's future and the bound on how many
 * there are. A waiter is released only once its job is {@link #settled}: final, and no worker still writing a tile
 * of it, so whoever gates on the job never acts while a tile is still being stored.
 *
 * <p>Holds no thread of its own: clients register on request threads; a future times out on the JDK's
 * {@link CompletableFuture} delay thread; waiters are released by whichever thread made their job final (through
 * the {@link Finisher}) and, for jobs finished by another replica or whose last pass closed later, by the
 * housekeeping sweep ({@link #releaseSettled}).
 */
final class Waiters {

    private final JobStore store;
    /** How a waiter reads its job: the store's record, or LOST if the store lost a watched one. */
    private final Function<String, Optional<JobStatus>> find;
    private final JobGate gate;
    private final int maxWaiters;
    /** Each waiting client's own future, per job; a client that times out removes its own. */
    private final ConcurrentMap<String, Set<CompletableFuture<JobStatus>>> waiting = new ConcurrentHashMap<>();
    private final AtomicInteger waiters = new AtomicInteger();

    Waiters(JobStore store, JobGate gate, int maxWaiters) {
        this(store, store::get, gate, maxWaiters);
    }

    Waiters(JobStore store, Function<String, Optional<JobStatus>> find, JobGate gate, int maxWaiters) {
        this.store = store;
        this.find = find;
        this.gate = gate;
        this.maxWaiters = maxWaiters;
    }

    /** See {@link JobService#awaitFinal}. */
    Optional<CompletableFuture<JobStatus>> awaitFinal(String id, Duration timeout) {
        Optional<JobStatus> job = find.apply(id);
        if (job.isEmpty()) {
            return Optional.empty();
        }
        if (timeout.isZero() || settled(job.get())) {
            return Optional.of(CompletableFuture.completedFuture(job.get()));
        }
        if (waiters.incrementAndGet() > maxWaiters) {
            waiters.decrementAndGet();
            throw new TooManyJobsException(maxWaiters + " clients are waiting on jobs already, the limit");
        }
        CompletableFuture<JobStatus> mine = new CompletableFuture<>();
        Set<CompletableFuture<JobStatus>> forJob = waiting.computeIfAbsent(id, key -> ConcurrentHashMap.newKeySet());
        forJob.add(mine);
        // The job may have become final, and its last pass closed, before this waiter was registered.
        store.get(id).filter(this::settled).ifPresent(this::release);
        return Optional.of(mine
                .completeOnTimeout(null, timeout.toNanos(), TimeUnit.NANOSECONDS)
                .whenComplete((ignored, error) -> {
                    forJob.remove(mine);
                    waiters.decrementAndGet();
                })
                .thenApply(finalJob -> finalJob != null ? finalJob
                        : find.apply(id).orElseThrow(() -> new UnknownJobException(id))));
    }

    /** Releases the waiters of every job waited on that has settled meanwhile (on any replica). */
    void releaseSettled() {
        for (String id : List.copyOf(waiting.keySet())) {
            store.get(id).filter(this::settled).ifPresent(this::release);
        }
    }

    /**
     * Whether a job is final and no worker holds a pass of it any more: only then are its waiters released (and
     * its event sent), so whoever gates on the job never acts while a tile of it is still being written.
     */
    boolean settled(JobStatus job) {
        return job.state().isFinal() && gate.passesOpen(job.id()) == 0;
    }

    void release(JobStatus job) {
        Set<CompletableFuture<JobStatus>> forJob = waiting.remove(job.id());
        if (forJob != null) {
            forJob.forEach(waiter -> waiter.complete(job));
        }
    }
}
