package io.tileseeder.app.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.app.Embedded;
import io.tileseeder.job.JobLimits;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.TooManyJobsException;
import io.tileseeder.runtime.settings.Settings.JobSettings;
import io.tileseeder.runtime.settings.Settings.StoreSettings;
import io.tileseeder.runtime.settings.Settings.WorkerSettings;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.server.Engine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The embedded engine end to end, on the failure paths that once lost tasks or blocked planners. */
class EmbeddedEngineTest {

    @TempDir
    Path temp;

    private static JobRequest world(int minZoom, int maxZoom) {
        return new JobRequest("world", null, new JobRequest.Zoom(minZoom, maxZoom), null, null, null, null, null, null,
                Map.of());
    }

    private static Settings settings(Path root, int workerThreads, int storeThreads, int queueCapacity,
                                     int maxRunningJobs) {
        return settings(root, workerThreads, storeThreads, queueCapacity, maxRunningJobs, 0);
    }

    private static Settings settings(Path root, int workerThreads, int storeThreads, int queueCapacity,
                                     int maxRunningJobs, int maxQueuedJobs) {
        return new Settings(new StoreSettings(root.toString(), Optional.empty()), Optional.empty(),
                new JobSettings(new JobLimits(100_000_000L, 32, 100_000, 100_000), maxRunningJobs, maxQueuedJobs, 16, 100,
                        queueCapacity, Duration.ofSeconds(2), 32),
                new WorkerSettings(workerThreads, storeThreads, 2, Duration.ofMillis(200), Duration.ofSeconds(5), 4, 16, true),
                Duration.ofSeconds(5));
    }

    private static JobStatus awaitFinal(Engine engine, String id) throws Exception {
        JobStatus job = engine.jobs().awaitFinal(id, Duration.ofSeconds(60)).orElseThrow().get(90, TimeUnit.SECONDS);
        assertThat(job.state().isFinal()).as("job %s final within the wait, was %s", id, job.state()).isTrue();
        return job;
    }

    /**
     * Every store write fails (the store's folder, fine at start, is then replaced by a file). With more store
     * slots than CPU threads, more
     * deliveries are released at once than CPU threads exist; each must still be redelivered and, after its
     * last delivery, recorded FAILED, so the job ends FAILED instead of hanging.
     */
    @Test
    @Timeout(120)
    void aStoreThatAlwaysFailsEndsTheJobFailedWithEveryTaskAccountedFor() throws Exception {
        Path notAFolder = Files.createDirectory(temp.resolve("not-a-folder"));
        try (Engine engine = Embedded.engine(settings(notAFolder, 1, 8, 64, 4))) {
            Files.delete(notAFolder);
            Files.writeString(notAFolder, "x");
            JobStatus job = awaitFinal(engine, engine.jobs().submit(world(0, 4), null).id());

            assertThat(job.state()).isEqualTo(JobState.FAILED);
            assertThat(job.tasksDone()).isEqualTo(job.tasksPlanned());
            assertThat(job.tasksFailed()).isEqualTo(job.tasksPlanned());
            assertThat(job.reason()).contains("tasks failed").contains("not-a-folder");
        }
    }

    /**
     * A cancelled job whose planner waits on a full queue must give its place up: the next job is planned and
     * runs to the end.
     */
    @Test
    @Timeout(120)
    void aCancelledJobWaitingOnAFullQueueDoesNotBlockTheNextJob() throws Exception {
        try (Engine engine = Embedded.engine(settings(temp.resolve("tiles"), 1, 1, 2, 1))) {
            JobStatus big = engine.jobs().submit(world(0, 12), null);
            assertThat(engine.jobs().cancel(big.id()).orElseThrow().state()).isEqualTo(JobState.CANCELLED);

            JobStatus next = awaitFinal(engine, engine.jobs().submit(world(0, 1), null).id());

            assertThat(next.state()).isEqualTo(JobState.SUCCEEDED);
            assertThat(next.counts().tiles()).isEqualTo(5);
        }
    }

    /**
     * With one place and one queued job allowed: the second job waits QUEUED at place 1, a third is refused with the
     * counts, and the queued one runs to the end once the first is cancelled.
     */
    @Test
    @Timeout(120)
    void aJobBeyondTheRunningLimitWaitsQueuedAndRunsOnceThePlaceIsFree() throws Exception {
        try (Engine engine = Embedded.engine(settings(temp.resolve("tiles"), 1, 1, 2, 1, 1))) {
            JobStatus big = engine.jobs().submit(world(0, 12), null);
            JobStatus queued = engine.jobs().submit(world(0, 1), null);

            assertThat(queued.state()).isEqualTo(JobState.QUEUED);
            assertThat(engine.jobs().queuePositions()).containsExactly(Map.entry(queued.id(), 1));
            assertThatThrownBy(() -> engine.jobs().submit(world(0, 1), null)).isInstanceOf(TooManyJobsException.class)
                    .hasMessageStartingWith("2 jobs are running or queued, the limits are 1 running and 1 queued");
            assertThat(engine.jobs().get(queued.id()).orElseThrow().tasksPlanned()).as("not planned while queued")
                    .isZero();

            engine.jobs().cancel(big.id());
            JobStatus done = awaitFinal(engine, queued.id());

            assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
            assertThat(done.counts().tiles()).isEqualTo(5);
            assertThat(engine.jobs().queuePositions()).isEmpty();
        }
    }

    /** A client that waits and times out, many times over, leaves no waiter behind. */
    @Test
    @Timeout(120)
    void waitersThatTimeOutAreForgotten() throws Exception {
        try (Engine engine = Embedded.engine(settings(temp.resolve("tiles"), 1, 1, 2, 1))) {
            JobStatus big = engine.jobs().submit(world(0, 12), null);
            for (int i = 0; i < 32; i++) {
                JobStatus seen = engine.jobs().awaitFinal(big.id(), Duration.ofMillis(1)).orElseThrow()
                        .get(10, TimeUnit.SECONDS);
                assertThat(seen.id()).isEqualTo(big.id());
            }
            // The limit is 16 waiters: had the timed-out ones stayed counted, this would be refused.
            assertThat(engine.jobs().awaitFinal(big.id(), Duration.ofMillis(1))).isPresent();
            engine.jobs().cancel(big.id());
        }
    }
}
