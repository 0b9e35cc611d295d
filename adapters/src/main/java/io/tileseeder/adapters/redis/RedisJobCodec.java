package io.tileseeder.adapters.redis;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.message.Messages;
import io.tileseeder.message.TileCounts;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job record as Redis holds it: the fields of the job's hash (the spec as JSON, instants as ISO-8601, null
 * fields left out), and the snapshot the job scripts return, {@code {job key, fields, failures, remaining ms to
 * live}}, read back into a {@link JobStatus}.
 */
final class RedisJobCodec {

    private static final ObjectMapper JSON = Messages.configure(new ObjectMapper());

    private RedisJobCodec() {
    }

    /** The job's hash as field, value, field, value…; null fields are left out. */
    static List<String> fields(JobStatus job) {
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
        fields.put("unchanged", job.counts().unchanged());
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
    static JobStatus parse(List<Object> snapshot) {
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
                            number(f, "deleted"), number(f, "failed"), number(f, "bytes"),
                            count(f, "unchanged")),
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

    /** A count that jobs recorded before it existed do not have: 0 for them. */
    private static long count(Map<String, String> fields, String name) {
        String value = fields.get(name);
        return value == null ? 0 : Long.parseLong(value);
    }

    private static Instant instant(String iso) {
        return iso == null ? null : Instant.parse(iso);
    }

    /** Whether a snapshot is of a job not final yet whose creation was not confirmed (it still expires). */
    static boolean unconfirmed(List<Object> snapshot) {
        return ((Number) snapshot.get(3)).longValue() >= 0 && !parse(snapshot).state().isFinal();
    }
}
