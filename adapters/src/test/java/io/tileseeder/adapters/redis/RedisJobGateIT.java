package io.tileseeder.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.adapters.JobGateContract;
import io.tileseeder.job.JobStatus;
import io.tileseeder.port.JobGate;
import io.tileseeder.port.JobStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/**
 * {@link RedisJobGate} against the real Redis of {@code dev/services}: the contract, then what only a gate shared
 * by processes has to do — a pass held by a process that stopped renewing it (a worker that died) expires.
 */
class RedisJobGateIT extends JobGateContract {

    private static RedissonClient client;
    private String prefix;
    private final List<RedisJobGate> gates = new ArrayList<>();

    @BeforeAll
    static void connect() {
        String url = System.getenv("SEEDER_REDIS_URL");
        assertThat(url).as("SEEDER_REDIS_URL (run dev/services up and source .dev/services.env)").isNotBlank();
        client = RedissonMetatileLock.connect(url);
    }

    @AfterAll
    static void disconnect() {
        if (client != null) {
            client.shutdown();
        }
    }

    @Override
    protected JobStore newJobs() {
        prefix = "seeder-it:gate:" + UUID.randomUUID() + ":";
        return new RedisJobStore(client, prefix, Clock.systemUTC(), Duration.ofHours(1));
    }

    @Override
    protected JobGate newGate(JobStore jobs) {
        return gate(RedisJobGate.DEFAULT_LEASE);
    }

    private RedisJobGate gate(Duration lease) {
        RedisJobGate gate = new RedisJobGate(client, prefix, lease);
        gates.add(gate);
        return gate;
    }

    @AfterEach
    void cleanUp() {
        gates.forEach(RedisJobGate::close);
        client.getKeys().deleteByPattern(prefix + "*");
    }

    @Test
    void aPassThatIsRenewedOutlivesItsLeaseAndOneThatIsNotExpires() throws Exception {
        JobStatus job = running();
        // Long enough that a renewal held up by a busy machine (two cores, other builds) stays within its lease.
        Duration lease = Duration.ofSeconds(2);
        RedisJobGate living = gate(lease);
        RedisJobGate dying = gate(lease);
        JobGate.Pass kept = living.enter(job.id()).orElseThrow();
        dying.enter(job.id()).orElseThrow();
        dying.close(); // stops renewing, as a worker that died would

        // A pass counts until a lease past its expiry, two leases after its last renewal at most.
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (living.passesOpen(job.id()) > 1 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(living.passesOpen(job.id())).as("the unrenewed pass expired, the renewed one stays").isEqualTo(1);
        Thread.sleep(lease.multipliedBy(3).toMillis()); // three more leases: the renewed pass must still be there
        assertThat(living.passesOpen(job.id())).isEqualTo(1);
        kept.close();
        assertThat(living.passesOpen(job.id())).isZero();
    }
}
