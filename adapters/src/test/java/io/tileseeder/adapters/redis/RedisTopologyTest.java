package io.tileseeder.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.adapters.redis.RedisTopology.Mode;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class RedisTopologyTest {

    @Test
    void aStandaloneUrlGivesItsServerCredentialsAndDatabase() {
        RedisTopology topology = RedisTopology.standalone("rediss://app:s%40cret@redis.example:6380/2");

        assertThat(topology.nodes()).containsExactly("rediss://redis.example:6380");
        assertThat(topology.username()).contains("app");
        assertThat(topology.password()).contains("s@cret");
        assertThat(topology.database()).isEqualTo(OptionalInt.of(2));
        assertThat(topology.toString()).doesNotContain("s@cret");
    }

    @Test
    void sentinelsDefaultToTheirPortAndNeedTheMastersName() {
        RedisTopology topology = RedisTopology.of(Mode.SENTINEL, "redis://:pw@s1, redis://s2:26380", "main");

        assertThat(topology.nodes()).containsExactly("redis://s1:26379", "redis://s2:26380");
        assertThat(topology.masterName()).contains("main");
        assertThat(topology.password()).contains("pw");
        assertThatThrownBy(() -> RedisTopology.of(Mode.SENTINEL, "redis://s1", " "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("master");
    }

    @Test
    void aClusterTakesSeveralNodesButNoDatabaseOrMasterName() {
        RedisTopology topology = RedisTopology.of(Mode.CLUSTER, "redis://n1:7000,redis://n2:7001", null);

        assertThat(topology.nodes()).containsExactly("redis://n1:7000", "redis://n2:7001");
        assertThatThrownBy(() -> RedisTopology.of(Mode.CLUSTER, "redis://n1:7000/3", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("database 0");
        assertThatThrownBy(() -> RedisTopology.of(Mode.CLUSTER, "redis://n1:7000", "main"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sentinel");
    }

    @Test
    void mistakesAreNamed() {
        assertThatThrownBy(() -> RedisTopology.standalone("redis://a:1,redis://b:2"))
                .hasMessageContaining("one address");
        assertThatThrownBy(() -> RedisTopology.standalone("http://a:1")).hasMessageContaining("redis://");
        assertThatThrownBy(() -> RedisTopology.of(Mode.CLUSTER, "redis://:a@n1,redis://:b@n2", null))
                .hasMessageContaining("passwords");
        assertThatThrownBy(() -> new RedisTopology(Mode.STANDALONE, List.of(), Optional.empty(), Optional.empty(),
                Optional.empty(), OptionalInt.empty())).hasMessageContaining("no Redis address");
    }
}
