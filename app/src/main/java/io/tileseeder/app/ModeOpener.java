package io.tileseeder.app;

import io.micrometer.core.instrument.MeterRegistry;
import io.tileseeder.runtime.SeederConfig;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.server.CoordinatorOpener;
import io.tileseeder.server.Engine;
import io.tileseeder.server.EngineOpener;
import jakarta.inject.Singleton;

/**
 * The seeder command line's engine, by {@code seeder.mode}: the embedded one, or a distributed coordinator as the
 * coordinator application opens it. Replaces the server's default {@link CoordinatorOpener}.
 */
@Singleton
public class ModeOpener implements EngineOpener {

    private final SeederConfig config;
    private final CoordinatorOpener coordinator;

    public ModeOpener(SeederConfig config) {
        this.config = config;
        this.coordinator = new CoordinatorOpener(config);
    }

    @Override
    public Engine open(Settings settings, MeterRegistry registry) {
        return config.mode() == SeederConfig.Mode.DISTRIBUTED
                ? coordinator.open(settings, registry)
                : Embedded.engine(settings, registry);
    }
}
