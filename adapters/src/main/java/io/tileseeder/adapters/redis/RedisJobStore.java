package io.tileseeder.adapters.redis;

import static java.util.stream.Collectors.joining;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tileseeder.adapters.memory.InMemoryJobStore;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.message.Messages;
import io.tileseeder.message.TaskResult;
import io.tileseeder.message.TileCounts;
import io.tileseeder.port.DependencyUnavailableException;
import io.tileseeder.port.JobStore;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.redisson.api.BatchOptions;
import org.redisson.api.BatchResult;
import org.redisson.api.RBatch;
import org.redisson.api.RFuture;
import org.redisson.api.RScoredSortedSet;
import org.redisson.api.RScript;
import org.redisson.api.RScript.Mode;
import org.redisson.api.RScript.ReturnType;
import org.redisson.api.RScriptAsync;
import org.redisson.api.RSet;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisNoScriptException;
import org.redisson.client.codec.StringCodec;

/**
 * Job records in Redis, shared by any number of coordinator replicas, on a standalone Redis, behind Sentinel or on
 * a Redis Cluster. Every change of a job is one Lua script on that job's keys, so it is atomic across replicas: a
 * result's bit in the job's bitmap and the job's counters change together (a redelivered result is counted
 * once), and a job becomes final exactly once. The semantics are those of {@link InMemoryJobStore}, except that a
 * finished job is forgotten {@code retainFinished} after it finished rather than beyond a count.
 *
 * <p>Keys, with {@code P} the key prefix. A Lua script on a Redis Cluster may only touch keys of one hash slot, so
 * the braces make hash tags: one job's keys share a slot, the indexes share another.
 * <ul>
 *   <li>{@code P job:{id}}: hash of the job's fields; the spec as JSON, instants as ISO-8601;</li>
 *   <li>{@code P job:{id}:done}: bitmap of the task numbers with a recorded result (deleted when final);</li>
 *   <li>{@code P job:{id}:failures}: hash task number → reason, at most
 *       {@link InMemoryJobStore#MAX_FAILURES_KEPT} (the count {@code tasksFailed} is exact);</li>
 *   <li>{@code P {index}:jobs}: sorted set of job ids by creation time, for {@link #list};</li>
 *   <li>{@code P {index}:unfinished}: set of the ids of jobs not final yet, or final with their event not yet in
 *       the outbox;</li>
 *   <li>{@code P {index}:outbox}: sorted set of final jobs whose event is not acknowledged, by finish time;</li>
 *   <li>{@code P idem:<key>}: the id of the job submitted with that idempotency key; {@code *<id>} while that
 *       job is being created.</li>
 * </ul>
 *
 * <p>So a job and the indexes change in separate steps, each idempotent, in an order that leaves every crash
 * between two steps repairable:
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

    public static final String DEFAULT_KEY_PREFIX = "seeder:";

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

    private static final ObjectMapper JSON = Messages.configure(new ObjectMapper());
    private static final long MAX_SEQ = (1L << 32) - 1;
    private static final String RESERVED = "*";
    /** How long a write waits for its replicas. */
    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(2);

    /** Helpers every script starts with; {@code FINAL} comes from {@link JobState#isFinal}. */
    private static final String PRELUDE = """
            local FINAL = {%s}
            -- {job key, fields, failures, remaining ms to live (-1: none)} of a job, or nil when it does not exist
            local function snapshot(job, failures)
              local fields = redis.call('HGETALL', job)
              if #fields == 0 then return false end
              return {job, fields, redis.call('HGETALL', failures), redis.call('PTTL', job)}
            end
            """.formatted(Arrays.stream(JobState.values()).filter(JobState::isFinal)
                    .map(state -> state.name() + " = true").collect(joining(", ")));

    /** KEYS: job, failures. */
    private static final String GET = """
            return snapshot(KEYS[1], KEYS[2])
            """;

    /**
     * KEYS: job, done, failures. ARGV: expiry in ms, number of field arguments, fields and values, then failure
     * task numbers and reasons. Writes the job afresh, expiring.
     */
    private static final String CREATE = """
            redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
            local fieldsEnd = 2 + tonumber(ARGV[2])
            redis.call('HSET', KEYS[1], unpack(ARGV, 3, fieldsEnd))
            redis.call('PEXPIRE', KEYS[1], ARGV[1])
            if #ARGV > fieldsEnd then
              redis.call('HSET', KEYS[3], unpack(ARGV, fieldsEnd + 1))
              redis.call('PEXPIRE', KEYS[3], ARGV[1])
            end
            return true
            """;

    /** KEYS: job, failures. Drops the expiry of a job that is not final (a final one keeps its retention). */
    private static final String CONFIRM = """
            local state = redis.call('HGET', KEYS[1], 'state')
            if state and not FINAL[state] then redis.call('PERSIST', KEYS[1]); redis.call('PERSIST', KEYS[2]) end
            return snapshot(KEYS[1], KEYS[2])
            """;

    /** KEYS: jobs, unfinished. ARGV: id, creation score, final (1|0). */
    private static final String INDEX = """
            redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
            if ARGV[3] == '0' then redis.call('SADD', KEYS[2], ARGV[1]) end
            return true
            """;

    /**
     * KEYS: idempotency key. ARGV: id, reservation in ms, the id of a job found gone. Reserves the key for the
     * job unless it holds another value than that: returns nil when reserved, else the value it holds.
     */
    private static final String RESERVE = """
            local held = redis.call('GET', KEYS[1])
            if held and held ~= ARGV[3] then return held end
            redis.call('SET', KEYS[1], '*' .. ARGV[1], 'PX', ARGV[2])
            return false
            """;

    /** KEYS: idempotency key. ARGV: id. Makes the reservation permanent; 0 if the job no longer holds it. */
    private static final String CONFIRM_KEY = """
            if redis.call('GET', KEYS[1]) ~= '*' .. ARGV[1] then return 0 end
            redis.call('SET', KEYS[1], ARGV[1])
            return 1
            """;

    /** KEYS: idempotency key. ARGV: id, expiry in ms. Expires the key if it names the job. */
    private static final String EXPIRE_KEY = """
            if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
            return true
            """;

    /** KEYS: job, failures. ARGV: tasks planned, planning done (1|0), now. Returns the snapshot, nil if unknown. */
    private static final String PLANNED = """
            local state = redis.call('HGET', KEYS[1], 'state')
            if not state then return false end
            -- Both only move forward: a planner that lost its lock must not move the cursor back.
            if tonumber(ARGV[1]) > tonumber(redis.call('HGET', KEYS[1], 'tasksPlanned') or '0') then
              redis.call('HSET', KEYS[1], 'tasksPlanned', ARGV[1])
            end
            if ARGV[2] == '1' then redis.call('HSET', KEYS[1], 'planningDone', '1') end
            if state == 'PLANNING' then redis.call('HSET', KEYS[1], 'state', 'RUNNING') end
            redis.call('HSETNX', KEYS[1], 'started', ARGV[3])
            return snapshot(KEYS[1], KEYS[2])
            """;

    /**
     * KEYS: job, done, failures. ARGV: failures to keep, then per result: task number, succeeded (1|0), written,
     * empty, skipped, deleted, failed, bytes, error. Returns how many results were new.
     */
    private static final String RECORD = """
            local state = redis.call('HGET', KEYS[1], 'state')
            if not state or FINAL[state] then return 0 end
            local COUNTS = {'written', 'empty', 'skipped', 'deleted', 'failed', 'bytes'}
            local sums = {0, 0, 0, 0, 0, 0}
            local new, failed = 0, 0
            local cap = tonumber(ARGV[1])
            local kept = redis.call('HLEN', KEYS[3])
            for i = 2, #ARGV, 9 do
              if redis.call('SETBIT', KEYS[2], ARGV[i], 1) == 0 then
                new = new + 1
                for c = 1, 6 do sums[c] = sums[c] + tonumber(ARGV[i + 1 + c]) end
                if ARGV[i + 1] == '0' then
                  failed = failed + 1
                  if kept < cap then
                    redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 8])
                    kept = kept + 1
                  end
                end
              end
            end
            -- '%d' because Redis may write a large Lua number in exponent notation, which HINCRBY refuses
            if new > 0 then
              redis.call('HINCRBY', KEYS[1], 'tasksDone', string.format('%d', new))
              redis.call('HINCRBY', KEYS[1], 'tasksFailed', string.format('%d', failed))
              for c = 1, 6 do redis.call('HINCRBY', KEYS[1], COUNTS[c], string.format('%d', sums[c])) end
            end
            return new
            """;

    /**
     * KEYS: job, done, failures. ARGV: state, finished, retention in ms[, reason]. Returns nil for an unknown
     * job, an empty list if it was final already, else the final snapshot.
     */
    private static final String FINISH = """
            local state = redis.call('HGET', KEYS[1], 'state')
            if not state then return false end
            if FINAL[state] then return {} end
            redis.call('HSET', KEYS[1], 'state', ARGV[1], 'finished', ARGV[2])
            if ARGV[4] then redis.call('HSET', KEYS[1], 'reason', ARGV[4]) else redis.call('HDEL', KEYS[1], 'reason') end
            redis.call('DEL', KEYS[2])
            redis.call('PEXPIRE', KEYS[1], ARGV[3])
            redis.call('PEXPIRE', KEYS[3], ARGV[3])
            return snapshot(KEYS[1], KEYS[3])
            """;

    /** KEYS: unfinished, outbox. ARGV: id, finish score. The job's event joins the outbox once. */
    private static final String TO_OUTBOX = """
            if redis.call('SREM', KEYS[1], ARGV[1]) == 1 then redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1]) end
            return true
            """;

    private final RedissonClient redisson;
    private final Clock clock;
    private final Duration retainFinished;
    private final int syncReplicas;
    private final String jobKeyPrefix;
    private final String idempotencyKeyPrefix;
    private final String jobsKey;
    private final String unfinishedKey;
    private final String outboxKey;
    private final Script readJob;
    private final Script createJob;
    private final Script confirmJob;
    private final Script indexJob;
    private final Script reserveKey;
    private final Script confirmKey;
    private final Script expireKey;
    private final Script planJob;
    private final Script recordResults;
    private final Script finishJob;
    private final Script toOutbox;
    private final List<Script> scripts;

    /** A store whose writes count once the master has them (no replica to wait for). */
    public RedisJobStore(RedissonClient redisson, String keyPrefix, Clock clock, Duration retainFinished) {
        this(redisson, keyPrefix, clock, retainFinished, 0);
    }

    /**
     * @param keyPrefix      prepended to every key, {@link #DEFAULT_KEY_PREFIX} unless several deployments share
     *                       one Redis; without braces, which would change the keys' hash slots
     * @param clock          the source of the start and finish times
     * @param retainFinished how long a final job stays readable
     * @param syncReplicas   replicas every write must reach before it counts (0: the master alone)
     * @throws DependencyUnavailableException if Redis cannot be reached to load the scripts
     */
    public RedisJobStore(RedissonClient redisson, String keyPrefix, Clock clock, Duration retainFinished,
                         int syncReplicas) {
        this.redisson = Objects.requireNonNull(redisson, "redisson");
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.retainFinished = Objects.requireNonNull(retainFinished, "retainFinished");
        if (retainFinished.toMillis() <= 0) {
            throw new IllegalArgumentException("retainFinished must be at least 1 ms: " + retainFinished);
        }
        if (syncReplicas < 0) {
            throw new IllegalArgumentException("syncReplicas must not be negative: " + syncReplicas);
        }
        this.syncReplicas = syncReplicas;
        if (keyPrefix.contains("{") || keyPrefix.contains("}")) {
            throw new IllegalArgumentException("the key prefix must not contain braces (hash tags): " + keyPrefix);
        }
        jobKeyPrefix = keyPrefix + "job:{";
        idempotencyKeyPrefix = keyPrefix + "idem:";
        jobsKey = keyPrefix + "{index}:jobs";
        unfinishedKey = keyPrefix + "{index}:unfinished";
        outboxKey = keyPrefix + "{index}:outbox";
        readJob = new Script(PRELUDE + GET, false);
        createJob = new Script(PRELUDE + CREATE, true);
        confirmJob = new Script(PRELUDE + CONFIRM, true);
        indexJob = new Script(INDEX, true);
        reserveKey = new Script(RESERVE, true);
        confirmKey = new Script(CONFIRM_KEY, true);
        expireKey = new Script(EXPIRE_KEY, true);
        planJob = new Script(PRELUDE + PLANNED, true);
        recordResults = new Script(PRELUDE + RECORD, true);
        finishJob = new Script(PRELUDE + FINISH, true);
        toOutbox = new Script(TO_OUTBOX, true);
        scripts = List.of(readJob, createJob, confirmJob, indexJob, reserveKey, confirmKey, expireKey, planJob,
                recordResults, finishJob, toOutbox);
        guard(() -> {
            loadScripts();
            return null;
        });
    }

    @Override
    public JobStatus create(JobStatus job) {
        return guard(() -> job.idempotencyKey() == null ? write(job) : createOnce(job));
    }

    /** Creates the job unless another holds its idempotency key: then returns that one. */
    private JobStatus createOnce(JobStatus job) {
        String key = idempotencyKey(job.idempotencyKey());
        long deadline = System.nanoTime() + 2 * IDEMPOTENCY_RESERVATION.toNanos();
        String gone = "";
        long pause = 1;
        while (true) {
            String held = eval(reserveKey, ReturnType.VALUE, List.of(key), job.id(),
                    IDEMPOTENCY_RESERVATION.toMillis(), gone);
            if (held == null) {
                List<Object> written = writeJob(job);
                long confirmed = eval(confirmKey, ReturnType.LONG, List.of(key), job.id());
                if (confirmed == 1) {
                    return parse(index(written));
                }
                // Paused past the reservation: someone else may hold the key now; this job was never indexed.
                redisson.getKeys().delete(keys(job.id()).job(), keys(job.id()).done(), keys(job.id()).failures());
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
        JobKeys keys = keys(job.id());
        List<String> fields = fields(job);
        Duration expiry = job.state().isFinal() ? retainFinished : UNCONFIRMED_TTL;
        List<Object> args = new ArrayList<>(List.of(expiry.toMillis(), fields.size()));
        args.addAll(fields);
        job.failedTasks().forEach((seq, reason) -> {
            args.add(seq);
            args.add(reason);
        });
        eval(createJob, ReturnType.BOOLEAN, keys.all(), args.toArray());
        return eval(readJob, ReturnType.LIST, keys.hashes());
    }

    /** Indexes a job and, unless final, confirms it; idempotent. Returns its snapshot after that. */
    private List<Object> index(List<Object> snapshot) {
        JobStatus job = parse(snapshot);
        eval(indexJob, ReturnType.BOOLEAN, List.of(jobsKey, unfinishedKey), job.id(), job.created().toEpochMilli(),
                job.state().isFinal() ? 1 : 0);
        if (job.state().isFinal()) {
            return snapshot;
        }
        List<Object> confirmed = eval(confirmJob, ReturnType.LIST, keys(job.id()).hashes());
        return confirmed == null ? snapshot : confirmed;
    }

    /** The job, confirmed first if a crash left it unconfirmed; empty if it does not exist. */
    private Optional<JobStatus> findJob(String id) {
        List<Object> snapshot = eval(readJob, ReturnType.LIST, keys(id).hashes());
        if (snapshot == null) {
            return Optional.empty();
        }
        return Optional.of(parse(unconfirmed(snapshot) ? index(snapshot) : snapshot));
    }

    @Override
    public Optional<JobStatus> get(String id) {
        return guard(() -> Optional.ofNullable(this.<List<Object>>eval(readJob, ReturnType.LIST, keys(id).hashes()))
                .map(RedisJobStore::parse));
    }

    @Override
    public Optional<JobStatus> findByIdempotencyKey(String key) {
        return guard(() -> {
            String id = redisson.<String>getBucket(idempotencyKey(key), StringCodec.INSTANCE).get();
            return id == null || id.startsWith(RESERVED) ? Optional.<JobStatus>empty() : findJob(id);
        });
    }

    @Override
    public List<JobStatus> list(int limit) {
        return guard(() -> {
            RScoredSortedSet<String> jobs = redisson.getScoredSortedSet(jobsKey, StringCodec.INSTANCE);
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
                List<List<Object>> found = getAll(ids);
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
    public JobStatus planned(String id, long tasksPlanned, boolean planningDone) {
        List<Object> snapshot = guard(() -> eval(planJob, ReturnType.LIST, keys(id).hashes(),
                tasksPlanned, planningDone ? 1 : 0, clock.instant()));
        if (snapshot == null) {
            throw new IllegalArgumentException("no job " + id);
        }
        return parse(snapshot);
    }

    @Override
    public boolean record(TaskResult result) {
        Object[] args = recordArgs(List.of(result));
        long added = guard(() -> eval(recordResults, ReturnType.LONG, keys(result.jobId()).all(), args));
        return added > 0;
    }

    /** One script per job in the batch, all sent in one round trip (on a cluster: one per node). */
    @Override
    public Set<String> recordAll(List<TaskResult> results) {
        Map<String, List<TaskResult>> byJob = new LinkedHashMap<>();
        results.forEach(result -> byJob.computeIfAbsent(result.jobId(), id -> new ArrayList<>()).add(result));
        Map<String, Object[]> args = new LinkedHashMap<>();
        byJob.forEach((id, jobResults) -> args.put(id, recordArgs(jobResults)));
        return guard(() -> withScripts(() -> {
            RBatch batch = redisson.createBatch(writeOptions());
            RScriptAsync scripts = batch.getScript(StringCodec.INSTANCE);
            Map<String, RFuture<Long>> added = new LinkedHashMap<>();
            args.forEach((id, jobArgs) -> added.put(id, scripts.evalShaAsync(Mode.READ_WRITE, recordResults.sha(),
                    ReturnType.LONG, keys(id).all(), jobArgs)));
            synced(batch.execute());
            Set<String> changed = new LinkedHashSet<>();
            added.forEach((id, count) -> {
                if (count.toCompletableFuture().join() > 0) {
                    changed.add(id);
                }
            });
            return changed;
        }));
    }

    @Override
    public Optional<JobStatus> finish(String id, JobState state, String reason) {
        if (!state.isFinal()) {
            throw new IllegalArgumentException(state + " is not a final state");
        }
        Instant now = clock.instant();
        List<Object> args = new ArrayList<>(List.of(state.name(), now, retainFinished.toMillis()));
        if (reason != null) {
            args.add(reason);
        }
        List<Object> snapshot = guard(() -> eval(finishJob, ReturnType.LIST, keys(id).all(), args.toArray()));
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

    /** The steps of finishing that follow the job's own: expire its idempotency key, put it in the outbox. */
    private void toOutbox(JobStatus job) {
        if (job.idempotencyKey() != null) {
            eval(expireKey, ReturnType.BOOLEAN, List.of(idempotencyKey(job.idempotencyKey())), job.id(),
                    retainFinished.toMillis());
        }
        eval(toOutbox, ReturnType.BOOLEAN, List.of(unfinishedKey, outboxKey), job.id(),
                job.finished().toEpochMilli());
    }

    /**
     * Also repairs what a crash between two steps left: a final job still here joins the outbox and leaves, an
     * unconfirmed one is confirmed, an id whose job is gone is dropped.
     */
    @Override
    public List<JobStatus> unfinished() {
        return guard(() -> {
            RSet<String> index = redisson.getSet(unfinishedKey, StringCodec.INSTANCE);
            List<String> ids = List.copyOf(index.readAll());
            List<List<Object>> snapshots = getAll(ids);
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
            Collection<String> ids = redisson.<String>getScoredSortedSet(jobsKey, StringCodec.INSTANCE).readAll();
            RBatch batch = redisson.createBatch(BatchOptions.defaults());
            List<RFuture<String>> states = ids.stream()
                    .map(id -> batch.<String, String>getMap(keys(id).job(), StringCodec.INSTANCE).getAsync("state"))
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
        return guard(() -> (long) redisson.getSet(unfinishedKey, StringCodec.INSTANCE).size());
    }

    @Override
    public List<String> pendingEvents() {
        return guard(() -> List.copyOf(redisson.<String>getScoredSortedSet(outboxKey, StringCodec.INSTANCE).readAll()));
    }

    @Override
    public void eventSent(String id) {
        guard(() -> redisson.getScoredSortedSet(outboxKey, StringCodec.INSTANCE).remove(id));
    }

    /** The snapshots of the jobs with these ids, in their order, in one round trip; null where a job does not exist. */
    private List<List<Object>> getAll(List<String> ids) {
        return withScripts(() -> {
            RBatch batch = redisson.createBatch(BatchOptions.defaults());
            RScriptAsync scripts = batch.getScript(StringCodec.INSTANCE);
            List<RFuture<List<Object>>> snapshots = ids.stream().map(id -> scripts.<List<Object>>evalShaAsync(
                    Mode.READ_WRITE, readJob.sha(), ReturnType.LIST, keys(id).hashes())).toList();
            batch.execute();
            return snapshots.stream().map(snapshot -> snapshot.toCompletableFuture().join()).toList();
        });
    }

    /** Whether a snapshot is of a job not final yet whose creation was not confirmed (it still expires). */
    private static boolean unconfirmed(List<Object> snapshot) {
        return ((Number) snapshot.get(3)).longValue() >= 0 && !parse(snapshot).state().isFinal();
    }

    /**
     * Runs a script; one that writes waits for the replicas when it has to. Reads run as READ_WRITE too, so they
     * go to the master and see every write already acknowledged.
     */
    private <R> R eval(Script script, ReturnType type, List<Object> keys, Object... args) {
        if (!script.writes() || syncReplicas == 0) {
            return withScripts(() -> redisson.getScript(StringCodec.INSTANCE)
                    .evalSha(Mode.READ_WRITE, script.sha(), type, keys, args));
        }
        return withScripts(() -> {
            RBatch batch = redisson.createBatch(writeOptions());
            RFuture<R> result = batch.getScript(StringCodec.INSTANCE)
                    .evalShaAsync(Mode.READ_WRITE, script.sha(), type, keys, args);
            synced(batch.execute());
            return result.toCompletableFuture().join();
        });
    }

    private BatchOptions writeOptions() {
        return syncReplicas == 0 ? BatchOptions.defaults() : BatchOptions.defaults().sync(syncReplicas, SYNC_TIMEOUT);
    }

    /** Throws unless the batch's writes reached the replicas they must. */
    private void synced(BatchResult<?> result) {
        if (result.getSyncedSlaves() < syncReplicas) {
            throw new DependencyUnavailableException(RedisFailures.REDIS, "a write reached " + result.getSyncedSlaves() + " of the "
                    + syncReplicas + " replicas it must within " + SYNC_TIMEOUT.toMillis() + " ms (failover, or a replica "
                    + "down?)", null);
        }
    }

    /** Runs {@code call}, once more after loading the scripts again if Redis lost them (restart, failover, SCRIPT FLUSH). */
    private <R> R withScripts(Supplier<R> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            if (!lostScripts(e)) {
                throw e;
            }
            // Safe to repeat, even after a batch ran in part: a result already recorded is not counted again.
            loadScripts();
            return call.get();
        }
    }

    private static boolean lostScripts(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof RedisNoScriptException) {
                return true;
            }
        }
        return false;
    }

    /** Loads the scripts (on a cluster: into every master). */
    private void loadScripts() {
        RScript loader = redisson.getScript(StringCodec.INSTANCE);
        for (Script script : scripts) {
            String sha = loader.scriptLoad(script.text());
            if (!sha.equals(script.sha())) {
                throw new IllegalStateException("Redis named a script " + sha + ", not its SHA-1 " + script.sha());
            }
        }
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

    private static Object[] recordArgs(List<TaskResult> results) {
        Object[] args = new Object[1 + 9 * results.size()];
        args[0] = InMemoryJobStore.MAX_FAILURES_KEPT;
        int i = 1;
        for (TaskResult result : results) {
            if (result.seq() < 0 || result.seq() > MAX_SEQ) {
                throw new IllegalArgumentException("task number out of the bitmap's range: " + result.seq());
            }
            TileCounts counts = result.counts();
            args[i++] = result.seq();
            args[i++] = result.succeeded() ? 1 : 0;
            args[i++] = counts.written();
            args[i++] = counts.empty();
            args[i++] = counts.skipped();
            args[i++] = counts.deleted();
            args[i++] = counts.failed();
            args[i++] = counts.bytes();
            args[i++] = result.error() == null ? "" : result.error();
        }
        return args;
    }

    /** The job's hash as field, value, field, value…; null fields are left out. */
    private static List<String> fields(JobStatus job) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("id", job.id());
        try {
            fields.put("spec", JSON.writeValueAsString(job.spec()));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write the spec of job " + job.id() + " as JSON", e);
        }
        fields.put("state", job.state());
        fields.put("created", job.created());
        fields.put("started", job.started());
        fields.put("finished", job.finished());
        fields.put("tasksPlanned", job.tasksPlanned());
        fields.put("planningDone", job.planningDone() ? 1 : 0);
        fields.put("tasksDone", job.tasksDone());
        fields.put("tasksFailed", job.tasksFailed());
        fields.put("tilesPlanned", job.tilesPlanned());
        fields.put("written", job.counts().written());
        fields.put("empty", job.counts().empty());
        fields.put("skipped", job.counts().skipped());
        fields.put("deleted", job.counts().deleted());
        fields.put("failed", job.counts().failed());
        fields.put("bytes", job.counts().bytes());
        fields.put("reason", job.reason());
        fields.put("idempotencyKey", job.idempotencyKey());
        List<String> pairs = new ArrayList<>();
        fields.forEach((field, value) -> {
            if (value != null) {
                pairs.add(field);
                pairs.add(value.toString());
            }
        });
        return pairs;
    }

    /** A job from the snapshot a script returned: {job key, fields, failures, remaining ms to live}. */
    private static JobStatus parse(List<Object> snapshot) {
        String key = (String) snapshot.get(0);
        try {
            Map<String, String> f = pairs(snapshot.get(1));
            Map<Long, String> failures = new HashMap<>();
            pairs(snapshot.get(2)).forEach((seq, reason) -> failures.put(Long.parseLong(seq), reason));
            return new JobStatus(required(f, "id"), JSON.readValue(required(f, "spec"), JobSpec.class),
                    JobState.valueOf(required(f, "state")), Instant.parse(required(f, "created")),
                    instant(f.get("started")), instant(f.get("finished")), number(f, "tasksPlanned"),
                    "1".equals(required(f, "planningDone")), number(f, "tasksDone"), number(f, "tasksFailed"),
                    number(f, "tilesPlanned"),
                    new TileCounts(number(f, "written"), number(f, "empty"), number(f, "skipped"),
                            number(f, "deleted"), number(f, "failed"), number(f, "bytes")),
                    failures, f.get("reason"), f.get("idempotencyKey"));
        } catch (RuntimeException | JsonProcessingException e) {
            throw new IllegalStateException("bad job data in Redis key " + key + ": " + e.getMessage(), e);
        }
    }

    private static Map<String, String> pairs(Object flat) {
        List<?> list = (List<?>) flat;
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i + 1 < list.size(); i += 2) {
            map.put((String) list.get(i), (String) list.get(i + 1));
        }
        return map;
    }

    private static String required(Map<String, String> fields, String name) {
        String value = fields.get(name);
        if (value == null) {
            throw new IllegalStateException("no field " + name);
        }
        return value;
    }

    private static long number(Map<String, String> fields, String name) {
        return Long.parseLong(required(fields, name));
    }

    private static Instant instant(String iso) {
        return iso == null ? null : Instant.parse(iso);
    }

    private JobKeys keys(String id) {
        String job = jobKeyPrefix + id + "}";
        return new JobKeys(job, job + ":done", job + ":failures");
    }

    private String idempotencyKey(String key) {
        return idempotencyKeyPrefix + key;
    }

    private record JobKeys(String job, String done, String failures) {

        List<Object> hashes() {
            return List.of(job, failures);
        }

        List<Object> all() {
            return List.of(job, done, failures);
        }
    }

    /**
     * A Lua script and its SHA-1, by which it runs, so its text crosses the network only to load it; and whether
     * it writes.
     */
    private record Script(String text, String sha, boolean writes) {

        Script(String text, boolean writes) {
            this(text, sha1(text), writes);
        }

        private static String sha1(String text) {
            try {
                return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                        .digest(text.getBytes(StandardCharsets.UTF_8)));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("the JDK has no SHA-1", e);
            }
        }
    }
}
