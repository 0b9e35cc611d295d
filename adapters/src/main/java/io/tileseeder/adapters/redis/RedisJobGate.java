package io.tileseeder.adapters.redis;

import static java.util.stream.Collectors.joining;

import io.tileseeder.job.JobState;
import io.tileseeder.port.JobGate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.redisson.api.BatchOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RFuture;
import org.redisson.api.RScript;
import org.redisson.api.RScript.Mode;
import org.redisson.api.RScript.ReturnType;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisNoScriptException;
import org.redisson.client.codec.StringCodec;

/**
 * The job gate in Redis, beside the job records of {@link RedisJobStore}: a job's open passes are a sorted set
 * {@code P job:{id}:passes} (pass id → expiry in Redis's own clock), in the job's hash slot. Entering is one
 * script that reads the job's state and adds the pass in the same atomic step, so a job made final either turns
 * the worker away or sees its pass. The passes this process holds are renewed every third of the lease, in
 * one round trip, and added again if they were lost (Redis restarted or failed over without them); the renewal
 * also tells the passes whose job became final. A pass counts until it is one lease past its expiry: a worker
 * that died stops renewing, and its passes stop holding the job's event back after at most two leases, while a
 * Redis outage shorter than that (during which nothing is renewed) loses no pass.
 */
public final class RedisJobGate implements JobGate, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(RedisJobGate.class.getName());
    /** How long a pass lasts unless renewed; it counts for one lease more (a dead worker delays an event 2 leases). */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);

    private static final String FINAL = "local FINAL = {" + Arrays.stream(JobState.values()).filter(JobState::isFinal)
            .map(state -> state.name() + " = true").collect(joining(", ")) + "}\n";
    private static final String NOW = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            """;

    /** KEYS: job, passes. ARGV: pass id, lease ms. 1 if the pass was added, 0 if the job is final or unknown. */
    private static final String ENTER = FINAL + NOW + """
            local state = redis.call('HGET', KEYS[1], 'state')
            if not state or FINAL[state] then return 0 end
            redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
            redis.call('PEXPIRE', KEYS[2], 3 * tonumber(ARGV[2]))
            return 1
            """;

    /**
     * KEYS: job, passes. ARGV: lease ms, pass ids. Extends the passes, adding back any that were lost; 1 if the job
     * is final or unknown by now, else 0.
     */
    private static final String RENEW = FINAL + NOW + """
            for i = 2, #ARGV do redis.call('ZADD', KEYS[2], now + tonumber(ARGV[1]), ARGV[i]) end
            redis.call('PEXPIRE', KEYS[2], 3 * tonumber(ARGV[1]))
            local state = redis.call('HGET', KEYS[1], 'state')
            if not state or FINAL[state] then return 1 end
            return 0
            """;

    /** KEYS: passes. ARGV: lease ms. The passes that count (expired less than a lease ago, or not at all). */
    private static final String OPEN = NOW + """
            redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]))
            return redis.call('ZCARD', KEYS[1])
            """;

    private final RedissonClient redisson;
    private final String jobKeyPrefix;
    private final Duration lease;
    private final String instance = UUID.randomUUID().toString();
    /** The passes this process holds, by pass id, renewed together. */
    private final Map<String, RedisPass> held = new ConcurrentHashMap<>();
    /** Passes closed while Redis could not be told: removed at the next renewal that reaches it. */
    private final Set<RedisPass> unremoved = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService renewer;
    private final Map<String, String> shas = new ConcurrentHashMap<>();

    /**
     * @param keyPrefix the job records' key prefix ({@link RedisJobStore}'s)
     * @param lease     how long an unrenewed pass lasts
     */
    public RedisJobGate(RedissonClient redisson, String keyPrefix, Duration lease) {
        this.redisson = Objects.requireNonNull(redisson, "redisson");
        this.jobKeyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix") + "job:{";
        if (lease.toMillis() < 3) {
            throw new IllegalArgumentException("the lease of a pass must be at least 3 ms: " + lease);
        }
        this.lease = lease;
        this.renewer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("seeder-gate-renewer").daemon().factory());
        long every = lease.toMillis() / 3;
        renewer.scheduleWithFixedDelay(this::renewAll, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public Optional<Pass> enter(String jobId) {
        String passId = instance + "/" + UUID.randomUUID();
        long added = eval(ENTER, ReturnType.LONG, List.of(jobKey(jobId), passesKey(jobId)), passId,
                Long.toString(lease.toMillis()));
        if (added == 0) {
            return Optional.empty();
        }
        RedisPass pass = new RedisPass(jobId, passId);
        held.put(passId, pass);
        return Optional.of(pass);
    }

    @Override
    public long passesOpen(String jobId) {
        return eval(OPEN, ReturnType.LONG, List.of(passesKey(jobId)), Long.toString(lease.toMillis()));
    }

    /**
     * Extends every pass this process holds, one script per job, all in one round trip, and marks the passes of
     * jobs that became final.
     */
    private void renewAll() {
        List.copyOf(unremoved).forEach(RedisPass::remove);
        try {
            Map<String, List<RedisPass>> byJob = new HashMap<>();
            held.values().forEach(pass -> byJob.computeIfAbsent(pass.jobId, id -> new ArrayList<>()).add(pass));
            if (byJob.isEmpty()) {
                return;
            }
            String sha = sha(RENEW);
            RBatch batch = redisson.createBatch(BatchOptions.defaults());
            Map<String, RFuture<Long>> finals = new HashMap<>();
            byJob.forEach((job, passes) -> {
                Object[] args = new Object[passes.size() + 1];
                args[0] = Long.toString(lease.toMillis());
                for (int i = 0; i < passes.size(); i++) {
                    args[i + 1] = passes.get(i).passId;
                }
                finals.put(job, batch.getScript(StringCodec.INSTANCE).evalShaAsync(Mode.READ_WRITE, sha,
                        ReturnType.LONG, List.of(jobKey(job), passesKey(job)), args));
            });
            batch.execute();
            finals.forEach((job, isFinal) -> {
                if (isFinal.toCompletableFuture().join() == 1) {
                    byJob.get(job).forEach(pass -> pass.jobFinal = true);
                }
            });
            // A pass closed while the renewal was on its way was added back by it: remove it again.
            byJob.values().stream().flatMap(List::stream).filter(pass -> !held.containsKey(pass.passId))
                    .forEach(RedisPass::remove);
        } catch (RuntimeException e) {
            // Redis away: tried again at the next renewal, well within the lease of grace the passes have.
            shas.clear();
            LOG.log(Level.FINE, "renewing the job passes failed", e);
        }
    }

    private <R> R eval(String script, ReturnType type, List<Object> keys, Object... args) {
        return call(() -> {
            RScript scripts = redisson.getScript(StringCodec.INSTANCE);
            try {
                return scripts.evalSha(Mode.READ_WRITE, sha(script), type, keys, args);
            } catch (RedisNoScriptException e) {
                shas.remove(script); // Redis restarted or flushed its scripts: load it again
                return scripts.evalSha(Mode.READ_WRITE, sha(script), type, keys, args);
            }
        });
    }

    private String sha(String script) {
        return shas.computeIfAbsent(script, text -> redisson.getScript(StringCodec.INSTANCE).scriptLoad(text));
    }

    private static <R> R call(Supplier<R> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            throw RedisFailures.classify(e);
        }
    }

    private String jobKey(String jobId) {
        return jobKeyPrefix + jobId + "}";
    }

    private String passesKey(String jobId) {
        return jobKey(jobId) + ":passes";
    }

    @Override
    public void close() {
        renewer.shutdownNow();
    }

    private final class RedisPass implements Pass {
        private final String jobId;
        private final String passId;
        private volatile boolean jobFinal;

        RedisPass(String jobId, String passId) {
            this.jobId = jobId;
            this.passId = passId;
        }

        @Override
        public boolean jobFinal() {
            return jobFinal;
        }

        @Override
        public void close() {
            if (held.remove(passId) != null) {
                remove();
            }
        }

        private void remove() {
            try {
                redisson.getScoredSortedSet(passesKey(jobId), StringCodec.INSTANCE).remove(passId);
                unremoved.remove(this);
            } catch (RuntimeException e) {
                // Redis away: tried again at every renewal; at worst the pass stops counting after its lease of grace.
                unremoved.add(this);
                LOG.log(Level.FINE, "closing a pass of job " + jobId + " failed; trying again later", e);
            }
        }
    }
}
