package io.tileseeder.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.adapters.UpstreamPermitsContract;
import io.tileseeder.port.UpstreamPermits;
import io.tileseeder.port.UpstreamPermits.Permit;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.redisson.api.RedissonClient;

/**
 * {@link RedisUpstreamPermits} against the real Redis of {@code dev/services} ({@code SEEDER_REDIS_URL}): the
 * contract, then what only permits shared through Redis have to do: hold one limit for several pods, give a dead
 * pod's permits back when their lease ends, survive a Redis that lost its data, and let a pod that cannot reach Redis
 * go on with its own limit until Redis serves again (a server of the test's own, stopped and started).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisUpstreamPermitsIT extends UpstreamPermitsContract {

    private RedissonClient client;
    private final String prefix = "seeder-it:upstream:" + UUID.randomUUID() + ":";
    private final List<RedissonClient> pods = new ArrayList<>();

    @BeforeAll
    void connect() {
        client = RedisTopology.standalone(RedissonMetatileLockIT.env("SEEDER_REDIS_URL"))
                .connect(RedissonMetatileLock.DEFAULT_WATCHDOG_TIMEOUT);
    }

    @AfterAll
    void disconnect() {
        if (client != null) {
            client.shutdown();
        }
    }

    @AfterEach
    void shutDownPods() {
        pods.forEach(RedissonClient::shutdown);
        pods.clear();
    }

    @Override
    protected UpstreamPermits permits() {
        return new RedisUpstreamPermits(client, prefix, Clock.systemUTC());
    }

    /** Another pod's permits over its own connection to the same Redis. */
    private RedisUpstreamPermits pod() {
        RedissonClient pod = RedisTopology.standalone(RedissonMetatileLockIT.env("SEEDER_REDIS_URL"))
                .connect(RedissonMetatileLock.DEFAULT_WATCHDOG_TIMEOUT);
        pods.add(pod);
        return new RedisUpstreamPermits(pod, prefix, Clock.systemUTC());
    }

    @Test
    void twoPodsShareOneLimit() throws Exception {
        RedisUpstreamPermits first = pod();
        RedisUpstreamPermits second = pod();
        String upstream = upstream();
        Permit one = first.acquire(upstream, 2, LEASE);
        Permit two = first.acquire(upstream, 2, LEASE);
        Future<Permit> waiting = acquireLater(second, upstream, 2);
        assertWaits(waiting);

        two.close();

        waiting.get(STEP_SECONDS, TimeUnit.SECONDS).close();
        one.close();
    }

    @Test
    void aHoldOnePodWasAskedForHoldsEveryPod() throws Exception {
        RedisUpstreamPermits asked = pod();
        RedisUpstreamPermits other = pod();
        String upstream = upstream();
        Instant start = Instant.now();

        asked.holdOff(upstream, start.plusMillis(1500), "answered HTTP 429 with Retry-After: 2");

        assertThat(other.hold(upstream)).hasValueSatisfying(hold -> {
            assertThat(hold.until()).as("kept in whole milliseconds")
                    .isEqualTo(start.plusMillis(1500).truncatedTo(ChronoUnit.MILLIS));
            assertThat(hold.reason()).isEqualTo("answered HTTP 429 with Retry-After: 2");
        });
        try (Permit held = other.acquire(upstream, 4, LEASE)) {
            assertThat(Duration.between(start, Instant.now())).isGreaterThanOrEqualTo(Duration.ofMillis(1450));
        }
    }

    @Test
    void aDeadPodsPermitsComeBackWhenTheirLeaseEnds() throws Exception {
        RedisUpstreamPermits dying = pod();
        String upstream = upstream();
        Duration lease = Duration.ofSeconds(2);
        long taken = System.nanoTime();
        dying.acquire(upstream, 2, lease);
        dying.acquire(upstream, 2, lease);
        pods.removeLast().shutdown();

        try (Permit next = permits().acquire(upstream, 2, LEASE)) {
            // A lease ends on a wall clock of whole milliseconds.
            assertThat(Duration.ofNanos(System.nanoTime() - taken)).isGreaterThanOrEqualTo(lease.minusMillis(50))
                    .isLessThan(lease.plusSeconds(STEP_SECONDS));
        }
    }

    @Test
    void aRedisThatLostItsDataKeepsNobodyWaiting() throws Exception {
        RedisUpstreamPermits permits = new RedisUpstreamPermits(client, prefix, Clock.systemUTC());
        String upstream = upstream();
        permits.acquire(upstream, 1, LEASE);
        Future<Permit> waiting = acquireLater(permits, upstream, 1);
        assertWaits(waiting);

        long deleted = client.getKeys().deleteByPattern("*" + permits.redisKey(upstream, 1) + "*");

        assertThat(deleted).isPositive();
        waiting.get(STEP_SECONDS, TimeUnit.SECONDS).close();
    }

    @Test
    void withoutRedisAPodGoesOnWithItsOwnLimitAndRejoinsTheClusterWhenRedisServes(@TempDir Path dir)
            throws Exception {
        try (OwnRedis redis = OwnRedis.start(dir)) {
            RedissonClient own = RedisTopology.standalone(redis.url()).connect(Duration.ofSeconds(10));
            pods.add(own);
            RedisUpstreamPermits permits = new RedisUpstreamPermits(own, prefix, Clock.systemUTC());
            String upstream = upstream();
            // Given back while Redis is down, it is left to its lease, which the restarted Redis still holds.
            Permit held = permits.acquire(upstream, 1, Duration.ofSeconds(3));
            assertThat(permits.local()).isFalse();
            redis.stop();

            try (Permit granted = acquireLater(permits, upstream, 1).get(STEP_SECONDS * 2, TimeUnit.SECONDS)) {
                assertThat(permits.local()).isTrue();
            }
            held.close();
            redis.start();

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STEP_SECONDS * 2);
            while (permits.local() && System.nanoTime() < deadline) {
                permits.acquire(upstream, 1, LEASE).close();
                Thread.sleep(100);
            }
            assertThat(permits.local()).as("back on Redis's limit").isFalse();
            Permit again = permits.acquire(upstream, 1, LEASE);
            assertWaits(acquireLater(permits, upstream, 1));
            again.close();
        }
    }
}
