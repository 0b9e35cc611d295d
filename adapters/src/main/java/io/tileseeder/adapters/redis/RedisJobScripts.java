package io.tileseeder.adapters.redis;

import static java.util.stream.Collectors.joining;

import io.tileseeder.adapters.memory.InMemoryJobStore;
import io.tileseeder.adapters.redis.RedisScriptRunner.Call;
import io.tileseeder.adapters.redis.RedisScriptRunner.Script;
import io.tileseeder.job.JobState;
import io.tileseeder.message.TaskResult;
import io.tileseeder.message.TileCounts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.redisson.api.RScript.ReturnType;
import org.redisson.api.RedissonClient;

/**
 * The Lua scripts that change a job in Redis, each with the call that passes its KEYS and ARGV. A script runs
 * atomically and touches only keys of one hash slot ({@link RedisJobKeys}): a result's bit in the job's bitmap and
 * the job's counters change together in {@link #record} (SETBIT returns the old bit, so a redelivered result is
 * counted once), the planned cursor only moves forward ({@link #planned}), and a job becomes final exactly once
 * ({@link #finish}, a compare-and-set). A snapshot is {@code {job key, fields, failures, remaining ms to live}}
 * ({@link RedisJobCodec#parse}), or null when the job does not exist.
 */
final class RedisJobScripts {

    private static final long MAX_SEQ = (1L << 32) - 1;

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

    /**
     * KEYS: job, done, failures. ARGV as {@link #CREATE}'s. Writes the job as {@link #CREATE} does only if it has no
     * record: true if it wrote it.
     */
    private static final String CREATE_ABSENT = """
            if redis.call('EXISTS', KEYS[1]) == 1 then return false end
            """ + CREATE;

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

    /** KEYS: job, failures. A QUEUED job becomes PLANNING: its snapshot then; an empty list if it was not QUEUED. */
    private static final String START = """
            local state = redis.call('HGET', KEYS[1], 'state')
            if not state then return false end
            if state ~= 'QUEUED' then return {} end
            redis.call('HSET', KEYS[1], 'state', 'PLANNING')
            return snapshot(KEYS[1], KEYS[2])
            """;

