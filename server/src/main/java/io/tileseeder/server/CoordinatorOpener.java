package io.tileseeder.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.arc.DefaultBean;
import io.tileseeder.runtime.SeederConfig;
import io.tileseeder.runtime.distributed.ClusterSettings;
import io.tileseeder.runtime.settings.Settings;
import jakarta.inject.Singleton;

/** The coordinator application's engine: a distributed coordinator, the one mode an application without workers has. */
@DefaultBean
@Singleton
public class CoordinatorOpener implements EngineOpener {

    private final SeederConfig config;

    public CoordinatorOpener(SeederConfig config) {
        this.config = config;
    }

    @Override
    public Engine open(Settings settings, MeterRegistry registry) {
        if (config.mode() != SeederConfig.Mode.DISTRIBUTED) {
            throw new IllegalArgumentException("the coordinator runs in the distributed mode only: set "
                    + "SEEDER_MODE=distributed (the seeder command line runs the embedded mode)");
        }
        return Engine.coordinator(settings, ClusterSettings.from(config), registry);
    }
}
