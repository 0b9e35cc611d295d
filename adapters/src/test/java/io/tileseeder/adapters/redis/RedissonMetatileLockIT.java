package io.tileseeder.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.adapters.MetatileLockContract;
import io.tileseeder.port.MetatileLock;
import io.tileseeder.port.MetatileLock.Lease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
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

/**
 * {@link RedissonMetatileLock} against the real Redis of {@code dev/services} ({@code SEEDER_REDIS_URL}):
 * the contract, then what only a shared lock has to do — exclude other pods, free a dead pod's locks after
 * the watchdog timeout, and keep a live holder's lock past it. Subclasses run the same against other Redis
 * deployments. Every test uses its own key prefix.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedissonMetatileLockIT extends MetatileLockContract {

    /** Short, so the watchdog tests run in seconds; the production default is 30 s. */
    static final Duration SHORT_WATCHDOG = Duration.ofSeconds(2);

    /** The client of the lock under test ("this pod"), with Redisson's default watchdog timeout. */
    RedissonClient client;

    private String prefix;
    private final List<RedissonClient> pods = new ArrayList<>();

    /** The Redis to test against. */
    RedisTopology topology() {
        return RedisTopology.standalone(env("SEEDER_REDIS_URL"));
    }

    static String env(String name) {
        String value = System.getenv(name);
        assertThat(value).as(name + " (run dev/services up and source .dev/services.env)").isNotBlank();
        return value;
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
    protected MetatileLock newLock() {
        prefix = "seeder-it:lock:" + UUID.randomUUID() + ":";
        return new RedissonMetatileLock(client, prefix, RedissonMetatileLock.DEFAULT_RESPONSE_TIMEOUT);
    }

    @Override
    protected int overlapRounds() {
        return 60;
    }

    @AfterEach
    void shutDownPods() {
        pods.forEach(RedissonClient::shutdown);
        pods.clear();
    }

    /** Another pod: its own client, locking under the same key prefix. */
    private RedissonMetatileLock otherPod(Duration watchdogTimeout) {
        RedissonClient pod = topology().connect(watchdogTimeout);
        pods.add(pod);
        return new RedissonMetatileLock(pod, prefix, RedissonMetatileLock.DEFAULT_RESPONSE_TIMEOUT);
    }

    private Future<Optional<Lease>> tryOn(MetatileLock other, String key, Duration wait) {
        return threads.submit(() -> other.tryLock(key, wait));
    }

    @Test
    void theDefaultWatchdogIsRedissons30SecondsAndConnectSetsAnother() {
        assertThat(client.getConfig().getLockWatchdogTimeout()).isEqualTo(30_000);
        otherPod(SHORT_WATCHDOG);
        assertThat(pods.getFirst().getConfig().getLockWatchdogTimeout()).isEqualTo(SHORT_WATCHDOG.toMillis());
    }

    @Test
    void aHeldLockIsOneKeyUnderThePrefixThatExpiresWithinTheWatchdogTimeout() throws Exception {
        take("layer/WebMercatorQuad/png/3/0/1@4x4");

        String key = prefix + "layer/WebMercatorQuad/png/3/0/1@4x4";
        assertThat(client.getKeys().countExists(key)).isEqualTo(1);
        assertThat(client.getKeys().remainTimeToLive(key)).isBetween(1L, 30_000L);
        assertThat(client.getKeys().getKeysStreamByPattern(prefix + "*").toList()).containsExactly(key);
    }

    @Test
    void afterCloseNoKeyIsLeft() throws Exception {
        take("gone").close();

        assertThat(client.getKeys().countExists(prefix + "gone")).isZero();
    }

    /**
     * A lock whose key expired (its renewals could not reach Redis for a whole watchdog timeout, here deleted as
     * that leaves it) is no longer the lease's, above all once another pod took it: the planner asks this before each
     * batch it records.
     */
    @Test
    void aLeaseWhoseKeyExpiredIsNoLongerHeld() throws Exception {
        Lease mine = take("plan/job");
        assertThat(mine.held()).isTrue();

        client.getKeys().delete(prefix + "plan/job");
        assertThat(mine.held()).isFalse();
        Lease theirs = otherPod(RedissonMetatileLock.DEFAULT_WATCHDOG_TIMEOUT).tryLock("plan/job", Duration.ZERO)
                .orElseThrow();

        assertThat(mine.held()).as("another pod holds it now").isFalse();
        assertThat(theirs.held()).isTrue();
        theirs.close();
    }

    @Test
    void twoPodsExcludeEachOther() throws Exception {
        RedissonMetatileLock pod = otherPod(RedissonMetatileLock.DEFAULT_WATCHDOG_TIMEOUT);
        Lease mine = take("shared");

        assertThat(await(tryOn(pod, "shared", SHORT_WAIT))).isEmpty();
        Future<Optional<Lease>> theirs = tryOn(pod, "shared", LONG_WAIT);
        mine.close();
        Lease theirLease = await(theirs).orElseThrow();

        assertThat(await(tryElsewhere("shared", Duration.ZERO))).as("this pod is shut out now").isEmpty();
        theirLease.close();
        assertThat(await(tryElsewhere("shared", Duration.ZERO))).isPresent();
    }

    @Test
    void aDeadPodsLockFreesItselfAfterTheWatchdogTimeout() throws Exception {
        RedissonMetatileLock dying = otherPod(SHORT_WATCHDOG);
        RedissonClient dyingClient = pods.getFirst();
        assertThat(dying.tryLock("dead", Duration.ZERO)).isPresent();

        dyingClient.shutdown(); // the pod dies holding the lock: no unlock, no more renewals
        long died = System.nanoTime();

        assertThat(await(tryElsewhere("dead", Duration.ZERO))).as("still held right after the death").isEmpty();
        assertThat(client.getKeys().remainTimeToLive(prefix + "dead")).isBetween(1L, SHORT_WATCHDOG.toMillis());
        Optional<Lease> taken = await(tryElsewhere("dead", Duration.ofSeconds(15)));
        Duration freedAfter = Duration.ofNanos(System.nanoTime() - died);

        assertThat(taken).isPresent();
        assertThat(freedAfter).isLessThanOrEqualTo(SHORT_WATCHDOG.plusSeconds(3));
    }

    @Test
    void theWatchdogKeepsALiveHoldersLeaseWellPastTheTimeout() throws Exception {
        RedissonMetatileLock holder = otherPod(SHORT_WATCHDOG);
        // Taken on a thread that ends at once: the renewal must follow the lease, not the thread.
        ExecutorService taker = Executors.newSingleThreadExecutor();
        Lease lease;
        try {
            lease = await(taker.submit(() -> holder.tryLock("alive", Duration.ZERO))).orElseThrow();
        } finally {
            taker.shutdown();
        }

        Duration hold = SHORT_WATCHDOG.multipliedBy(3);
        long start = System.nanoTime();
        assertThat(await(tryElsewhere("alive", hold))).as("another pod waiting 3x the watchdog timeout").isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(hold.minusMillis(50));
        assertThat(client.getKeys().remainTimeToLive(prefix + "alive")).isBetween(1L, SHORT_WATCHDOG.toMillis());

        lease.close(); // on this thread, neither the taker's nor the renewer's
        assertThat(client.getKeys().countExists(prefix + "alive")).isZero();
        assertThat(await(tryElsewhere("alive", Duration.ZERO))).isPresent();
    }

    @Test
    void manyLeasesOnOneClientAreRenewedTogether() throws Exception {
        RedissonMetatileLock holder = otherPod(SHORT_WATCHDOG);
        List<Lease> leases = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            leases.add(holder.tryLock("many/" + i, Duration.ZERO).orElseThrow());
        }

        Duration hold = SHORT_WATCHDOG.multipliedBy(2);
        assertThat(await(tryElsewhere("many/0", hold))).isEmpty();
        for (int i = 0; i < 20; i++) {
            assertThat(await(tryElsewhere("many/" + i, Duration.ZERO))).as("many/%d still held", i).isEmpty();
        }

        leases.forEach(Lease::close);
        for (int i = 0; i < 20; i++) {
            assertThat(await(tryElsewhere("many/" + i, Duration.ZERO))).as("many/%d released", i).isPresent();
        }
    }

    @Test
    void waitIsBoundedEvenWhenTheHolderIsAnotherPod() throws Exception {
        RedissonMetatileLock pod = otherPod(RedissonMetatileLock.DEFAULT_WATCHDOG_TIMEOUT);
        assertThat(pod.tryLock("bounded", Duration.ZERO)).isPresent();

        long start = System.nanoTime();
        assertThat(await(tryElsewhere("bounded", SHORT_WAIT))).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(SHORT_WAIT.plusSeconds(5));
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(
                SHORT_WAIT.toMillis() - 50);
    }
}