    /**
     * KEYS: job, done, failures. ARGV: failures to keep, then per result: task number, succeeded (1|0), written,
     * empty, skipped, deleted, failed, bytes, unchanged, error. Returns how many results were new.
     */
    private static final String RECORD = """
            local state = redis.call('HGET', KEYS[1], 'state')
            if not state or FINAL[state] then return 0 end
            local COUNTS = {'written', 'empty', 'skipped', 'deleted', 'failed', 'bytes', 'unchanged'}
            local sums = {0, 0, 0, 0, 0, 0, 0}
            local new, failed = 0, 0
            local cap = tonumber(ARGV[1])
            local kept = redis.call('HLEN', KEYS[3])
            for i = 2, #ARGV, 10 do
              if redis.call('SETBIT', KEYS[2], ARGV[i], 1) == 0 then
                new = new + 1
                for c = 1, 7 do sums[c] = sums[c] + tonumber(ARGV[i + 1 + c]) end
                if ARGV[i + 1] == '0' then
                  failed = failed + 1
                  if kept < cap then
                    redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 9])
                    kept = kept + 1
                  end
                end
              end
            end
            -- '%d' because Redis may write a large Lua number in exponent notation, which HINCRBY refuses
            if new > 0 then
              redis.call('HINCRBY', KEYS[1], 'tasksDone', string.format('%d', new))
              redis.call('HINCRBY', KEYS[1], 'tasksFailed', string.format('%d', failed))
              for c = 1, 7 do redis.call('HINCRBY', KEYS[1], COUNTS[c], string.format('%d', sums[c])) end
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

    private final RedisJobKeys keys;
    private final Script readJob = new Script(PRELUDE + GET, false);
    private final Script createJob = new Script(PRELUDE + CREATE, true);
    private final Script createAbsentJob = new Script(PRELUDE + CREATE_ABSENT, true);
    private final Script confirmJob = new Script(PRELUDE + CONFIRM, true);
    private final Script indexJob = new Script(INDEX, true);
    private final Script reserveKey = new Script(RESERVE, true);
    private final Script confirmKey = new Script(CONFIRM_KEY, true);
    private final Script expireKey = new Script(EXPIRE_KEY, true);
    private final Script startJob = new Script(PRELUDE + START, true);
    private final Script planJob = new Script(PRELUDE + PLANNED, true);
    private final Script recordResults = new Script(PRELUDE + RECORD, true);
    private final Script finishJob = new Script(PRELUDE + FINISH, true);
    private final Script toOutbox = new Script(TO_OUTBOX, true);
    private final RedisScriptRunner runner;

    /** @param syncReplicas replicas every write must reach before it counts (0: the master alone) */
    RedisJobScripts(RedissonClient redisson, RedisJobKeys keys, int syncReplicas) {
        this.keys = keys;
        this.runner = new RedisScriptRunner(redisson, syncReplicas, List.of(readJob, createJob, createAbsentJob,
                confirmJob, indexJob, reserveKey, confirmKey, expireKey, startJob, planJob, recordResults, finishJob,
                toOutbox));
    }

    /** Loads the scripts into Redis (on a cluster: into every master). */
    void load() {
        runner.load();
    }

    /** The job's snapshot, or null if it does not exist. */
    List<Object> read(String id) {
        return runner.eval(readJob, ReturnType.LIST, keys.job(id).hashes());
    }

    /** The snapshots of the jobs with these ids, in their order, in one round trip; null where a job is missing. */
    List<List<Object>> readAll(List<String> ids) {
        return runner.evalAll(readJob, ReturnType.LIST,
                ids.stream().map(id -> new Call(keys.job(id).hashes())).toList());
    }

    /** Writes the job afresh (its hash and failures), expiring after {@code expiry}. */
    void create(String id, Duration expiry, List<String> fields, Map<Long, String> failedTasks) {
        runner.eval(createJob, ReturnType.BOOLEAN, keys.job(id).all(), createArgs(expiry, fields, failedTasks));
    }

    private static Object[] createArgs(Duration expiry, List<String> fields, Map<Long, String> failedTasks) {
        List<Object> args = new ArrayList<>(List.of(expiry.toMillis(), fields.size()));
        args.addAll(fields);
        failedTasks.forEach((seq, reason) -> {
            args.add(seq);
            args.add(reason);
        });
        return args.toArray();
    }

    /** Writes the job as {@link #create} does if it has no record; whether it wrote it. */
    boolean createAbsent(String id, Duration expiry, List<String> fields, Map<Long, String> failedTasks) {
        return runner.eval(createAbsentJob, ReturnType.BOOLEAN, keys.job(id).all(),
                createArgs(expiry, fields, failedTasks));
    }

    /** Drops the expiry of a job that is not final; its snapshot after that, null if it does not exist. */
    List<Object> confirm(String id) {
        return runner.eval(confirmJob, ReturnType.LIST, keys.job(id).hashes());
    }

    /** Adds the job to the index of jobs and, unless final, to the unfinished ones. */
    void index(String id, Instant created, boolean isFinal) {
        runner.eval(indexJob, ReturnType.BOOLEAN, List.of(keys.jobs(), keys.unfinished()), id,
                created.toEpochMilli(), isFinal ? 1 : 0);
    }

    /**
     * Reserves the idempotency key for the job for {@code reservation} unless it holds another value than
     * {@code gone} (the id of a job found gone, or empty): null when reserved, else the value it holds.
     */
    String reserve(String idempotencyKey, String id, Duration reservation, String gone) {
        return runner.eval(reserveKey, ReturnType.VALUE, List.of(keys.idempotency(idempotencyKey)), id,
                reservation.toMillis(), gone);
    }

    /** Makes the job's reservation of the idempotency key permanent; false if the job no longer holds it. */
    boolean confirmReservation(String idempotencyKey, String id) {
        long confirmed = runner.eval(confirmKey, ReturnType.LONG, List.of(keys.idempotency(idempotencyKey)), id);
        return confirmed == 1;
    }

    /** Expires the idempotency key after {@code expiry} if it names the job. */
    void expireIdempotencyKey(String idempotencyKey, String id, Duration expiry) {
        runner.eval(expireKey, ReturnType.BOOLEAN, List.of(keys.idempotency(idempotencyKey)), id, expiry.toMillis());
    }

    /** Starts a QUEUED job: its snapshot, an empty list if it was not QUEUED, null if unknown. */
    List<Object> start(String id) {
        return runner.eval(startJob, ReturnType.LIST, keys.job(id).hashes());
    }

    /** Moves the planned cursor forward (never back) and starts the job; its snapshot, null if unknown. */
    List<Object> planned(String id, long tasksPlanned, boolean planningDone, Instant now) {
        return runner.eval(planJob, ReturnType.LIST, keys.job(id).hashes(), tasksPlanned, planningDone ? 1 : 0,
                now);
    }

    /** Records the results of one job: how many were new. */
    long record(String id, List<TaskResult> results) {
        return runner.eval(recordResults, ReturnType.LONG, keys.job(id).all(), recordArgs(results));
    }

    /** Records the results of each job, one script per job, all in one round trip: the jobs that changed. */
    Set<String> recordAll(Map<String, List<TaskResult>> byJob) {
        List<String> ids = List.copyOf(byJob.keySet());
        List<Call> calls = ids.stream().map(id -> new Call(keys.job(id).all(), recordArgs(byJob.get(id)))).toList();
        List<Long> added = runner.evalAll(recordResults, ReturnType.LONG, calls);
        Set<String> changed = new LinkedHashSet<>();
        for (int i = 0; i < ids.size(); i++) {
            if (added.get(i) > 0) {
                changed.add(ids.get(i));
            }
        }
        return changed;
    }

    /**
     * Makes the job final, keeping it for {@code retention}: null for an unknown job, an empty list if it was final
     * already, else its final snapshot.
     */
    List<Object> finish(String id, JobState state, Instant finished, Duration retention, String reason) {
        List<Object> args = new ArrayList<>(List.of(state.name(), finished, retention.toMillis()));
        if (reason != null) {
            args.add(reason);
        }
        return runner.eval(finishJob, ReturnType.LIST, keys.job(id).all(), args.toArray());
    }

    /** Moves a final job from the unfinished ones to the outbox, only if it is still unfinished. */
    void moveToOutbox(String id, Instant finished) {
        runner.eval(toOutbox, ReturnType.BOOLEAN, List.of(keys.unfinished(), keys.outbox()), id,
                finished.toEpochMilli());
    }

    private static Object[] recordArgs(List<TaskResult> results) {
        Object[] args = new Object[1 + 10 * results.size()];
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
            args[i++] = counts.unchanged();
            args[i++] = result.error() == null ? "" : result.error();
        }
        return args;
    }

}
