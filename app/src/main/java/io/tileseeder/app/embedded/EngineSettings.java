package io.tileseeder.app.embedded;

import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.adapters.s3.S3Location;
import io.tileseeder.adapters.s3.S3Options;
import io.tileseeder.adapters.s3.S3TileStore;
import io.tileseeder.job.JobLimits;
import io.tileseeder.port.TileStore;
import io.tileseeder.worker.task.LayerResources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * Everything the embedded engine is sized by. {@link #defaults(Path)} sizes it to the machine.
 *
 * @param store           where tiles go: a folder, or {@code s3://bucket/prefix}
 * @param s3              how to reach the S3 endpoint, for an {@code s3://} store
 * @param layersFile      the layer configuration; the bundled {@code world} catalogue if empty
 * @param workerThreads   metatiles rendered and encoded at once (default 2 × cores: map rendering peaks
 *                        between 2× and 4× cores)
 * @param ioThreads       metatiles being stored at once (I/O-bound, so more than the cores)
 * @param queueCapacity   metatile tasks the planner may get ahead of the workers
 * @param maxDeliveries   deliveries of a failing task before it is recorded FAILED
 * @param lockWait        how long a worker waits for a metatile lock before releasing the task
 * @param maxRunningJobs  jobs planned or running at once; more are refused
 * @param maxWaiters      clients blocked in the wait long-poll at once; more are refused
 * @param retainJobs      finished jobs remembered for status queries
 * @param outageBudget    how long a dependency may be unreachable before whoever waits for it gives up
 * @param wmsRequestsPerUpstream requests in flight to one upstream WMS from this process (pod), all layers and
 *                        threads together
 * @param drainTimeout    on shutdown, how long the workers may finish the metatiles they hold before the rest are
 *                        interrupted and given back
 */
public record EngineSettings(String store, Optional<S3Connection> s3, Optional<Path> layersFile,
                             int workerThreads, int ioThreads,
                             int queueCapacity, int maxDeliveries, Duration lockWait, JobLimits limits,
                             int maxRunningJobs, int maxWaiters, int retainJobs, Duration outageBudget,
                             int wmsRequestsPerUpstream, Duration drainTimeout) {

    public EngineSettings {
        if (store == null || store.isBlank()) {
            throw new IllegalArgumentException("the store must be a folder or s3://bucket/prefix");
        }
        positive("workerThreads", workerThreads);
        positive("ioThreads", ioThreads);
        positive("queueCapacity", queueCapacity);
        positive("maxDeliveries", maxDeliveries);
        positive("maxRunningJobs", maxRunningJobs);
        positive("maxWaiters", maxWaiters);
        positive("retainJobs", retainJobs);
        positive("wmsRequestsPerUpstream", wmsRequestsPerUpstream);
        if (drainTimeout == null || drainTimeout.isNegative()) {
            throw new IllegalArgumentException("drainTimeout must be zero or more, got " + drainTimeout);
        }
    }

    /** An S3 endpoint and its credentials. */
    public record S3Connection(String endpoint, String accessKey, String secretKey, String region) {

        @Override
        public String toString() {
            return "S3Connection[" + endpoint + ", " + region + "]";
        }
    }

    public static EngineSettings defaults(String store) {
        int cores = Runtime.getRuntime().availableProcessors();
        return new EngineSettings(store, Optional.empty(), Optional.empty(), 2 * cores, Math.max(8, 4 * cores), 1024, 5,
                Duration.ofSeconds(1), new JobLimits(100_000_000L, 32), 4, 256, 1000, Duration.ofMinutes(10),
                LayerResources.DEFAULT_WMS_REQUESTS_PER_UPSTREAM, Duration.ofSeconds(60));
    }

    public EngineSettings withStore(String where) {
        return new EngineSettings(where, s3, layersFile, workerThreads, ioThreads, queueCapacity, maxDeliveries, lockWait,
                limits, maxRunningJobs, maxWaiters, retainJobs, outageBudget,
                wmsRequestsPerUpstream, drainTimeout);
    }

    public EngineSettings withS3(Optional<S3Connection> connection) {
        return new EngineSettings(store, connection, layersFile, workerThreads, ioThreads, queueCapacity, maxDeliveries,
                lockWait, limits, maxRunningJobs, maxWaiters, retainJobs, outageBudget,
                wmsRequestsPerUpstream, drainTimeout);
    }

    public EngineSettings withWorkerThreads(int threads) {
        return new EngineSettings(store, s3, layersFile, threads, ioThreads, queueCapacity, maxDeliveries, lockWait,
                limits, maxRunningJobs, maxWaiters, retainJobs, outageBudget,
                wmsRequestsPerUpstream, drainTimeout);
    }

    public EngineSettings withLayersFile(Optional<Path> file) {
        return new EngineSettings(store, s3, file, workerThreads, ioThreads, queueCapacity, maxDeliveries, lockWait,
                limits, maxRunningJobs, maxWaiters, retainJobs, outageBudget,
                wmsRequestsPerUpstream, drainTimeout);
    }

    /**
     * Opens the store: a folder, or an S3 bucket for a store given as {@code s3://bucket/prefix}. A folder is created
     * when missing and tried with a file of its own, so that one that cannot take tiles is named, with the reason,
     * before any job starts.
     *
     * @throws UncheckedIOException saying why tiles cannot be written to the folder
     */
    public TileStore openStore() {
        if (!store.startsWith("s3://")) {
            Path folder = Path.of(store);
            try {
                Files.createDirectories(folder);
                FileTileStore tiles = new FileTileStore(folder);
                tiles.probe();
                return tiles;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write tiles to " + folder.toAbsolutePath() + ": " + reason(e),
                        e);
            }
        }
        S3Location location = S3Location.parse(store);
        S3Connection connection = s3.orElseThrow(() -> new IllegalArgumentException(
                "the store " + store + " needs an S3 endpoint: set seeder.s3.endpoint, "
                        + "seeder.s3.access-key and seeder.s3.secret-key (SEEDER_S3_ENDPOINT, ...)"));
        try {
            return new S3TileStore(connection.endpoint(), connection.accessKey(), connection.secretKey(),
                    connection.region(), location, S3Options.defaults());
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    /** What the operating system said, in its own few words ("Permission denied", "Read-only file system"). */
    private static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "a file is in the way of a folder";
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason().toLowerCase(Locale.ROOT);
        }
        return e instanceof NoSuchFileException ? "no such file or directory" : String.valueOf(e.getMessage());
    }

    private static void positive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, got " + value);
        }
    }
}
