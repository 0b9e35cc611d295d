package io.tileseeder.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.tileseeder.runtime.settings.Settings;

/**
 * Opens the engine of the configured mode for {@link Engines}: {@link CoordinatorOpener} unless the application
 * declares its own (the seeder command line's also opens the embedded mode, which needs the worker's classes).
 */
@FunctionalInterface
public interface EngineOpener {

    /** Opens and starts the engine; throws naming what is wrong with the settings. */
    Engine open(Settings settings, MeterRegistry registry);
}
