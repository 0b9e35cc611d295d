package io.tileseeder.adapters.redis;

import static io.tileseeder.adapters.redis.RedisJobCodec.parse;
import static io.tileseeder.adapters.redis.RedisJobCodec.unconfirmed;

import io.tileseeder.adapters.memory.InMemoryJobStore;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.message.TaskResult;
import io.tileseeder.port.DependencyUnavailableException;
import io.tileseeder.port.JobStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.redisson.api.BatchOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RFuture;
import org.redisson.api.RScoredSortedSet;
import org.redisson.api.RSet;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Job records in Redis, shared by any number of coordinator replicas, on a standalone Redis, behind Sentinel or on
 * a Redis Cluster. Every change of a job is one Lua script on that job's keys ({@link RedisJobScripts}), so it is
 * atomic across replicas: a result's bit in the job's bitmap and the job's counters change together (a redelivered
 * result is counted once), and a job becomes final exactly once. The semantics are those of
 * {@link InMemoryJobStore}, except that a finished job is forgotten {@code retainFinished} after it finished rather
 * than beyond a count.
 *
 * <p>Keys: see {@link RedisJobKeys}. A job's keys share one hash slot, the indexes share another, so a job and the
 * indexes change in separate steps, each idempotent, in an order that leaves every crash between two steps
 * repairable:
 * <ul>
 *   <li><b>create</b>: reserve the idempotency key (for {@link #IDEMPOTENCY_RESERVATION}); write the job, with
 *       an expiry ({@link #UNCONFIRMED_TTL}) that marks it unconfirmed; confirm the idempotency key (a creator
 *       that lost its reservation meanwhile deletes its job and returns the one now holding the key); index the
 *       job; drop the expiry. An unconfirmed job nobody indexed expires; one indexed but still unconfirmed is
 *       confirmed by {@link #unfinished} or by the next lookup of its idempotency key.</li>
 *   <li><b>finish</b>: make the job final (compare-and-set, with its expiry); expire its idempotency key; move it
 *       from {@code unfinished} to the outbox, only if it is still in {@code unfinished}, so its event joins the
 *       outbox once. A final job still in {@code unfinished} is moved by {@link #unfinished}.</li>
 * </ul>
 * An index entry whose job expired (or was never written) is dropped when {@link #list} or {@link #unfinished}
 * meets it.
 *
 * <p>With {@code syncReplicas} above 0, every write waits (WAIT) until that many replicas have it, and a write
 * that does not reach them in time is reported as not done: a failover then cannot lose what a caller was told
 * is recorded (Redis replicates asynchronously; a master that fails before its replica has a write takes the
 * write with it). Every step is idempotent, so the caller repeats it.
 *
 * <p>Redis failing to answer — connection lost, timeout, a failover or cluster resharding in progress, a server
 * still loading its data — is thrown as {@link DependencyUnavailableException}; the caller tries again later.
 * Every step is safe to repeat. Bad data is an {@link IllegalStateException}.
 *
 * <p>Task numbers index a Redis bitmap, so they must be below 2<sup>32</sup>. The {@link RedissonClient}
 * belongs to the caller, who shuts it down.
 */
public final class RedisJobStore implements JobStore {

    /**
     * How long a job stays unconfirmed at most: a creator that crashed before indexing it leaves a job that
     * expires. Long beside the milliseconds creation takes, short beside the life of a leaked key.
     */
    static final Duration UNCONFIRMED_TTL = Duration.ofHours(1);

    /**
     * How long a creator holds an idempotency key before its job is confirmed. A second submission with the key
     * waits for the first at most this long; a creator that loses its reservation by pausing longer gives way.
     */
    static final Duration IDEMPOTENCY_RESERVATION = Duration.ofSeconds(30);

    private static final String RESERVED = "*";

    private final RedissonClient redisson;
    private final Clock clock;
    private final Duration retainFinished;
    private final RedisJobKeys keys;
    private final RedisJobScripts scripts;

    /** A store whose writes count once the master has them (no replica to wait for). */
    public RedisJobStore(RedissonClient redisson, String keyPrefix, Clock clock, Duration retainFinished) {
        this(redisson, keyPrefix, clock, retainFinished, 0);
    }

    /**
     * @param keyPrefix      prepended to every key, so several deployments can share one Redis; without braces, which would change the keys' hash slots
     * @param clock          the source of the start and finish times
     * @param retainFinished how long a final job stays readable
     * @param syncReplicas   replicas every write must reach before it counts (0: the master alone)
     * @throws DependencyUnavailableException if Redis cannot be reached to load the scripts
     */
    public RedisJobStore(RedissonClient redisson, String keyPrefix, Clock clock, Duration retainFinished,
                         int syncReplicas) {
        this.redisson = Objects.requireNonNull(redisson, "redisson");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.retainFinished = Objects.requireNonNull(retainFinished, "retainFinished");
        if (retainFinished.toMillis() <= 0) {
            throw new IllegalArgumentException("retainFinished must be at least 1 ms: " + retainFinished);
        }
        if (syncReplicas < 0) {
            throw new IllegalArgumentException("syncReplicas must not be negative: " + syncReplicas);
        }
        this.keys = RedisJobKeys.of(keyPrefix);
        this.scripts = new RedisJobScripts(redisson, keys, syncReplicas);
        guard(() -> {
            scripts.load();
            return null;
        });
    }

    @Override
    public JobStatus create(JobStatus job) {
        return guard(() -> job.idempotencyKey() == null ? write(job) : createOnce(job));
    }

    /** Creates the job unless another holds its idempotency key: then returns that one. */
    private JobStatus createOnce(JobStatus job) {
        String key = job.idempotencyKey();
        long deadline = System.nanoTime() + 2 * IDEMPOTENCY_RESERVATION.toNanos();
        String gone = "";
        long pause = 1;
        while (true) {
            String held = scripts.reserve(key, job.id(), IDEMPOTENCY_RESERVATION, gone);
            if (held == null) {
                List<Object> written = writeJob(job);
                if (scripts.confirmReservation(key, job.id())) {
                    return parse(index(written));
                }
                // Paused past the reservation: someone else may hold the key now; this job was never indexed.
                RedisJobKeys.Job lost = keys.job(job.id());
                redisson.getKeys().delete(lost.job(), lost.done(), lost.failures());
                gone = "";
            } else if (!held.startsWith(RESERVED)) {
                Optional<JobStatus> existing = findJob(held);
                if (existing.isPresent()) {
                    return existing.get();
                }
                gone = held;
            } else if (System.nanoTime() - deadline > 0) {
                throw new DependencyUnavailableException(RedisFailures.REDIS, "the idempotency key " + job.idempotencyKey()
                        + " stayed reserved by job " + held.substring(RESERVED.length()) + " for "
                        + IDEMPOTENCY_RESERVATION.multipliedBy(2).toSeconds() + " s", null);
            } else {
                // Another submission with this key is creating its job: wait for it, briefly.
                sleep(pause);
                pause = Math.min(100, pause * 2);
            }
        }
    }

    /** Writes, indexes and confirms a job without idempotency key. */
    private JobStatus write(JobStatus job) {
        return parse(index(writeJob(job)));
    }

    /** Writes the job, unconfirmed unless it is final; returns its snapshot. */
    private List<Object> writeJob(JobStatus job) {
        Duration expiry = job.state().isFinal() ? retainFinished : UNCONFIRMED_TTL;
        scripts.create(job.id(), expiry, RedisJobCodec.fields(job), job.failedTasks());
        return scripts.read(job.id());
    }

    /** Indexes a job and, unless final, confirms it; idempotent. Returns its snapshot after that. */
    private List<Object> index(List<Object> snapshot) {
        JobStatus job = parse(snapshot);
        scripts.index(job.id(), job.created(), job.state().isFinal());
        if (job.state().isFinal()) {
            return snapshot;
        }
        List<Object> confirmed = scripts.confirm(job.id());
        return confirmed == null ? snapshot : confirmed;
    }

    /** The job, confirmed first if a crash left it unconfirmed; empty if it does not exist. */
    private Optional<JobStatus> findJob(String id) {
        List<Object> snapshot = scripts.read(id);
        if (snapshot == null) {
            return Optional.empty();
        }
        return Optional.of(parse(unconfirmed(snapshot) ? index(snapshot) : snapshot));
    }

    @Override
    public Optional<JobStatus> get(String id) {
        return guard(() -> Optional.ofNullable(scripts.read(id)).map(RedisJobCodec::parse));
    }

    @Override
    public Optional<JobStatus> findByIdempotencyKey(String key) {
        return guard(() -> {
            String id = redisson.<String>getBucket(keys.idempotency(key), StringCodec.INSTANCE).get();
            return id == null || id.startsWith(RESERVED) ? Optional.<JobStatus>empty() : findJob(id);
        });
    }

    @Override
    public List<JobStatus> list(int limit) {
        return guard(() -> {
            RScoredSortedSet<String> jobs = redisson.getScoredSortedSet(keys.jobs(), StringCodec.INSTANCE);
            List<JobStatus> newestFirst = new ArrayList<>();
            List<String> expired = new ArrayList<>();
            int offset = 0;
            while (newestFirst.size() < limit) {
                List<String> ids = List.copyOf(jobs.valueRangeReversed(offset,
                        offset + limit - newestFirst.size() - 1));
                if (ids.isEmpty()) {
                    break;
                }
                offset += ids.size();
                List<List<Object>> found = scripts.readAll(ids);
                for (int i = 0; i < ids.size(); i++) {
                    if (found.get(i) != null) {
                        newestFirst.add(parse(found.get(i)));
                    } else {
                        expired.add(ids.get(i));
                    }
                }
            }
            if (!expired.isEmpty()) {
                jobs.removeAll(expired);
            }
            return newestFirst;
        });
    }

    @Override
    public Optional<JobStatus> start(String id) {
        List<Object> snapshot = guard(() -> scripts.start(id));
        if (snapshot == null) {
            throw new IllegalArgumentException("no job " + id);
        }
        return snapshot.isEmpty() ? Optional.empty() : Optional.of(parse(snapshot));
    }

    @Override
    public JobStatus planned(String id, long tasksPlanned, boolean planningDone) {
        List<Object> snapshot = guard(() -> scripts.planned(id, tasksPlanned, planningDone, clock.instant()));
        if (snapshot == null) {
            throw new IllegalArgumentException("no job " + id);
        }
        return parse(snapshot);
    }

    @Override
    public boolean record(TaskResult result) {
        long added = guard(() -> scripts.record(result.jobId(), List.of(result)));
        return added > 0;
    }

    /** One script per job in the batch, all sent in one round trip (on a cluster: one per node). */
    @Override
    public Set<String> recordAll(List<TaskResult> results) {
        Map<String, List<TaskResult>> byJob = new LinkedHashMap<>();
        results.forEach(result -> byJob.computeIfAbsent(result.jobId(), id -> new ArrayList<>()).add(result));
        return guard(() -> scripts.recordAll(byJob));
    }

    @Override
    public Optional<JobStatus> finish(String id, JobState state, String reason) {
        if (!state.isFinal()) {
            throw new IllegalArgumentException(state + " is not a final state");
        }
        Instant now = clock.instant();
        List<Object> snapshot = guard(() -> scripts.finish(id, state, now, retainFinished, reason));
        if (snapshot == null) {
            throw new IllegalArgumentException("no job " + id);
        }
        if (snapshot.isEmpty()) {
            return Optional.empty();
        }
        JobStatus finished = parse(snapshot);
        guard(() -> {
            toOutbox(finished);
            return null;
        });
        return Optional.of(finished);
    }

    /**
     * Written only if the job has no record (one script), then indexed as unfinished before it moves to the outbox,
     * so that a crash between the steps is repaired by {@link #unfinished}, as for {@link #finish}.
     */
    @Override
    public Optional<JobStatus> recordLost(JobStatus lastSeen, String reason) {
        JobStatus lost = lastSeen.lost(reason, clock.instant());
        return guard(() -> {
            if (!scripts.createAbsent(lost.id(), retainFinished, RedisJobCodec.fields(lost), lost.failedTasks())) {
                return Optional.<JobStatus>empty();
            }
            scripts.index(lost.id(), lost.created(), false);
            toOutbox(lost);
            return Optional.of(lost);
        });
    }

    /** The steps of finishing that follow the job's own: expire its idempotency key, put it in the outbox. */
    private void toOutbox(JobStatus job) {
        if (job.idempotencyKey() != null) {
            scripts.expireIdempotencyKey(job.idempotencyKey(), job.id(), retainFinished);
        }
        scripts.moveToOutbox(job.id(), job.finished());
    }

    /**
     * Also repairs what a crash between two steps left: a final job still here joins the outbox and leaves, an
     * unconfirmed one is confirmed, an id whose job is gone is dropped.
     */
    @Override
    public List<JobStatus> unfinished() {
        return guard(() -> {
            RSet<String> index = redisson.getSet(keys.unfinished(), StringCodec.INSTANCE);
            List<String> ids = List.copyOf(index.readAll());
            List<List<Object>> snapshots = scripts.readAll(ids);
            List<JobStatus> unfinished = new ArrayList<>();
            List<String> gone = new ArrayList<>();
            for (int i = 0; i < ids.size(); i++) {
                List<Object> snapshot = snapshots.get(i);
                if (snapshot == null) {
                    gone.add(ids.get(i));
                    continue;
                }
                JobStatus job = parse(snapshot);
                if (job.state().isFinal()) {
                    toOutbox(job);
                } else {
                    unfinished.add(unconfirmed(snapshot) ? parse(index(snapshot)) : job);
                }
            }
            if (!gone.isEmpty()) {
                index.removeAll(gone);
            }
            unfinished.sort(Comparator.comparing(JobStatus::created).thenComparing(JobStatus::id));
            return unfinished;
        });
    }

    /** One round trip (on a cluster: one per node): the state field of every job in the index; ids whose job expired are not counted. */
    @Override
    public Map<JobState, Long> countByState() {
        return guard(() -> {
            Collection<String> ids = redisson.<String>getScoredSortedSet(keys.jobs(), StringCodec.INSTANCE).readAll();
            RBatch batch = redisson.createBatch(BatchOptions.defaults());
            List<RFuture<String>> states = ids.stream()
                    .map(id -> batch.<String, String>getMap(keys.job(id).job(), StringCodec.INSTANCE).getAsync("state"))
                    .toList();
            batch.execute();
            Map<JobState, Long> counts = new EnumMap<>(JobState.class);
            for (RFuture<String> state : states) {
                String name = state.toCompletableFuture().join();
                if (name != null) {
                    counts.merge(JobState.valueOf(name), 1L, Long::sum);
                }
            }
            return counts;
        });
    }

    /**
     * One SCARD. A job leaves the set in the step after the one that makes it final, so a crash between the two
     * counts it until {@link #unfinished} repairs that.
     */
    @Override
    public long countUnfinished() {
        return guard(() -> (long) redisson.getSet(keys.unfinished(), StringCodec.INSTANCE).size());
    }

    @Override
    public List<String> pendingEvents() {
        return guard(() -> List.copyOf(redisson.<String>getScoredSortedSet(keys.outbox(), StringCodec.INSTANCE).readAll()));
    }

    @Override
    public void eventSent(String id) {
        guard(() -> redisson.getScoredSortedSet(keys.outbox(), StringCodec.INSTANCE).remove(id));
    }

    /** Runs {@code call}, throwing what says Redis cannot serve now as {@link DependencyUnavailableException}. */
    private static <R> R guard(Supplier<R> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            throw RedisFailures.classify(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a job with the same idempotency key", e);
        }
    }
}
