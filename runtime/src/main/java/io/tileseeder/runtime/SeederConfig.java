package io.tileseeder.runtime;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.tileseeder.adapters.redis.RedisTopology;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The coordinator's settings, {@code seeder.*} in application.properties or {@code SEEDER_*} environment
 * variables (e.g. {@code SEEDER_STORE_PATH}).
 */
@ConfigMapping(prefix = "seeder")
public interface SeederConfig {

    /**
     * {@code embedded}: coordinator and workers in this JVM, job records in memory. {@code distributed}:
     * {@code seeder serve} is a coordinator and {@code seeder worker} a worker, over Kafka, Redis and the store.
     */
    @WithDefault("embedded")
    Mode mode();

    /** How this process runs: the value of {@code seeder.mode}. */
    enum Mode {
        /** Coordinator and workers in this JVM, with the in-memory queue and locks. */
        EMBEDDED,
        /** Coordinators and workers in their own processes, over Kafka, Redis and the store. */
        DISTRIBUTED
    }

    /** Where tiles are written. */
    Store store();

    /** Kafka: the task, result and event topics (distributed mode). */
    Kafka kafka();

    /** Redis: job records, progress, the job gate and the metatile locks (distributed mode). */
    Redis redis();

    /** The layer catalogue. */
    Layers layers();

    /** Upstream WMS sources. */
    Wms wms();

    /** The metatile pipeline of this process (embedded engine or {@code seeder worker}). */
    Workers workers();

    /** The S3 endpoint of an {@code s3://} store. */
    S3 s3();

    /** The Azure Storage account of an {@code az://} store. */
    Azure azure();

    /** Google Cloud Storage, for a {@code gs://} store. */
    Gcs gcs();

    /** What jobs and clients may ask of the coordinator. */
    Limits limits();

    /** Reseed jobs from the tile-expiry topic (distributed mode). */
    Expiry expiry();

    /** Who may call the API. */
    Auth auth();

    /**
     * How long a dependency (Redis, Kafka, the store, an upstream WMS) may be unreachable before whoever waits
     * for it gives up: a task then counts a failed try, a planner fails its job. Shorter outages are waited out.
     */
    @WithDefault("10m")
    Duration outageBudget();

    /** Who may call the API. */
    interface Auth {
        /**
         * The API's bearer tokens, one {@code NAME ROLE TOKEN} a line (see "Access" in the manual). When set, every
         * API call needs a token; unset, the embedded API is open and the distributed coordinator refuses to start.
         */
        Optional<String> tokensFile();
    }

    interface Store {
        /**
         * Where tiles go: a folder, {@code s3://bucket/prefix} (then see {@code seeder.s3.*}),
         * {@code az://container/prefix} (Azure Blob Storage, {@code seeder.azure.*}), {@code gs://bucket/prefix}
         * (Google Cloud Storage, {@code seeder.gcs.*}), or, in the embedded
         * mode, an MBTiles file ({@code *.mbtiles}: one layer in WebMercatorQuad and one format) or a GeoPackage
         * ({@code *.gpkg}: a tile pyramid per layer and quad set).
         */
        @WithDefault("tiles")
        String path();

        /** Metatiles being stored at once. Default: max(8, 4 × cores). */
        OptionalInt ioThreads();

        /**
         * Where clients read the store's root (a CDN, the bucket's website), for the tile URLs of the TileJSON and
         * the WMTS capabilities written beside the tiles: of the store the process writes to, this path's or the one
         * the command line names instead ({@code --out}, {@code --store}). Default: the store's own, a folder's {@code file:}
         * URL or the S3 endpoint's path-style URL of the bucket and prefix.
         */
        Optional<String> publicUrl();

        /**
         * How a folder or an object store names the tiles below it: {@code xyz} ({layer}/{tileMatrixSet}/{z}/{x}/{y},
         * row 0 at the top), {@code tms} (the same with row 0 at the bottom, as TMS and gdal2tiles count),
         * {@code wmts} ({layer}/default/{tileMatrixSet}/{z}/{y}/{x}, WMTS's RESTful order, as TileCloud-chain writes)
         * or {@code quadkey} (Bing's keys, all in the cache's folder, as MapProxy's quadkey layout; quad sets from one
         * tile at zoom 0 only). MBTiles and GeoPackage files have their own.
         */
        @WithDefault("xyz")
        String layout();
    }

    /** Kafka, for the distributed mode. */
    interface Kafka {
        /** e.g. {@code 127.0.0.1:9092}. */
        Optional<String> bootstrap();

        /** Metatile tasks, from the planner to the workers' share group. */
        @WithDefault("seeder.tasks")
        String tasksTopic();

        /** Task results, from the workers to the coordinators (after the tiles are stored). */
        @WithDefault("seeder.task-results")
        String resultsTopic();

