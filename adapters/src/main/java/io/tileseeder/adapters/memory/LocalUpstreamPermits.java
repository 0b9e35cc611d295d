package io.tileseeder.adapters.memory;

import io.tileseeder.port.UpstreamPermits;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * Upstream permits within one process, where the process is the whole cluster (the embedded mode): one fair
 * semaphore per upstream and limit, and the holds an upstream asked for. Leases need no end here: a process that dies
 * takes its requests with it.
 */
public final class LocalUpstreamPermits implements UpstreamPermits {

    private final Map<String, Semaphore> semaphores = new ConcurrentHashMap<>();
    private final Map<String, Instant> holds = new ConcurrentHashMap<>();

    @Override
    public Permit acquire(String upstream, int limit, Duration lease) throws InterruptedException {
        if (limit < 1) {
            throw new IllegalArgumentException("an upstream limit must be at least 1, not " + limit);
        }
        Instant held = holds.get(upstream);
        while (held != null && held.isAfter(Instant.now())) {
            Thread.sleep(Duration.between(Instant.now(), held).plusMillis(1));
            held = holds.get(upstream);
        }
        Semaphore semaphore = semaphores.computeIfAbsent(upstream + "/" + limit, key -> new Semaphore(limit, true));
        semaphore.acquire();
        return semaphore::release;
    }

    @Override
    public void holdOff(String upstream, Instant until) {
        holds.merge(upstream, until, (earlier, later) -> earlier.isAfter(later) ? earlier : later);
    }
}
