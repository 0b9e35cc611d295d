package io.tileseeder.runtime.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.adapters.redis.RedisTopology;
import io.tileseeder.runtime.SeederConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Settings are read by their keys, and a value out of range is refused with its key named. */
class SettingsTest {

    @Test
    void modesAreReadAsWrittenInAnyCase() {
        SeederConfig config = Settings.declared(Map.of("seeder.mode", "Distributed", "seeder.redis.mode", "sentinel"));

        assertThat(config.mode()).isEqualTo(SeederConfig.Mode.DISTRIBUTED);
        assertThat(config.redis().mode()).isEqualTo(RedisTopology.Mode.SENTINEL);
        assertThat(Settings.declared(Map.of()).mode()).isEqualTo(SeederConfig.Mode.EMBEDDED);
    }

    @ParameterizedTest
    @CsvSource({"seeder.mode, cluster", "seeder.redis.mode, replicated"})
    void aModeThatIsNoneOfTheModesIsRefusedWithItsKey(String key, String value) {
        assertThatThrownBy(() -> Settings.declared(Map.of(key, value)))
                .hasMessageContaining(key).hasMessageContaining(value);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "seeder.limits.max-running-jobs | 0 | seeder.limits.max-running-jobs must be at least 1, not 0",
            "seeder.limits.max-queued-jobs | -1 | seeder.limits.max-queued-jobs must be at least 0, not -1",
            "seeder.limits.max-tiles-per-job | 3000000000 | seeder.limits.max-tiles-per-job must be at most 2147483647",
            "seeder.limits.max-coverage-vertices | 3 | seeder.limits.max-coverage-vertices must be at least 4",
            "seeder.workers.threads | 0 | seeder.workers.threads must be at least 1, not 0",
            "seeder.store.io-threads | 0 | seeder.store.io-threads must be at least 1, not 0",
            "seeder.workers.queue-capacity | 0 | seeder.workers.queue-capacity must be at least 1",
            "seeder.workers.lock-wait | 0s | seeder.workers.lock-wait must be at least 1ms, not 0s",
            "seeder.workers.drain-timeout | -1s | seeder.workers.drain-timeout must be at least 0s, not -1s",
            "seeder.wms.max-requests-per-upstream | 0 | seeder.wms.max-requests-per-upstream must be at least 1",
            "seeder.wms.cluster-requests-per-upstream | 0 | seeder.wms.cluster-requests-per-upstream must be at least 1",
            "seeder.outage-budget | 0s | seeder.outage-budget must be at least 1s, not 0s",
    })
    void aValueOutOfRangeIsRefusedWithItsKey(String key, String value, String message) {
        SeederConfig config = Settings.declared(Map.of(key, value));

        assertThatThrownBy(() -> Settings.from(config)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void theDefaultsMapAsDeclared() {
        Settings settings = Settings.from(Settings.declared(Map.of()));

        assertThat(settings.jobs().limits().maxTilesPerJob()).isEqualTo(100_000_000L);
        assertThat(settings.jobs().limits().maxCoverageVertices()).isEqualTo(100_000);
        assertThat(settings.workers().threads()).isEqualTo(2 * Settings.cores());
        assertThat(settings.workers().storeThreads()).isEqualTo(Math.max(8, 4 * Settings.cores()));
        assertThat(settings.workers().lockWait()).isEqualTo(Duration.ofSeconds(1));
        assertThat(settings.workers().wmsRequestsPerUpstream()).isEqualTo(4);
        assertThat(settings.workers().wmsClusterRequestsPerUpstream()).isEqualTo(16);
        assertThat(settings.workers().wmsAdaptive()).isTrue();
        assertThat(settings.outageBudget()).isEqualTo(Duration.ofMinutes(10));
    }
}