        /** Final job events (CloudEvents), for pipelines that wait on jobs. */
        @WithDefault("seeder.job-events")
        String eventsTopic();

        /** Tile-expiry events from data pipelines, which the coordinators turn into reseed jobs (see {@code seeder.expiry.*}). */
        @WithDefault("seeder.tile-expiry")
        String expiryTopic();

        /** Partitions of the topics this application creates (existing topics are left as they are). */
        @WithDefault("12")
        int partitions();

        /** The workers' share group on the tasks topic. */
        @WithDefault("seeder-workers")
        String workerGroup();

        /** The coordinators' consumer group on the results topic. */
        @WithDefault("seeder-coordinator")
        String coordinatorGroup();

        /** Share consumers per worker process (each holds at most 16 tasks). Default: 2 × cores. */
        OptionalInt consumers();

        /** How long start-up waits for Kafka, Redis and the store to answer before it gives up. */
        @WithDefault("15s")
        Duration connectTimeout();

        /**
         * How soon a dead worker's tasks go to the others: the workers' share group's session timeout, set on the
         * group at start-up with a heartbeat of a quarter of it. The brokers must allow it
         * ({@code group.share.min.session.timeout.ms}, 45 s by default); if they refuse, the group keeps theirs.
         */
        @WithDefault("8s")
        Duration sessionTimeout();
    }

    /** Redis, for the distributed mode: job records, progress and the metatile locks. */
    interface Redis {
        /**
         * {@code standalone}: one server at {@code url}. {@code sentinel}: a master and replicas, found through the
         * sentinels at {@code url} under {@code master-name}; follows a failover. {@code cluster}: a Redis Cluster,
         * found through the nodes at {@code url}.
         */
        @WithDefault("standalone")
        RedisTopology.Mode mode();

        /**
         * {@code redis://[[user]:password@]host[:port][/database]} ({@code rediss://} for TLS), e.g.
         * {@code redis://127.0.0.1:6379}; for {@code sentinel} the sentinels' and for {@code cluster} some nodes'
         * URLs, separated by commas. The credentials are the Redis servers' (Sentinel: the sentinels' too).
         */
        Optional<String> url();

        /** The name under which the sentinels watch the master ({@code sentinel} mode only). */
        Optional<String> masterName();

        /**
         * Replicas every write of a job record must reach (Redis WAIT) before it counts; a write that does not
         * within 2 s is tried again later. 0 trusts the master alone: a failover may then lose the last writes
         * the master had not yet passed on. With Sentinel or a Cluster whose masters have replicas, set 1.
         */
        @WithDefault("0")
        int syncReplicas();

        /** Prefix of every key, so several deployments can share one Redis. */
        @WithDefault("seeder:")
        String keyPrefix();

        /** How long finished jobs stay queryable. */
        @WithDefault("168h")
        Duration retainFinished();
    }

    /** The S3 endpoint for an {@code s3://} store (MinIO, or any S3-compatible service). */
    interface S3 {
        /** e.g. {@code http://127.0.0.1:9000}. */
        Optional<String> endpoint();

        /** The access key (MinIO: the user). */
        Optional<String> accessKey();

        /** The secret key (MinIO: the password). */
        Optional<String> secretKey();

        /** The S3 region requests are signed for. */
        @WithDefault("us-east-1")
        String region();
    }

    /**
     * The Azure Storage account of an {@code az://} store: a connection string, or the blob endpoint with the
     * account's name and key or with a SAS token. None of them is ever logged.
     */
    interface Azure {
        /**
         * The account's connection string, as the portal and Azurite give it
         * ({@code DefaultEndpointsProtocol=https;AccountName=...;AccountKey=...;EndpointSuffix=core.windows.net}).
         */
        Optional<String> connectionString();

        /** The blob endpoint, e.g. {@code https://ACCOUNT.blob.core.windows.net}, when there is no connection string. */
        Optional<String> endpoint();

        /** The account's name, with {@code account-key}. */
        Optional<String> accountName();

        /** One of the account's access keys. */
        Optional<String> accountKey();

        /** A shared access signature with read, write, delete and list rights on the container. */
        Optional<String> sasToken();
    }

    /**
     * Google Cloud Storage for a {@code gs://} store: by default the Application Default Credentials (the pod's
     * service account on GKE, or {@code GOOGLE_APPLICATION_CREDENTIALS}).
     */
    interface Gcs {
        /** An emulator's address, e.g. {@code http://127.0.0.1:4443} (fake-gcs-server): then no credentials are sent. */
        Optional<String> endpoint();

        /** A service account's JSON key file, instead of the Application Default Credentials. */
        Optional<String> credentialsFile();

        /** The project a missing bucket is created in; by default the credentials' own. */
        Optional<String> project();
    }

