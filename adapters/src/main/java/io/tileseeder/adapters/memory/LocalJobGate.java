package io.tileseeder.adapters.memory;

import io.tileseeder.port.JobGate;
import io.tileseeder.port.JobStore;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The job gate of one JVM, over the job store the coordinator keeps in the same process. A pass is counted
 * before the job's state is read: a job made final after that read sees the pass (so its event waits for it),
 * and one made final before it turns the worker away. Passes do not expire: nothing outlives this JVM.
 */
public final class LocalJobGate implements JobGate {

    private final JobStore jobs;
    /** Open passes per job; a job with none has no entry. */
    private final ConcurrentMap<String, Long> open = new ConcurrentHashMap<>();

    public LocalJobGate(JobStore jobs) {
        this.jobs = jobs;
    }

    @Override
    public Optional<Pass> enter(String jobId) {
        open.merge(jobId, 1L, Long::sum);
        Pass pass = new LocalPass(jobId);
        boolean workable;
        try {
            workable = jobs.get(jobId).map(job -> !job.state().isFinal()).orElse(false);
        } catch (RuntimeException e) {
            pass.close();
            throw e;
        }
        if (!workable) {
            pass.close();
            return Optional.empty();
        }
        return Optional.of(pass);
    }

    @Override
    public long passesOpen(String jobId) {
        return open.getOrDefault(jobId, 0L);
    }

    private final class LocalPass implements Pass {
        private final String jobId;
        private final AtomicBoolean closed = new AtomicBoolean();

        LocalPass(String jobId) {
            this.jobId = jobId;
        }

        @Override
        public boolean jobFinal() {
            return jobs.get(jobId).map(job -> job.state().isFinal()).orElse(true);
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                open.computeIfPresent(jobId, (id, count) -> count == 1 ? null : count - 1);
            }
        }
    }
}
