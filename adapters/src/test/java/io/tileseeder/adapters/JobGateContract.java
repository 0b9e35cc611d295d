package io.tileseeder.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.JobGate;
import io.tileseeder.port.JobStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link JobGate} promises, over the job store it reads: final and unknown jobs let nobody in, a
 * pass is counted until closed, and a job made final while a pass is open still counts it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class JobGateContract {

    private static final JobSpec SPEC = new JobSpec("world", TileMatrixSet.WEB_MERCATOR_QUAD, 0, 2,
            new Bounds(-180, -85, 180, 85), TileFormat.PNG, Mode.SEED, MetatileSize.DEFAULT, null, 0, Map.of());

    protected JobStore jobs;
    protected JobGate gate;

    /** The job store the gate reads, fresh and empty. */
    protected abstract JobStore newJobs() throws Exception;

    /** The gate over {@code jobs}. */
    protected abstract JobGate newGate(JobStore jobs) throws Exception;

    @BeforeEach
    void setUpContract() throws Exception {
        jobs = newJobs();
        gate = newGate(jobs);
    }

    protected JobStatus running() {
        JobStatus job = jobs.create(JobStatus.submitted("job-" + UUID.randomUUID(), SPEC, 21, Instant.now(), null));
        jobs.planned(job.id(), 2, false);
        return job;
    }

    @Test
    void aJobThatIsNeitherFinalNorUnknownLetsWorkersInAndCountsTheirPasses() {
        JobStatus job = running();

        Optional<JobGate.Pass> first = gate.enter(job.id());
        Optional<JobGate.Pass> second = gate.enter(job.id());

        assertThat(first).isPresent();
        assertThat(second).isPresent();
        assertThat(gate.passesOpen(job.id())).isEqualTo(2);
        first.get().close();
        first.get().close(); // closing twice counts once
        assertThat(gate.passesOpen(job.id())).isEqualTo(1);
        second.get().close();
        assertThat(gate.passesOpen(job.id())).isZero();
    }

    @Test
    void everyFinalStateAndAnUnknownJobTurnWorkersAway() {
        List<String> ids = new ArrayList<>();
        for (JobState state : JobState.values()) {
            if (state.isFinal()) {
                JobStatus job = running();
                jobs.finish(job.id(), state, "test");
                ids.add(job.id());
            }
        }
        ids.add("job-never-submitted");

        for (String id : ids) {
            assertThat(gate.enter(id)).as(id).isEmpty();
            assertThat(gate.passesOpen(id)).as(id).isZero();
        }
    }

    @Test
    void aJobMadeFinalWhileAPassIsOpenStillCountsItUntilItIsClosed() {
        JobStatus job = running();
        JobGate.Pass pass = gate.enter(job.id()).orElseThrow();

        jobs.finish(job.id(), JobState.CANCELLED, "cancelled");

        assertThat(gate.passesOpen(job.id())).isEqualTo(1);
        assertThat(gate.enter(job.id())).isEmpty();
        pass.close();
        assertThat(gate.passesOpen(job.id())).isZero();
    }

    @Test
    void passesOfOneJobDoNotCountForAnother() {
        JobStatus a = running();
        JobStatus b = running();

        JobGate.Pass pass = gate.enter(a.id()).orElseThrow();

        assertThat(gate.passesOpen(a.id())).isEqualTo(1);
        assertThat(gate.passesOpen(b.id())).isZero();
        pass.close();
    }
}