    /** Upstream WMSes of {@code wms} layers. */
    interface Wms {
        /**
         * Requests in flight to one upstream (host and port) at once from this process: per pod, shared by all
         * its threads and layers. All a pod sends when it cannot reach Redis, where the cluster's limit is kept.
         */
        @WithDefault("4")
        int maxRequestsPerUpstream();

        /**
         * Requests in flight to one upstream (host and port) at once from all worker pods together, kept in Redis
         * with leased permits (see "One limit across the cluster" in the manual's Layers page); in the embedded mode,
         * from this process (with the per-pod limit, the smaller holds).
         */
        @WithDefault("16")
        int clusterRequestsPerUpstream();

        /**
         * Whether each worker looks for the concurrency an upstream serves best, below the two limits: a window that
         * grows while the upstream's latency stays near its floor and shrinks when requests queue or fail. Off, a
         * worker always sends as many as the per-pod limit allows.
         */
        @WithDefault("true")
        boolean adaptive();
    }

    interface Layers {
        /** The layer configuration file (YAML); the bundled {@code world} layer if unset. */
        Optional<String> file();
    }

    interface Workers {
        /** Metatiles rendered at once. Default: 2 × cores. */
        OptionalInt threads();

        /**
         * Deliveries of a task before it is recorded FAILED. Every delivery counts, one given back by a worker that
         * stopped or died too; Kafka's own delivery limit never drops a task (one delivered again is produced anew,
         * its count carried along).
         */
        @WithDefault("5")
        int maxDeliveries();

        /**
         * How long one try for a busy metatile lock waits (at least 1ms); the worker keeps the task, renewed, and
         * tries again until the lock is free.
         */
        @WithDefault("1s")
        Duration lockWait();

        /**
         * Metatile tasks the planner may queue ahead of the workers: the in-memory queue's size, and in the
         * distributed mode the most tasks of one job on Kafka without a result yet.
         */
        @WithDefault("1024")
        int queueCapacity();

        /**
         * How much work the queue holds ahead of the workers, at the rate results come in: about how long a task
         * waits to be taken, so how long a job of higher priority waits for the backlog of the others. Split evenly
         * among the jobs of the highest priority; each gets at least 64 tasks and at most {@code queue-capacity}.
         */
        @WithDefault("2s")
        Duration queueLead();

        /**
         * On shutdown, how long a worker finishes the metatiles it holds (rendering and storing them, and
         * reporting their results) after it stopped taking tasks; then the rest are interrupted and given back.
         */
        @WithDefault("60s")
        Duration drainTimeout();
    }

    interface Limits {
        /** The most tiles one job may cover; a larger job is refused with its count. */
        @WithDefault("100000000")
        long maxTilesPerJob();

        /** Jobs planned or running at once; more wait in the queue, highest priority first. */
        @WithDefault("4")
        int maxRunningJobs();

        /** Jobs waiting for one of the running places (state QUEUED); more are refused with 429. */
        @WithDefault("100")
        int maxQueuedJobs();

        /**
         * Metatiles a dry run renders for its estimate, besides the one each zoom level gets at least; one dry run
         * runs at a time.
         */
        @WithDefault("256")
        int dryRunSamples();

        /** Labels per job. */
        @WithDefault("32")
        int maxLabels();

        /**
         * Vertices of a job's coverage. A job keeps its area with its record, read at each look at the job: this
         * keeps a record to a few megabytes (the request body limit, {@code quarkus.http.limits.max-body-size}, must
         * let such a coverage through).
         */
        @WithDefault("100000")
        int maxCoverageVertices();

        /** Distinct tiles of a job's tile list, for the same reason. */
        @WithDefault("100000")
        int maxListTiles();

        /**
         * Caches one job may seed on a layer with dimensions: the product of the numbers of values it names of each
         * dimension.
         */
        @WithDefault("1000")
        int maxCombinations();

        /** Clients waiting in {@code /wait} at once; more are refused with 429. */
        @WithDefault("256")
        int maxWaiters();

        /** The longest {@code timeout} a {@code /wait} call may ask for. */
        @WithDefault("15m")
        Duration maxWait();

        /** Finished jobs remembered for status queries. */
        @WithDefault("1000")
        int retainJobs();
    }

    /** Reseed jobs from the tile-expiry topic ({@code seeder.kafka.expiry-topic}), in the distributed mode. */
    interface Expiry {
        /** Whether the coordinators read the topic. */
        @WithDefault("true")
        boolean enabled();

        /** How long events of one layer are merged before their reseed job is submitted, from the first. */
        @WithDefault("60s")
        Duration window();

        /** Batches of events merging at once (per layer, matrix set, format and zoom levels); more submit early. */
        @WithDefault("64")
        int maxBatches();

        /** The reseed jobs' priority: above the default 0, so a data change passes a backfill. */
        @WithDefault("10")
        int priority();
    }
}
