package io.tileseeder.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.adapters.JobStoreContract;
import io.tileseeder.job.JobStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link RedisJobCodec}: a job's hash fields read back as the same job, and bad data named by its key. */
class RedisJobCodecTest {

    private static final String KEY = "seeder:job:{job-1}";

    private final JobStatus job = JobStatus.submitted("job-1", JobStoreContract.SPEC, 5_000,
            Instant.parse("2026-05-06T07:08:09.123Z"), "key-1");

    @Test
    void aJobsFieldsReadBackAsTheSameJob() {
        List<Object> snapshot = List.of(KEY, List.copyOf(RedisJobCodec.fields(job)), List.of(), -1L);
        assertThat(RedisJobCodec.parse(snapshot)).isEqualTo(job);
        assertThat(RedisJobCodec.unconfirmed(snapshot)).isFalse();
        assertThat(RedisJobCodec.unconfirmed(List.of(KEY, RedisJobCodec.fields(job), List.of(), 60_000L))).isTrue();
    }

    @Test
    void badDataIsReportedWithItsKey() {
        List<String> fields = new ArrayList<>(RedisJobCodec.fields(job));
        fields.set(fields.indexOf("state") + 1, "HALF_DONE");
        assertThatThrownBy(() -> RedisJobCodec.parse(List.of(KEY, fields, List.of(), -1L)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(KEY);
    }
}
