package io.tileseeder.coordinator.job;

import static java.util.stream.Collectors.joining;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tileseeder.coordinator.embedded.InMemoryJobStore;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.message.Messages;
import io.tileseeder.message.TaskResult;
import io.tileseeder.message.TileCounts;
import io.tileseeder.port.JobStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
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
import org.redisson.api.RScript;
import org.redisson.api.RScript.Mode;
import org.redisson.api.RScript.ReturnType;
import org.redisson.api.RScriptAsync;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisNoScriptException;
import org.redisson.client.codec.StringCodec;

/**
 * Job records in Redis, shared by any number of coordinator replicas. Every method that changes a job is one
 * Lua script, so it is atomic across replicas: a result's bit in the job's bitmap and the job's counters change
 * together (a redelivered result is counted once), and a job becomes final exactly once, joining the outbox in
 * the same step. The semantics are those of {@link InMemoryJobStore}, except that a finished job is forgotten
 * {@code retainFinished} after it finished rather than beyond a count.
 *
 * <p>Keys, with {@code P} the key prefix; the braces around a job's id are a hash tag, so one job's keys share
 * a slot:
 * <ul>
 *   <li>{@code P job:{id}}: hash of the job's fields; the spec as JSON, instants as ISO-8601;</li>
 *   <li>{@code P job:{id}:done}: bitmap of the task numbers with a recorded result (deleted when final);</li>
 *   <li>{@code P job:{id}:failures}: hash task number → reason, at most
 *       {@link InMemoryJobStore#MAX_FAILURES_KEPT} (the count {@code tasksFailed} is exact);</li>
 *   <li>{@code P jobs}: sorted set of job ids by creation time, for {@link #list};</li>
 *   <li>{@code P unfinished}: set of the ids of jobs not final yet;</li>
 *   <li>{@code P outbox}: sorted set of final jobs whose event is not acknowledged, by finish time;</li>
 *   <li>{@code P idem:<key>}: the id of the job submitted with that idempotency key.</li>
 * </ul>
 * A final job's keys and its idempotency key expire {@code retainFinished} after it finished; the entries of
 * the global sets that then point nowhere are dropped lazily.
 *
 * <p>Task numbers index a Redis bitmap, so they must be below 2<sup>32</sup>. The {@link RedissonClient}
 * belongs to the caller, who shuts it down.
 */
public final class RedisJobStore implements JobStore {

    public static final String DEFAULT_KEY_PREFIX = "seeder:";

    private static final ObjectMapper JSON = Messages.configure(new ObjectMapper());
    private static final long MAX_SEQ = (1L << 32) - 1;

    /** Helpers every script starts with; {@code FINAL} comes from {@link JobState#isFinal}. */
    private static final String PRELUDE = """
            local FINAL = {%s}
            -- {job key, fields, failures} of a job, or nil when it does not exist (expired)
            local function snapshot(job, failures)
              local fields = redis.call('HGETALL', job)
              if #fields == 0 then return false end
              return {job, fields, redis.call('HGETALL', failures)}
            end
            """.formatted(Arrays.stream(JobState.values()).filter(JobState::isFinal)
                    .map(state -> state.name() + " = true").collect(joining(", ")));

    /** KEYS: job, failures. */
    private static final String GET = """
            return snapshot(KEYS[1], KEYS[2])
            """;

    /**
     * KEYS: job, done, failures, jobs, unfinished[, idempotency key]. ARGV: id, creation score, job key prefix,
     * number of field arguments, fields and values, then failure task numbers and reasons. Returns nil when it
     * stored the job, or the snapshot of the job that holds the idempotency key.
     */
    private static final String CREATE = """
            if KEYS[6] then
              local existing = redis.call('GET', KEYS[6])
              if existing then
                local job = ARGV[3] .. existing .. '}'
                local found = snapshot(job, job .. ':failures')
                if found then return found end
              end
              redis.call('SET', KEYS[6], ARGV[1])
            end
            redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
            local fieldsEnd = 4 + tonumber(ARGV[4])
            redis.call('HSET', KEYS[1], unpack(ARGV, 5, fieldsEnd))
            if #ARGV > fieldsEnd then redis.call('HSET', KEYS[3], unpack(ARGV, fieldsEnd + 1)) end
            redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1])
            if not FINAL[redis.call('HGET', KEYS[1], 'state')] then redis.call('SADD', KEYS[5], ARGV[1]) end
            return false
            """;

