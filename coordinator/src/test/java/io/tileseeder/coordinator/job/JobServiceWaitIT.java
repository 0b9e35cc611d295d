package io.tileseeder.coordinator.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.adapters.memory.InMemoryTaskQueue;
import io.tileseeder.adapters.memory.LocalMetatileLock;
import io.tileseeder.adapters.redis.RedisJobGate;
import io.tileseeder.adapters.redis.RedisJobStore;
import io.tileseeder.adapters.redis.RedissonMetatileLock;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.JobLimits;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.TileFormat;
import io.tileseeder.outage.Outages;
import io.tileseeder.plan.JobSpecValidator;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.redisson.api.RedissonClient;

/**
 * A client waiting on a job whose record leaves Redis meanwhile (Redis came back without its data) is told the job is
 * LOST, rather than failing with an error of the server's own; a job this coordinator never knew is unknown (the API
 * answers 404).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JobServiceWaitIT {

    @TempDir
    Path tiles;

    private RedissonClient redis;
    private String prefix;
    private RedisJobGate gate;
    private JobService jobs;

    @BeforeEach
    void start() {
        String url = System.getenv("SEEDER_REDIS_URL");
        assertThat(url).as("SEEDER_REDIS_URL (run dev/services up and source .dev/services.env)").isNotBlank();
        redis = RedissonMetatileLock.connect(url);
        prefix = "seeder-it:wait:" + UUID.randomUUID() + ":";
        LayerCatalog layers = LayerCatalog.of(new LayerInfo("world", "World", "", 0, 10,
                Set.of(TileMatrixSet.WEB_MERCATOR_QUAD), Set.of(TileFormat.PNG), new MetatileSize(4, 4)));
        // Nobody takes the tasks: the job stays unfinished for as long as the test needs.
        RedisJobStore records = new RedisJobStore(redis, prefix, Clock.systemUTC(), Duration.ofHours(1));
        gate = new RedisJobGate(redis, prefix, RedisJobGate.DEFAULT_LEASE);
        jobs = new JobService(layers, new JobSpecValidator(layers, new JobLimits(100_000_000, 32, 100_000, 100_000)), records,
                new InMemoryTaskQueue(64, 1), new FileTileStore(tiles), event -> { }, new LocalMetatileLock(), gate,
                new Outages(Duration.ofMinutes(10), Clock.systemUTC()), Clock.systemUTC(),
                new CoordinatorSettings(4, 0, 16, 64, 64, Duration.ofSeconds(2),
                        Duration.ofHours(1)), new SimpleMeterRegistry());
    }

    @AfterEach
    void stop() {
        jobs.close();
        gate.close();
        redis.getKeys().deleteByPattern(prefix + "*");
        redis.shutdown();
    }

    @Test
    void aWaiterWhoseJobLeavesTheStoreIsToldItIsLost() throws Exception {
        JobStatus job = jobs.submit(new JobRequest("world", null, new JobRequest.Zoom(0, 2), null, null, null, null,
                null, null, null), null);
        // Not timed out before the job's keys go, however slow the machine: told LOST by the sweep or at its timeout.
        CompletableFuture<JobStatus> waiting = jobs.awaitFinal(job.id(), Duration.ofSeconds(5)).orElseThrow();

        redis.getKeys().deleteByPattern(prefix + "*");

        assertThat(waiting.get().state()).isEqualTo(JobState.LOST);
        assertThat(jobs.awaitFinal(job.id(), Duration.ofMillis(500)).orElseThrow().get().state()).as("a new waiter")
                .isEqualTo(JobState.LOST);
        assertThat(jobs.awaitFinal("never-known", Duration.ofMillis(500))).isEmpty();
    }
}
