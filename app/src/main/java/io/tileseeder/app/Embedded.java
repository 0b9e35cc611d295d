package io.tileseeder.app;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.runtime.worker.WorkerRole;
import io.tileseeder.server.Engine;

/** The embedded mode: the coordinator and the worker's pipeline in this JVM, on the in-process adapters. */
public final class Embedded {

    private Embedded() {
    }

    /** The embedded engine, with meters of its own (nobody scrapes them). */
    public static Engine engine(Settings settings) {
        return engine(settings, new SimpleMeterRegistry());
    }

    /** The embedded engine, its meters (the coordinator's and the pipeline's) in {@code registry}. */
    public static Engine engine(Settings settings, MeterRegistry registry) {
        return Engine.embedded(settings, registry,
                (adapters, layers) -> new WorkerRole(adapters, layers, settings, registry));
    }
}
