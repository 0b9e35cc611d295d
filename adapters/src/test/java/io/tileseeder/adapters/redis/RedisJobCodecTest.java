package io.tileseeder.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.adapters.JobStoreContract;
import io.tileseeder.grid.Bounds;
import io.tileseeder.job.JobArea;
import io.tileseeder.job.JobSpec;
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
    void aJobOverAnAreaReadsBackWithItsArea() {
        JobSpec spec = JobStoreContract.SPEC;
        for (JobArea area : List.of(new JobArea(JobArea.Kind.TILES, null, "3/4/2\n14/8508/5489\n"),
                new JobArea(JobArea.Kind.COVERAGE, "africa",
                        "{\"type\":\"Polygon\",\"coordinates\":[[[10,10],[20,10],[20,20],[10,10]]]}"))) {
            JobStatus withArea = JobStatus.submitted("job-2", new JobSpec(spec.layer(), spec.tileMatrixSet(),
                    spec.minZoom(), spec.maxZoom(), spec.bbox(), spec.format(), spec.mode(), spec.metatile(),
                    spec.refreshBefore(), spec.priority(), spec.labels(), area), 10, Instant.EPOCH, null);
            List<Object> snapshot = List.of(KEY, List.copyOf(RedisJobCodec.fields(withArea)), List.of(), -1L);
            assertThat(RedisJobCodec.parse(snapshot)).isEqualTo(withArea);
        }
    }

    @Test
    void aJobOverABboxInItsSetsCrsReadsBackWithIt() {
        JobSpec spec = JobStoreContract.SPEC;
        JobStatus inSetCrs = JobStatus.submitted("job-3", new JobSpec(spec.layer(), spec.tileMatrixSet(),
                spec.minZoom(), spec.maxZoom(), spec.bbox(), spec.format(), spec.mode(), spec.metatile(),
                spec.refreshBefore(), spec.priority(), spec.labels(), null, new Bounds(-1000, -2000, 3000, 4000)),
                10, Instant.EPOCH, null);
        List<Object> snapshot = List.of(KEY, List.copyOf(RedisJobCodec.fields(inSetCrs)), List.of(), -1L);
        assertThat(RedisJobCodec.parse(snapshot)).isEqualTo(inSetCrs);
    }

    @Test
    void badDataIsReportedWithItsKey() {
        List<String> fields = new ArrayList<>(RedisJobCodec.fields(job));
        fields.set(fields.indexOf("state") + 1, "HALF_DONE");
        assertThatThrownBy(() -> RedisJobCodec.parse(List.of(KEY, fields, List.of(), -1L)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(KEY);
    }
}
