package io.tileseeder.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.adapters.JobStoreContract;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.message.TaskResult;
import io.tileseeder.message.TileCounts;
import io.tileseeder.port.DependencyUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.redisson.api.RedissonClient;

/**
 * A Sentinel failover (SENTINEL FAILOVER on the set of {@code dev/services}) while a {@link RedisJobStore} records
 * results one by one, as the coordinator does: during the switch the store at worst reports
 * {@link DependencyUnavailableException} (the caller tries the same result again), it loses no result it said was
 * recorded and counts none twice, and it records on the new master afterwards.
 */
class RedisJobStoreFailoverIT {

    private static final Duration SWITCH = Duration.ofSeconds(60);
    private static final TileCounts COUNTS = new TileCounts(16, 0, 0, 0, 0, 1_000, 0);

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aFailoverMidRecordingLosesNoResultAndCountsNoneTwice() throws Exception {
        RedisTopology topology = RedisTopologies.sentinel();
        RedissonClient client = topology.connect(RedissonMetatileLock.DEFAULT_WATCHDOG_TIMEOUT);
        String prefix = "seeder-it:failover:" + UUID.randomUUID() + ":";
        try {
            // Writes wait for the replica, so the master cannot take an acknowledged one with it.
            RedisJobStore store = new RedisJobStore(client, prefix, Clock.systemUTC(), Duration.ofHours(1), 1);
            JobStatus job = store.create(JobStatus.submitted("job-" + UUID.randomUUID(), JobStoreContract.SPEC,
                    1_000_000, Instant.now(), null));
            store.planned(job.id(), Integer.MAX_VALUE, false);

            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong completed = new AtomicLong();
            AtomicInteger unavailable = new AtomicInteger();
            Set<Long> newlyRecorded = new HashSet<>();
            List<Long> countedTwice = new ArrayList<>();
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                for (long seq = 0; !stop.get(); seq++) {
                    while (true) {
                        try {
                            if (store.record(result(job, seq)) && !newlyRecorded.add(seq)) {
                                countedTwice.add(seq);
                            }
                            completed.set(seq + 1);
                            break;
                        } catch (DependencyUnavailableException e) {
                            unavailable.incrementAndGet();
                        }
                    }
                }
            });

            awaitCondition("records before the failover", () -> completed.get() >= 200, writer);
            String before = RedisTopologies.master(topology);
            RedisTopologies.sentinel(topology, "SENTINEL", "FAILOVER", RedisTopologies.env("SEEDER_REDIS_SENTINEL_MASTER"));
            awaitCondition("the sentinels to name a new master", () -> !RedisTopologies.master(topology).equals(before), writer);
            long atSwitch = completed.get();
            awaitCondition("records on the new master", () -> completed.get() >= atSwitch + 200, writer);
            stop.set(true);
            writer.get(SWITCH.toSeconds(), TimeUnit.SECONDS);

            long done = completed.get();
            System.out.printf("failover %s -> %s: %d results recorded, %d calls reported Redis unavailable%n", before,
                    RedisTopologies.master(topology), done, unavailable.get());
            assertThat(countedTwice).isEmpty();
            assertThat(store.recordAll(LongStream.range(0, done).mapToObj(seq -> result(job, seq)).toList()))
                    .as("every result is still recorded").isEmpty();
            JobStatus recorded = store.get(job.id()).orElseThrow();
            assertThat(recorded.tasksDone()).isEqualTo(done);
            assertThat(recorded.counts()).isEqualTo(new TileCounts(16 * done, 0, 0, 0, 0, 1_000 * done, 0));
            assertThat(store.finish(job.id(), JobState.SUCCEEDED, null)).isPresent();
            assertThat(store.pendingEvents()).containsExactly(job.id());
        } finally {
            client.getKeys().deleteByPattern(prefix + "*");
            client.shutdown();
        }
    }

    private static TaskResult result(JobStatus job, long seq) {
        return new TaskResult(TaskResult.VERSION, job.id(), seq, true, COUNTS, null);
    }

    /** Waits until {@code condition} holds, failing if the writer failed first or time runs out. */
    private static void awaitCondition(String what, CheckedCondition condition, CompletableFuture<Void> writer)
            throws Exception {
        long deadline = System.nanoTime() + SWITCH.toNanos();
        while (!condition.holds()) {
            if (writer.isDone()) {
                writer.get();
                throw new AssertionError("the writer stopped while waiting for " + what);
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + what + " within " + SWITCH);
            }
            Thread.sleep(20);
        }
    }


    @FunctionalInterface
    private interface CheckedCondition {
        boolean holds() throws Exception;
    }
}
