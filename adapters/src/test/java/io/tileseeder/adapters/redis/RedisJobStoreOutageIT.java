package io.tileseeder.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.adapters.JobStoreContract;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.message.TaskResult;
import io.tileseeder.message.TileCounts;
import io.tileseeder.port.DependencyUnavailableException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.redisson.api.RedissonClient;

/**
 * {@link RedisJobStore} while its Redis is down: a Redis of the test's own is stopped, every call reports
 * {@link DependencyUnavailableException} (never another failure, never a wrong answer), and once Redis is started
 * again on its AOF the store works on as before, with what it had recorded.
 */
class RedisJobStoreOutageIT {

    private static final Duration RECOVERY = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void aStoppedRedisIsReportedUnavailableAndTheStoreWorksAgainAfterItsRestart() throws Exception {
        try (OwnRedis redis = OwnRedis.start(dir)) {
            RedissonClient client = RedisTopology.standalone(redis.url())
                    .connect(RedissonMetatileLock.DEFAULT_WATCHDOG_TIMEOUT);
            try {
                RedisJobStore store = new RedisJobStore(client, "outage:", Clock.systemUTC(), Duration.ofHours(1));
                JobStatus job = store.create(JobStatus.submitted("job-" + UUID.randomUUID(), JobStoreContract.SPEC,
                        100, Instant.now(), "outage-key"));
                store.planned(job.id(), 3, true);
                assertThat(store.record(result(job, 0))).isTrue();

                redis.stop();

                for (ThrowingCallable call : List.<ThrowingCallable>of(() -> store.get(job.id()),
                        store::pendingEvents, () -> store.record(result(job, 1)),
                        () -> store.recordAll(List.of(result(job, 1), result(job, 2))), store::unfinished,
                        () -> store.finish(job.id(), JobState.CANCELLED, "cancelled"), store::countByState,
                        () -> store.create(JobStatus.submitted("job-" + UUID.randomUUID(), JobStoreContract.SPEC, 1,
                                Instant.now(), "another-key")))) {
                    assertThatThrownBy(call).isInstanceOf(DependencyUnavailableException.class)
                            .satisfies(e -> assertThat(((DependencyUnavailableException) e).dependency())
                                    .isEqualTo("Redis"));
                }

                redis.start();

                JobStatus back = eventually(() -> store.get(job.id()).orElseThrow());
                assertThat(back.tasksDone()).isEqualTo(1);
                assertThat(back.state()).isEqualTo(JobState.RUNNING);
                assertThat(store.recordAll(List.of(result(job, 0), result(job, 1), result(job, 2))))
                        .containsExactly(job.id());
                assertThat(store.get(job.id()).orElseThrow().tasksDone()).isEqualTo(3);
                assertThat(store.finish(job.id(), JobState.SUCCEEDED, null)).isPresent();
                assertThat(store.pendingEvents()).containsExactly(job.id());
                assertThat(store.findByIdempotencyKey("outage-key")).map(JobStatus::state).contains(JobState.SUCCEEDED);
            } finally {
                client.shutdown();
            }
        }
    }

    private static TaskResult result(JobStatus job, long seq) {
        return new TaskResult(TaskResult.VERSION, job.id(), seq, true, new TileCounts(16, 0, 0, 0, 0, 1_000, 0), null);
    }

    /** What {@code call} returns once Redis serves again, trying while it reports itself unavailable. */
    static <T> T eventually(Supplier<T> call) throws InterruptedException {
        long deadline = System.nanoTime() + RECOVERY.toNanos();
        while (true) {
            try {
                return call.get();
            } catch (DependencyUnavailableException e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("Redis did not serve again within " + RECOVERY, e);
                }
                Thread.sleep(100);
            }
        }
    }
}
