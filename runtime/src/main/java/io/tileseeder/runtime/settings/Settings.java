package io.tileseeder.runtime.settings;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.tileseeder.adapters.azure.AzureConnection;
import io.tileseeder.adapters.gcs.GcsConnection;
import io.tileseeder.job.JobLimits;
import io.tileseeder.job.Timeouts;
import io.tileseeder.layer.LayerCatalogConfig;
import io.tileseeder.layer.LayerCatalogFile;
import io.tileseeder.port.Layout;
import io.tileseeder.runtime.SeederConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A process's settings, mapped once from {@link SeederConfig} (whose {@code @WithDefault}s are the only defaults)
 * into one small record per role. The defaults that depend on the machine, the thread counts, are worked out
 * here and nowhere else.
 *
 * @param store        where tiles go
 * @param layersFile   the layer configuration; the bundled {@code world} catalogue if empty
 * @param jobs         the job lifecycle's bounds
 * @param workers      the metatile pipeline's bounds
 * @param outageBudget how long a dependency may be unreachable before whoever waits for it gives up
 */
public record Settings(StoreSettings store, Optional<Path> layersFile, JobSettings jobs,
                       WorkerSettings workers, Duration outageBudget) {

    /**
     * Where tiles go: a folder, a file, or a bucket of a cloud ({@code s3://}, {@code az://}, {@code gs://}) reached
     * through {@code clouds}.
     *
     * @param publicUrl where clients read the store's root, if not at the store's own URL (see the TileStore port):
     *                  of whichever store the process writes to, the configured path or the one the command line
     *                  names instead ({@code --out}, {@code --store})
     * @param layout    how a folder or an object store names the tiles
     */
    public record StoreSettings(String path, Clouds clouds, Optional<String> publicUrl, Layout layout) {
        public StoreSettings {
            if (path == null || path.isBlank()) {
                throw new IllegalArgumentException("the store must be a folder, a file or a bucket "
                        + "(s3://, az://, gs://)");
            }
            Objects.requireNonNull(clouds, "clouds");
            publicUrl = publicUrl.map(StoreSettings::checkedUrl);
            Objects.requireNonNull(layout, "layout");
        }

        /** A store in the xyz layout, at its own URL, reaching S3 only. */
        public StoreSettings(String path, Optional<S3Connection> s3) {
            this(path, new Clouds(s3, Optional.empty(), Optional.empty()), Optional.empty(), Layout.XYZ);
        }

        /** The S3 endpoint, if one is set. */
        public Optional<S3Connection> s3() {
            return clouds.s3();
        }

        /** These settings with the tiles named in {@code value}. */
        public StoreSettings withLayout(Layout value) {
            return new StoreSettings(path, clouds, publicUrl, value);
        }

        /** An absolute http, https or file URL, without a trailing slash. */
        private static String checkedUrl(String url) {
            String trimmed = url.strip().replaceAll("/+$", "");
            try {
                java.net.URI uri = new java.net.URI(trimmed);
                if (uri.getScheme() != null && uri.getScheme().matches("https?|file") && uri.getQuery() == null
                        && uri.getFragment() == null && (uri.getHost() != null || "file".equals(uri.getScheme()))) {
                    return trimmed;
                }
            } catch (java.net.URISyntaxException e) {
                // refused below, with the setting named
            }
            throw new IllegalArgumentException("seeder.store.public-url must be an absolute http, https or file URL "
                    + "without query or fragment, e.g. https://tiles.example.com/cache; got '" + url + "'");
        }
    }

    /** How to reach each cloud whose settings are given: S3, Azure Blob Storage, Google Cloud Storage. */
    public record Clouds(Optional<S3Connection> s3, Optional<AzureConnection> azure, Optional<GcsConnection> gcs) {
    }

    /** An S3 endpoint and its credentials. */
    public record S3Connection(String endpoint, String accessKey, String secretKey, String region) {

        @Override
        public String toString() {
            return "S3Connection[" + endpoint + ", " + region + "]";
        }
    }

    /**
     * @param limits         what one job may ask for
     * @param maxRunningJobs jobs planned or running at once; more are queued
     * @param maxQueuedJobs  jobs waiting for a running place; more are refused
     * @param maxWaiters     clients blocked in the wait long-poll at once; more are refused
     * @param retainJobs     finished jobs remembered for status queries (in memory)
     * @param queueCapacity  metatile tasks the planner may get ahead of the workers (per job, on Kafka)
     * @param queueLead      how much work, at the measured rate, the queue holds ahead of the workers
     * @param dryRunSamples  metatiles a dry run renders for its estimate
     */
    public record JobSettings(JobLimits limits, int maxRunningJobs, int maxQueuedJobs, int maxWaiters,
                              int retainJobs, int queueCapacity, Duration queueLead, int dryRunSamples) {
    }

    /**
     * @param threads         metatiles rendered and encoded at once
     * @param storeThreads    metatiles being stored at once (I/O-bound, so more than the cores)
     * @param maxDeliveries   deliveries of a failing task before it is recorded FAILED
     * @param lockWait        how long one try for a busy metatile lock waits; the task is kept and tried again
     * @param drainTimeout    on shutdown, how long the workers may finish the metatiles they hold
     * @param wmsRequestsPerUpstream requests in flight to one upstream WMS from this process
     * @param wmsClusterRequestsPerUpstream requests in flight to one upstream WMS from all processes of the cluster
     * @param wmsAdaptive whether each process looks for the upstream's best concurrency below those limits
     */
    public record WorkerSettings(int threads, int storeThreads, int maxDeliveries, Duration lockWait,
                                 Duration drainTimeout, int wmsRequestsPerUpstream, int wmsClusterRequestsPerUpstream,
                                 boolean wmsAdaptive) {
    }

    /** The layer catalogue: the file of {@link #layersFile}, or the bundled one. */
    public LayerCatalogConfig layers() {
        return layersFile.map(LayerCatalogFile::read).orElseGet(LayerCatalogFile::bundled);
    }

    /** The cores this JVM sees, which the thread counts are sized by. */
    public static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    /**
     * Metatiles rendered at once, and Kafka share consumers per worker, unless configured: 2 × cores, as the
     * throughput of map rendering peaks between 2× and 4× cores.
     */
    public static int defaultThreads() {
        return 2 * cores();
    }

    /** Metatiles being stored at once unless configured: stores wait on the network, so more than the cores. */
    public static int defaultStoreThreads() {
        return Math.max(8, 4 * cores());
    }

    /**
     * Maps the configuration, filling in the machine-sized defaults; a value out of its range is refused with its
     * key named.
     */
    public static Settings from(SeederConfig config) {
        SeederConfig.S3 s3 = config.s3();
        Optional<S3Connection> connection = s3.endpoint().map(endpoint -> new S3Connection(endpoint,
                s3.accessKey().orElse(""), s3.secretKey().orElse(""), s3.region()));
        SeederConfig.Azure azure = config.azure();
        Optional<AzureConnection> azureConnection = azure.connectionString().isPresent() || azure.endpoint().isPresent()
                ? Optional.of(new AzureConnection(azure.connectionString(), azure.endpoint(), azure.accountName(),
                        azure.accountKey(), azure.sasToken()))
                : Optional.empty();
        SeederConfig.Gcs gcs = config.gcs();
        GcsConnection gcsConnection = new GcsConnection(gcs.endpoint(), gcs.credentialsFile().map(Path::of),
                gcs.project());
        SeederConfig.Limits limits = config.limits();
        SeederConfig.Workers workers = config.workers();
        JobLimits jobLimits = new JobLimits(within(1, Integer.MAX_VALUE, "seeder.limits.max-tiles-per-job",
                        limits.maxTilesPerJob()),
                atLeast(0, "seeder.limits.max-labels", limits.maxLabels()),
                atLeast(4, "seeder.limits.max-coverage-vertices", limits.maxCoverageVertices()),
                atLeast(1, "seeder.limits.max-list-tiles", limits.maxListTiles()),
                atLeast(1, "seeder.limits.max-combinations", limits.maxCombinations()));
        Layout layout;
        try {
            layout = Layout.parse(config.store().layout());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("seeder.store.layout: " + e.getMessage(), e);
        }
        return new Settings(new StoreSettings(config.store().path(), new Clouds(connection, azureConnection,
                        Optional.of(gcsConnection)), config.store().publicUrl(), layout),
                config.layers().file().map(Path::of),
                new JobSettings(jobLimits,
                        atLeast(1, "seeder.limits.max-running-jobs", limits.maxRunningJobs()),
                        atLeast(0, "seeder.limits.max-queued-jobs", limits.maxQueuedJobs()),
                        atLeast(1, "seeder.limits.max-waiters", limits.maxWaiters()),
                        atLeast(1, "seeder.limits.retain-jobs", limits.retainJobs()),
                        atLeast(1, "seeder.workers.queue-capacity", workers.queueCapacity()),
                        atLeast(Duration.ZERO, "seeder.workers.queue-lead", workers.queueLead()),
                        atLeast(0, "seeder.limits.dry-run-samples", limits.dryRunSamples())),
                new WorkerSettings(atLeast(1, "seeder.workers.threads", workers.threads().orElse(defaultThreads())),
                        atLeast(1, "seeder.store.io-threads", config.store().ioThreads().orElse(defaultStoreThreads())),
                        atLeast(1, "seeder.workers.max-deliveries", workers.maxDeliveries()),
                        atLeast(Duration.ofMillis(1), "seeder.workers.lock-wait", workers.lockWait()),
                        atLeast(Duration.ZERO, "seeder.workers.drain-timeout", workers.drainTimeout()),
                        atLeast(1, "seeder.wms.max-requests-per-upstream", config.wms().maxRequestsPerUpstream()),
                        atLeast(1, "seeder.wms.cluster-requests-per-upstream",
                                config.wms().clusterRequestsPerUpstream()), config.wms().adaptive()),
                atLeast(Duration.ofSeconds(1), "seeder.outage-budget", config.outageBudget()));
    }

    /** {@code value}, the setting {@code key}'s, if it is at least {@code min}. */
    public static int atLeast(int min, String key, int value) {
        return (int) within(min, Integer.MAX_VALUE, key, value);
    }

    /** {@code value}, the setting {@code key}'s, if it is from {@code min} to {@code max}. */
    public static long within(long min, long max, String key, long value) {
        if (value < min) {
            throw new IllegalArgumentException(key + " must be at least " + min + ", not " + value);
        }
        if (value > max) {
            throw new IllegalArgumentException(key + " must be at most " + max + ", not " + value);
        }
        return value;
    }

    /** {@code value}, the setting {@code key}'s, if it is at least {@code min}. */
    public static Duration atLeast(Duration min, String key, Duration value) {
        if (value.compareTo(min) < 0) {
            throw new IllegalArgumentException(key + " must be at least " + Timeouts.format(min) + ", not "
                    + Timeouts.format(value));
        }
        return value;
    }

    /**
     * The configuration outside Quarkus (benchmarks): {@code overrides} over environment variables
     * ({@code SEEDER_STORE_PATH}, ...) and system properties over the {@code @WithDefault}s.
     */
    public static SeederConfig config(Map<String, String> overrides) {
        return build(new SmallRyeConfigBuilder().addDefaultSources(), overrides);
    }

    /** {@code values} over the {@code @WithDefault}s, without the environment: what tests read settings from. */
    public static SeederConfig declared(Map<String, String> values) {
        return build(new SmallRyeConfigBuilder(), values);
    }

    /** The {@code @WithDefault}s alone, with tiles going to {@code store}: what tests start engines with. */
    public static Settings defaults(StoreSettings store) {
        Settings defaults = from(declared(Map.of()));
        return new Settings(store, defaults.layersFile, defaults.jobs, defaults.workers, defaults.outageBudget);
    }

    /** The {@code @WithDefault}s alone, with tiles going to the folder {@code store}. */
    public static Settings defaults(String store) {
        return defaults(new StoreSettings(store, Optional.empty()));
    }

    /** Reads durations as Quarkus does ({@code 15s}, {@code 10m}), not only in ISO-8601 ({@code PT15S}). */
    private static SeederConfig build(SmallRyeConfigBuilder builder, Map<String, String> overrides) {
        SmallRyeConfig config = builder.withSources(new PropertiesConfigSource(overrides, "overrides", 1000))
                .withConverter(Duration.class, 200, new DurationConverter()).withMapping(SeederConfig.class).build();
        return config.getConfigMapping(SeederConfig.class);
    }

    /**
     * These settings with tiles going to {@code path}, through the same clouds' settings, read at the same public URL, in
     * the same layout.
     */
    public Settings storedAt(String path) {
        return new Settings(new StoreSettings(path, store.clouds(), store.publicUrl(), store.layout()), layersFile, jobs,
                workers, outageBudget);
    }

}