    /** KEYS: job, failures. ARGV: tasks planned, planning done (1|0), now. Returns the snapshot, nil if unknown. */
    private static final String PLANNED = """
            local state = redis.call('HGET', KEYS[1], 'state')
            if not state then return false end
            redis.call('HSET', KEYS[1], 'tasksPlanned', ARGV[1], 'planningDone', ARGV[2])
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
     * KEYS: job, done, failures, unfinished, outbox. ARGV: id, state, finished, finish score, retention in ms,
     * idempotency key prefix[, reason]. Returns nil for an unknown job, an empty list if it was final already,
     * else the final snapshot.
     */
    private static final String FINISH = """
            local state = redis.call('HGET', KEYS[1], 'state')
            if not state then return false end
            if FINAL[state] then return {} end
            redis.call('HSET', KEYS[1], 'state', ARGV[2], 'finished', ARGV[3])
            if ARGV[7] then redis.call('HSET', KEYS[1], 'reason', ARGV[7]) else redis.call('HDEL', KEYS[1], 'reason') end
            redis.call('SREM', KEYS[4], ARGV[1])
            redis.call('ZADD', KEYS[5], ARGV[4], ARGV[1])
            redis.call('DEL', KEYS[2])
            redis.call('PEXPIRE', KEYS[1], ARGV[5])
            redis.call('PEXPIRE', KEYS[3], ARGV[5])
            local idempotencyKey = redis.call('HGET', KEYS[1], 'idempotencyKey')
            if idempotencyKey then redis.call('PEXPIRE', ARGV[6] .. idempotencyKey, ARGV[5]) end
            return snapshot(KEYS[1], KEYS[3])
            """;

    private final RedissonClient redisson;
    private final Clock clock;
    private final Duration retainFinished;
    private final String jobKeyPrefix;
    private final String idempotencyKeyPrefix;
    private final String jobsKey;
    private final String unfinishedKey;
    private final String outboxKey;
    private final Script readJob;
    private final Script createJob;
    private final Script planJob;
    private final Script recordResults;
    private final Script finishJob;

    /**
     * @param keyPrefix      prepended to every key, {@link #DEFAULT_KEY_PREFIX} unless several deployments share
     *                       one Redis
     * @param clock          the source of the start and finish times
     * @param retainFinished how long a final job stays readable
     */
    public RedisJobStore(RedissonClient redisson, String keyPrefix, Clock clock, Duration retainFinished) {
        this.redisson = Objects.requireNonNull(redisson, "redisson");
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.retainFinished = Objects.requireNonNull(retainFinished, "retainFinished");
        if (retainFinished.toMillis() <= 0) {
            throw new IllegalArgumentException("retainFinished must be at least 1 ms: " + retainFinished);
        }
        jobKeyPrefix = keyPrefix + "job:{";
        idempotencyKeyPrefix = keyPrefix + "idem:";
        jobsKey = keyPrefix + "jobs";
        unfinishedKey = keyPrefix + "unfinished";
        outboxKey = keyPrefix + "outbox";
        readJob = load(GET);
        createJob = load(CREATE);
        planJob = load(PLANNED);
        recordResults = load(RECORD);
        finishJob = load(FINISH);
    }

    @Override
    public JobStatus create(JobStatus job) {
        JobKeys keys = keys(job.id());
        List<Object> keyList = new ArrayList<>(List.of(keys.job(), keys.done(), keys.failures(), jobsKey,
                unfinishedKey));
        if (job.idempotencyKey() != null) {
            keyList.add(idempotencyKey(job.idempotencyKey()));
        }
        List<String> fields = fields(job);
        List<Object> args = new ArrayList<>(List.of(job.id(), job.created().toEpochMilli(), jobKeyPrefix,
                fields.size()));
        args.addAll(fields);
        job.failedTasks().forEach((seq, reason) -> {
            args.add(seq);
            args.add(reason);
        });
        List<Object> existing = eval(createJob, ReturnType.LIST, keyList, args.toArray());
        return existing == null ? job : parse(existing);
    }

    @Override
    public Optional<JobStatus> get(String id) {
        JobKeys keys = keys(id);
        List<Object> snapshot = eval(readJob, ReturnType.LIST, keys.hashes());
        return Optional.ofNullable(snapshot).map(RedisJobStore::parse);
    }

    /** The job's state alone (one HGET), for workers that skip the tasks of cancelled jobs. */
    public Optional<JobState> state(String id) {
        String key = keys(id).job();
        String state = redisson.<String, String>getMap(key, StringCodec.INSTANCE).get("state");
        try {
            return Optional.ofNullable(state).map(JobState::valueOf);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("bad job state in Redis key " + key + ": " + state, e);
        }
    }

    @Override
    public Optional<JobStatus> findByIdempotencyKey(String key) {
        String id = redisson.<String>getBucket(idempotencyKey(key), StringCodec.INSTANCE).get();
        return id == null ? Optional.empty() : get(id);
    }

    @Override
    public List<JobStatus> list(int limit) {
        RScoredSortedSet<String> jobs = redisson.getScoredSortedSet(jobsKey, StringCodec.INSTANCE);
        List<JobStatus> newestFirst = new ArrayList<>();
        List<String> expired = new ArrayList<>();
        int offset = 0;
        while (newestFirst.size() < limit) {
            List<String> ids = List.copyOf(jobs.valueRangeReversed(offset, offset + limit - newestFirst.size() - 1));
            if (ids.isEmpty()) {
                break;
            }
            offset += ids.size();
            List<Optional<JobStatus>> found = getAll(ids);
            for (int i = 0; i < ids.size(); i++) {
                if (found.get(i).isPresent()) {
                    newestFirst.add(found.get(i).get());
                } else {
                    expired.add(ids.get(i));
                }
            }
        }
        if (!expired.isEmpty()) {
            jobs.removeAll(expired);
        }
        return newestFirst;
    }

    @Override
    public JobStatus planned(String id, long tasksPlanned, boolean planningDone) {
        JobKeys keys = keys(id);
        List<Object> snapshot = eval(planJob, ReturnType.LIST, keys.hashes(),
                tasksPlanned, planningDone ? 1 : 0, clock.instant());
        if (snapshot == null) {
            throw new IllegalArgumentException("no job " + id);
        }
        return parse(snapshot);
    }

    @Override
    public boolean record(TaskResult result) {
        JobKeys keys = keys(result.jobId());
        long added = eval(recordResults, ReturnType.LONG, keys.all(), recordArgs(List.of(result)));
        return added > 0;
    }

    /** One script per job in the batch, all sent in one round trip. */
    @Override
    public Set<String> recordAll(List<TaskResult> results) {
        Map<String, List<TaskResult>> byJob = new LinkedHashMap<>();
        results.forEach(result -> byJob.computeIfAbsent(result.jobId(), id -> new ArrayList<>()).add(result));
        Map<String, Object[]> args = new LinkedHashMap<>();
        byJob.forEach((id, jobResults) -> args.put(id, recordArgs(jobResults)));
        return withScripts(() -> {
            RBatch batch = redisson.createBatch(BatchOptions.defaults());
            RScriptAsync scripts = batch.getScript(StringCodec.INSTANCE);
            Map<String, RFuture<Long>> added = new LinkedHashMap<>();
            args.forEach((id, jobArgs) -> {
                JobKeys keys = keys(id);
                added.put(id, scripts.evalShaAsync(Mode.READ_WRITE, recordResults.sha(), ReturnType.LONG,
                        keys.all(), jobArgs));
            });
            batch.execute();
            Set<String> changed = new LinkedHashSet<>();
            added.forEach((id, count) -> {
                if (count.toCompletableFuture().join() > 0) {
                    changed.add(id);
                }
            });
            return changed;
        });
    }

    @Override
    public Optional<JobStatus> finish(String id, JobState state, String reason) {
        if (!state.isFinal()) {
            throw new IllegalArgumentException(state + " is not a final state");
        }
        JobKeys keys = keys(id);
        Instant now = clock.instant();
        List<Object> args = new ArrayList<>(List.of(id, state.name(), now, now.toEpochMilli(),
                retainFinished.toMillis(), idempotencyKeyPrefix));
        if (reason != null) {
            args.add(reason);
        }
        List<Object> snapshot = eval(finishJob, ReturnType.LIST,
                List.of(keys.job(), keys.done(), keys.failures(), unfinishedKey, outboxKey), args.toArray());
        if (snapshot == null) {
            throw new IllegalArgumentException("no job " + id);
        }
        return snapshot.isEmpty() ? Optional.empty() : Optional.of(parse(snapshot));
    }

    @Override
    public List<JobStatus> unfinished() {
        Set<String> ids = redisson.<String>getSet(unfinishedKey, StringCodec.INSTANCE).readAll();
        // A job may have become final since the set was read.
        return getAll(List.copyOf(ids)).stream().flatMap(Optional::stream)
                .filter(job -> !job.state().isFinal())
                .sorted(Comparator.comparing(JobStatus::created).thenComparing(JobStatus::id))
                .toList();
    }

    /** One round trip: the state field of every job in the index; ids whose job expired are not counted. */
    @Override
    public Map<JobState, Long> countByState() {
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
    }

    /** One SCARD: a job leaves the set in the same atomic step that makes it final. */
    @Override
    public long countUnfinished() {
        return redisson.getSet(unfinishedKey, StringCodec.INSTANCE).size();
    }

    @Override
    public List<String> pendingEvents() {
        return List.copyOf(redisson.<String>getScoredSortedSet(outboxKey, StringCodec.INSTANCE).readAll());
    }

    @Override
    public void eventSent(String id) {
        redisson.getScoredSortedSet(outboxKey, StringCodec.INSTANCE).remove(id);
    }

    /** The jobs with these ids, in their order, in one round trip; empty where a job does not exist. */
    private List<Optional<JobStatus>> getAll(List<String> ids) {
        return withScripts(() -> {
            RBatch batch = redisson.createBatch(BatchOptions.defaults());
            RScriptAsync scripts = batch.getScript(StringCodec.INSTANCE);
            List<RFuture<List<Object>>> snapshots = ids.stream().map(id -> {
                JobKeys keys = keys(id);
                return scripts.<List<Object>>evalShaAsync(Mode.READ_WRITE, readJob.sha(), ReturnType.LIST,
                        keys.hashes());
            }).toList();
            batch.execute();
            return snapshots.stream()
                    .map(snapshot -> Optional.ofNullable(snapshot.toCompletableFuture().join()).map(RedisJobStore::parse))
                    .toList();
        });
    }

    /** Reads run as READ_WRITE too, so they go to the master and see every write already acknowledged. */
    private <R> R eval(Script script, ReturnType type, List<Object> keys, Object... args) {
        return withScripts(() -> redisson.getScript(StringCodec.INSTANCE)
                .evalSha(Mode.READ_WRITE, script.sha(), type, keys, args));
    }

    /** Runs {@code call}, once more after loading the scripts again if Redis lost them (restart, SCRIPT FLUSH). */
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

    private Script load(String body) {
        String text = PRELUDE + body;
        return new Script(text, redisson.getScript(StringCodec.INSTANCE).scriptLoad(text));
    }

    private void loadScripts() {
        RScript scripts = redisson.getScript(StringCodec.INSTANCE);
        for (Script script : List.of(readJob, createJob, planJob, recordResults, finishJob)) {
            scripts.scriptLoad(script.text());
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

    /** A job from the snapshot a script returned: {job key, fields, failures}. */
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

    /** A Lua script and its SHA-1, by which it runs, so its text crosses the network only to load it. */
    private record Script(String text, String sha) {
    }
}
