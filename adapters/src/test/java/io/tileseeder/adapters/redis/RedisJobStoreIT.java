package io.tileseeder.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.adapters.JobStoreContract;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.message.TaskResult;
import io.tileseeder.message.TileCounts;
import io.tileseeder.port.JobStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * {@link RedisJobStore} against the real standalone Redis of {@code dev/services} ({@code SEEDER_REDIS_URL}): the
 * contract, then what only a shared store has to do — replicas that see each other's writes, retention by expiry,
 * lost scripts, repairs after a crash between two steps. Subclasses run the same against other topologies. Every
 * test uses its own key prefix and deletes its keys.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisJobStoreIT extends JobStoreContract {

    static final Duration RETAIN = Duration.ofHours(1);

    RedissonClient client;

    private String prefix;
    private Clock storeClock;
    private RedissonClient replicaClient;

    /** The Redis to test against. */
    RedisTopology topology() {
        return RedisTopology.standalone(RedisTopologies.env("SEEDER_REDIS_URL"));
    }

    @BeforeAll
    void connect() {
        client = topology().connect(RedissonMetatileLock.DEFAULT_WATCHDOG_TIMEOUT);
    }

    @AfterAll
    void disconnect() {
        if (client != null) {
            client.shutdown();
        }
    }

    @Override
    protected JobStore newStore(Clock clock) {
        prefix = "seeder-it:jobs:" + UUID.randomUUID() + ":";
        storeClock = clock;
        return new RedisJobStore(client, prefix, clock, RETAIN);
    }

    @AfterEach
    void cleanUp() {
        if (replicaClient != null) {
            replicaClient.shutdown();
            replicaClient = null;
        }
        client.getKeys().deleteByPattern(prefix + "*");
    }

    /** Another coordinator replica: its own client, on the same key prefix. */
    private RedisJobStore replica() {
        replicaClient = topology().connect(RedissonMetatileLock.DEFAULT_WATCHDOG_TIMEOUT);
        return new RedisJobStore(replicaClient, prefix, storeClock, RETAIN);
    }

    private String jobKey(String id) {
        return prefix + "job:{" + id + "}";
    }

    @Test
    void replicasSeeEachOthersWrites() {
        RedisJobStore replica = replica();
        JobStatus job = store.create(submitted("shared-key"));

        assertThat(replica.get(job.id())).contains(job);
        assertThat(replica.create(submitted("shared-key"))).isEqualTo(job);
        replica.planned(job.id(), 2, true);
        assertThat(store.record(ok(job, 0, counts(0)))).isTrue();
        assertThat(replica.recordAll(List.of(ok(job, 0, counts(0)), ok(job, 1, counts(1))))).containsExactly(job.id());
        assertThat(store.get(job.id())).isEqualTo(replica.get(job.id()));
        assertThat(job(job.id()).counts()).isEqualTo(counts(0).plus(counts(1)));

        JobStatus finished = replica.finish(job.id(), JobState.SUCCEEDED, null).orElseThrow();
        assertThat(store.finish(job.id(), JobState.CANCELLED, "too late")).isEmpty();
        assertThat(job(job.id())).isEqualTo(finished);
        assertThat(store.pendingEvents()).containsExactly(job.id());
        replica.eventSent(job.id());
        assertThat(store.pendingEvents()).isEmpty();
        assertThat(replica.list(5)).isEqualTo(store.list(5));
    }

    @Test
    void aFinishedJobDropsItsBitmapAndExpiresWithItsIdempotencyKey() {
        JobStatus job = store.create(submitted("expiring"));
        store.recordAll(List.of(ok(job, 0, counts(0)), failed(job, 1)));
        assertThat(client.getKeys().remainTimeToLive(jobKey(job.id()))).isEqualTo(-1);

        store.finish(job.id(), JobState.FAILED, "1 task failed");

        assertThat(client.getKeys().countExists(jobKey(job.id()) + ":done")).isZero();
        for (String key : List.of(jobKey(job.id()), jobKey(job.id()) + ":failures", prefix + "idem:expiring")) {
            assertThat(client.getKeys().remainTimeToLive(key)).as(key).isBetween(1L, RETAIN.toMillis());
        }
    }

    @Test
    void listSkipsAndForgetsJobsWhoseRecordExpired() {
        JobStatus oldest = created();
        JobStatus expired = created();
        JobStatus newest = created();
        client.getKeys().delete(jobKey(expired.id()));

        assertThat(store.list(2)).containsExactly(newest, oldest);
        assertThat(client.getScoredSortedSet(prefix + "{index}:jobs", StringCodec.INSTANCE).readAll())
                .containsExactlyInAnyOrder(oldest.id(), newest.id());
    }

    @Test
    void scriptsLostByRedisAreLoadedAgain() {
        JobStatus job = created();

        client.getScript().scriptFlush();
        assertThat(store.record(ok(job, 0, counts(0)))).isTrue();
        client.getScript().scriptFlush();
        assertThat(store.recordAll(List.of(ok(job, 1, counts(1))))).containsExactly(job.id());
        client.getScript().scriptFlush();
        assertThat(store.list(1)).extracting(JobStatus::tasksDone).containsExactly(2L);
    }

    @Test
    void badStoredDataIsReportedWithItsKey() {
        JobStatus job = created();
        client.getMap(jobKey(job.id()), StringCodec.INSTANCE).put("state", "HALF_DONE");

        assertThatThrownBy(() -> store.get(job.id())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(jobKey(job.id()));
    }

    @Test
    void eightConcurrentSubmissionsWithOneIdempotencyKeyMakeOneJob() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<JobStatus>> submissions = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                JobStatus job = submitted("raced");
                submissions.add(threads.submit(() -> {
                    start.await();
                    return store.create(job);
                }));
            }
            start.countDown();
            List<String> ids = new ArrayList<>();
            for (Future<JobStatus> submission : submissions) {
                ids.add(submission.get(30, TimeUnit.SECONDS).id());
            }

            assertThat(ids).containsOnly(ids.getFirst());
            assertThat(store.list(10)).extracting(JobStatus::id).containsExactly(ids.getFirst());
            assertThat(store.unfinished()).extracting(JobStatus::id).containsExactly(ids.getFirst());
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aSubmissionWaitsForAReservationOfItsKeyAndTakesItOverWhenItLapses() {
        // A creator that reserved the key and died: the reservation lapses, then the key is free.
        client.getBucket(prefix + "idem:orphaned", StringCodec.INSTANCE).set("*job-of-a-dead-creator",
                Duration.ofMillis(300));

        JobStatus job = store.create(submitted("orphaned"));

        assertThat(store.findByIdempotencyKey("orphaned")).contains(job);
        assertThat(client.getKeys().remainTimeToLive(prefix + "idem:orphaned")).isEqualTo(-1);
    }

    @Test
    void anIdempotencyKeyWhoseJobIsGoneGetsANewJob() {
        JobStatus first = store.create(submitted("reused"));
        client.getKeys().delete(jobKey(first.id()));

        JobStatus second = store.create(submitted("reused"));

        assertThat(second.id()).isNotEqualTo(first.id());
        assertThat(store.findByIdempotencyKey("reused")).contains(second);
    }

    @Test
    void aJobMadeFinalWhoseIndexStepWasLostJoinsTheOutboxOnce() {
        JobStatus job = created();
        // What the first step of finish leaves when the process dies before the second.
        client.getMap(jobKey(job.id()), StringCodec.INSTANCE).putAll(Map.of("state", "SUCCEEDED",
                "finished", clock.instant().toString()));
        assertThat(store.countUnfinished()).isEqualTo(1);

        assertThat(store.unfinished()).isEmpty();

        assertThat(store.countUnfinished()).isZero();
        assertThat(store.pendingEvents()).containsExactly(job.id());
        store.eventSent(job.id());
        assertThat(store.unfinished()).isEmpty();
        assertThat(store.pendingEvents()).isEmpty();
        assertThat(store.finish(job.id(), JobState.FAILED, "too late")).isEmpty();
        assertThat(store.pendingEvents()).isEmpty();
    }

    @Test
    void aJobIndexedButNotConfirmedIsConfirmedByUnfinishedAndItsIdempotencyKey() {
        JobStatus byUnfinished = created();
        JobStatus byKey = store.create(submitted("half-made"));
        // What create leaves when the process dies after indexing a job and before confirming it.
        for (JobStatus job : List.of(byUnfinished, byKey)) {
            client.getMap(jobKey(job.id()), StringCodec.INSTANCE).expire(RedisJobStore.UNCONFIRMED_TTL);
        }

        assertThat(store.unfinished()).extracting(JobStatus::id).contains(byUnfinished.id());
        assertThat(client.getKeys().remainTimeToLive(jobKey(byUnfinished.id()))).isEqualTo(-1);
        client.getMap(jobKey(byKey.id()), StringCodec.INSTANCE).expire(RedisJobStore.UNCONFIRMED_TTL);
        assertThat(store.findByIdempotencyKey("half-made")).contains(byKey);
        assertThat(client.getKeys().remainTimeToLive(jobKey(byKey.id()))).isEqualTo(-1);
    }

    @Test
    void anUnfinishedEntryWhoseJobIsGoneIsDropped() {
        JobStatus kept = created();
        JobStatus gone = created();
        client.getKeys().delete(jobKey(gone.id()));
        assertThat(store.countUnfinished()).isEqualTo(2);

        assertThat(store.unfinished()).containsExactly(kept);

        assertThat(store.countUnfinished()).isEqualTo(1);
    }

    @Test
    void aKeyPrefixWithBracesIsRefused() {
        assertThatThrownBy(() -> new RedisJobStore(client, "seeder:{x}:", clock, RETAIN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("braces");
    }

    /** Not a benchmark (no timing is asserted), but it prints the rate of a realistic ingest. */
    @Test
    void aLargeIngestInBatchesCountsEveryResultOnce() {
        int jobCount = 4;
        int perJob = 50_000;
        int batchSize = 1_000;
        List<JobStatus> jobs = new ArrayList<>();
        for (int i = 0; i < jobCount; i++) {
            jobs.add(created());
        }
        List<TaskResult> results = new ArrayList<>();
        for (long seq = 0; seq < perJob; seq++) {
            for (JobStatus job : jobs) {
                results.add(ok(job, seq, new TileCounts(14, 2, 0, 0, 0, 40_000, 0)));
            }
        }

        long start = System.nanoTime();
        for (int from = 0; from < results.size(); from += batchSize) {
            store.recordAll(results.subList(from, Math.min(results.size(), from + batchSize)));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("RedisJobStore.recordAll: %d results in %.2f s, %.0f results/s%n", results.size(), seconds,
                results.size() / seconds);

        assertThat(store.recordAll(results.subList(0, batchSize))).isEmpty();
        for (JobStatus job : jobs) {
            JobStatus recorded = job(job.id());
            assertThat(recorded.tasksDone()).isEqualTo(perJob);
            assertThat(recorded.counts()).isEqualTo(new TileCounts(14L * perJob, 2L * perJob, 0, 0, 0,
                    40_000L * perJob, 0));
        }
    }
}
