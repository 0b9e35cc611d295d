package io.tileseeder.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link RedisJobKeys}: one hash tag per job, one for the indexes, and no prefix that would move them. */
class RedisJobKeysTest {

    private final RedisJobKeys keys = RedisJobKeys.of("seeder:");

    @Test
    void aJobsKeysShareTheHashTagOfItsId() {
        RedisJobKeys.Job job = keys.job("job-1");
        assertThat(job.all()).containsExactly("seeder:job:{job-1}", "seeder:job:{job-1}:done",
                "seeder:job:{job-1}:failures");
        assertThat(job.hashes()).containsExactly("seeder:job:{job-1}", "seeder:job:{job-1}:failures");
    }

    @Test
    void theIndexesShareOneHashTag() {
        assertThat(List.of(keys.jobs(), keys.unfinished(), keys.outbox())).containsExactly(
                "seeder:{index}:jobs", "seeder:{index}:unfinished", "seeder:{index}:outbox");
        assertThat(keys.idempotency("abc")).isEqualTo("seeder:idem:abc");
    }

    @Test
    void aKeyPrefixWithBracesIsRefused() {
        assertThatThrownBy(() -> RedisJobKeys.of("seeder:{x}:")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("braces");
    }
}
