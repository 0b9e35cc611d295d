package io.tileseeder.adapters.redis;

import io.tileseeder.port.DependencyUnavailableException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.redisson.api.BatchOptions;
import org.redisson.api.BatchResult;
import org.redisson.api.RBatch;
import org.redisson.api.RFuture;
import org.redisson.api.RScript;
import org.redisson.api.RScript.Mode;
import org.redisson.api.RScript.ReturnType;
import org.redisson.api.RScriptAsync;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisNoScriptException;
import org.redisson.client.codec.StringCodec;

/**
 * Runs Lua scripts by their SHA-1, so a script's text crosses the network only to load it; loads them again when
 * Redis lost them (restart, failover, SCRIPT FLUSH).
 *
 * <p>With {@code syncReplicas} above 0, every script that writes waits (WAIT) until that many replicas have its
 * writes, and one that does not reach them in time is reported as not done ({@link DependencyUnavailableException}):
 * a failover then cannot lose what a caller was told is recorded.
 */
final class RedisScriptRunner {

    /** How long a write waits for its replicas. */
    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(2);

    private final RedissonClient redisson;
    private final int syncReplicas;
    private final List<Script> scripts;

    /**
     * @param syncReplicas replicas every write must reach before it counts (0: the master alone)
     * @param scripts      the scripts this runner runs, loaded by {@link #load} and again when Redis lost them
     */
    RedisScriptRunner(RedissonClient redisson, int syncReplicas, List<Script> scripts) {
        this.redisson = Objects.requireNonNull(redisson, "redisson");
        this.syncReplicas = syncReplicas;
        this.scripts = List.copyOf(scripts);
    }

    /**
     * A Lua script and its SHA-1, by which it runs, so its text crosses the network only to load it; and whether
     * it writes.
     */
    record Script(String text, String sha, boolean writes) {

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

    /** One run of a script: its KEYS and ARGV. */
    record Call(List<Object> keys, Object... args) {
    }

    /**
     * Runs a script; one that writes waits for the replicas when it has to. Reads run as READ_WRITE too, so they
     * go to the master and see every write already acknowledged.
     */
    <R> R eval(Script script, ReturnType type, List<Object> keys, Object... args) {
        if (!script.writes() || syncReplicas == 0) {
            return withScripts(() -> redisson.getScript(StringCodec.INSTANCE)
                    .evalSha(Mode.READ_WRITE, script.sha(), type, keys, args));
        }
        return this.<R>evalAll(script, type, List.of(new Call(keys, args))).get(0);
    }

    /**
     * Runs a script once per call, all sent in one round trip (on a cluster: one per node); a script that writes
     * waits for the replicas when it has to. The results are in the calls' order.
     */
    <R> List<R> evalAll(Script script, ReturnType type, List<Call> calls) {
        return withScripts(() -> {
            RBatch batch = redisson.createBatch(script.writes() ? writeOptions() : BatchOptions.defaults());
            RScriptAsync async = batch.getScript(StringCodec.INSTANCE);
            List<RFuture<R>> results = calls.stream().map(call -> async.<R>evalShaAsync(Mode.READ_WRITE,
                    script.sha(), type, call.keys(), call.args())).toList();
            BatchResult<?> done = batch.execute();
            if (script.writes()) {
                synced(done);
            }
            return results.stream().map(result -> result.toCompletableFuture().join()).toList();
        });
    }

    /** Loads the scripts (on a cluster: into every master). */
    void load() {
        RScript loader = redisson.getScript(StringCodec.INSTANCE);
        for (Script script : scripts) {
            String sha = loader.scriptLoad(script.text());
            if (!sha.equals(script.sha())) {
                throw new IllegalStateException("Redis named a script " + sha + ", not its SHA-1 " + script.sha());
            }
        }
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
            load();
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
}
