package io.tileseeder.adapters.redis;

import java.util.List;
import java.util.Objects;

/**
 * Where a {@link RedisJobStore} keeps what, with {@code P} the key prefix. A Lua script on a Redis Cluster may only
 * touch keys of one hash slot, so the braces make hash tags: one job's keys share a slot, the indexes share another.
 * <ul>
 *   <li>{@code P job:{id}}: hash of the job's fields; the spec as JSON, instants as ISO-8601;</li>
 *   <li>{@code P job:{id}:done}: bitmap of the task numbers with a recorded result (deleted when final);</li>
 *   <li>{@code P job:{id}:failures}: hash task number → reason, at most
 *       {@link io.tileseeder.adapters.memory.InMemoryJobStore#MAX_FAILURES_KEPT} (the count {@code tasksFailed} is
 *       exact);</li>
 *   <li>{@code P {index}:jobs}: sorted set of job ids by creation time, for {@link RedisJobStore#list};</li>
 *   <li>{@code P {index}:unfinished}: set of the ids of jobs not final yet, or final with their event not yet in
 *       the outbox;</li>
 *   <li>{@code P {index}:outbox}: sorted set of final jobs whose event is not acknowledged, by finish time;</li>
 *   <li>{@code P idem:<key>}: the id of the job submitted with that idempotency key; {@code *<id>} while that
 *       job is being created.</li>
 * </ul>
 *
 * @param jobPrefix         {@code P job:} and an opening brace, to which a job's id and the closing brace are added
 * @param idempotencyPrefix {@code P idem:}
 * @param jobs              {@code P {index}:jobs}
 * @param unfinished        {@code P {index}:unfinished}
 * @param outbox            {@code P {index}:outbox}
 */
record RedisJobKeys(String jobPrefix, String idempotencyPrefix, String jobs, String unfinished, String outbox) {

    /**
     * The keys below {@code keyPrefix}.
     *
     * @throws IllegalArgumentException if the prefix has braces, which would change the keys' hash slots
     */
    static RedisJobKeys of(String keyPrefix) {
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        if (keyPrefix.contains("{") || keyPrefix.contains("}")) {
            throw new IllegalArgumentException("the key prefix must not contain braces (hash tags): " + keyPrefix);
        }
        return new RedisJobKeys(keyPrefix + "job:{", keyPrefix + "idem:", keyPrefix + "{index}:jobs",
                keyPrefix + "{index}:unfinished", keyPrefix + "{index}:outbox");
    }

    /** The keys of one job, all in the slot of its id. */
    Job job(String id) {
        String job = jobPrefix + id + "}";
        return new Job(job, job + ":done", job + ":failures");
    }

    /** The key of an idempotency key. */
    String idempotency(String key) {
        return idempotencyPrefix + key;
    }

    /** The keys of one job: its hash, its bitmap of recorded results, its hash of failures. */
    record Job(String job, String done, String failures) {

        /** The two hashes: what a snapshot reads. */
        List<Object> hashes() {
            return List.of(job, failures);
        }

        List<Object> all() {
            return List.of(job, done, failures);
        }
    }
}
