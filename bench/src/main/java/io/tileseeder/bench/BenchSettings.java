package io.tileseeder.bench;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.tileseeder.app.Engines;
import io.tileseeder.app.SeederConfig;
import io.tileseeder.app.distributed.ClusterSettings;
import io.tileseeder.app.embedded.EngineSettings;
import java.time.Duration;

/**
 * The app's settings for the benchmark commands, which run without Quarkus: {@link SeederConfig} read by SmallRye
 * Config from {@code SEEDER_*} environment variables and {@code seeder.*} system properties, its defaults those of
 * the mapping, and converted by the app's own code. The only place the benchmarks touch the settings API.
 * Durations are read by Quarkus's converter, as in the app ({@code 15s}, {@code 10m}; plain SmallRye Config takes only
 * ISO-8601).
 */
final class BenchSettings {

    private BenchSettings() {
    }

    static EngineSettings engine() {
        return Engines.settings(config());
    }

    static ClusterSettings cluster() {
        return Engines.cluster(config());
    }

    private static SeederConfig config() {
        SmallRyeConfig config = new SmallRyeConfigBuilder().addDefaultSources()
                .withConverter(Duration.class, 200, new DurationConverter()).withMapping(SeederConfig.class).build();
        return config.getConfigMapping(SeederConfig.class);
    }
}
