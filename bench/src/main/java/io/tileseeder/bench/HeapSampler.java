package io.tileseeder.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The most heap retained after a garbage collection during a run (the live set), sampled every 20 ms:
 * what the run needs, as opposed to heap in use, which includes garbage and so tracks the heap cap.
 */
final class HeapSampler implements AutoCloseable {
    private final List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null).toList();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "bench-heap-sampler");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicLong peak = new AtomicLong();

    HeapSampler() {
        timer.scheduleAtFixedRate(() -> peak.accumulateAndGet(
                pools.stream().mapToLong(pool -> pool.getCollectionUsage().getUsed()).sum(), Math::max),
                0, 20, TimeUnit.MILLISECONDS);
    }

    long peakMb() {
        return peak.get() >> 20;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}

