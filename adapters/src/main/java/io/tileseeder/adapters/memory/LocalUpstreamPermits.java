package io.tileseeder.adapters.memory;

import io.tileseeder.port.UpstreamPermits;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * Upstream permits within one process, where the process is the whole cluster (the embedded mode): one fair
 * semaphore per upstream and limit, and the holds an upstream asked for. Leases need no end here: a process that dies
 * takes its requests with it.
 */
public final class LocalUpstreamPermits implements UpstreamPermits {

    private final Map<String, Semaphore> semaphores = new ConcurrentHashMap<>();
    private final Map<String, Hold> holds = new ConcurrentHashMap<>();

    @Override
    public Permit acquire(String upstream, int limit, Duration lease) throws InterruptedException {
        if (limit < 1) {
            throw new IllegalArgumentException("an upstream limit must be at least 1, not " + limit);
        }
        for (Optional<Hold> held = hold(upstream); held.isPresent(); held = hold(upstream)) {
            Thread.sleep(Duration.between(Instant.now(), held.get().until()).plusMillis(1));
        }
        Semaphore semaphore = semaphores.computeIfAbsent(upstream + "/" + limit, key -> new Semaphore(limit, true));
        semaphore.acquire();
        return semaphore::release;
    }

    @Override
    public void holdOff(String upstream, Instant until, String reason) {
        Instant now = Instant.now();
        holds.merge(upstream, new Hold(until, now, reason), (earlier, later) -> !earlier.until().isAfter(now) ? later
                : new Hold(earlier.until().isAfter(later.until()) ? earlier.until() : later.until(), earlier.since(),
                later.reason()));
    }

    @Override
    public Optional<Hold> hold(String upstream) {
        return Optional.ofNullable(holds.get(upstream)).filter(held -> held.until().isAfter(Instant.now()));
    }
}
