package io.tileseeder.app;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code /q/health/ready}: UP once the command has started its engine (a coordinator's, or a worker's), which
 * includes having reached Kafka, Redis and the store in the distributed mode; DOWN before.
 */
@Readiness
@ApplicationScoped
public class EngineReadiness implements HealthCheck {

    private final Engines engines;

    public EngineReadiness(Engines engines) {
        this.engines = engines;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("engine").status(engines.running()).build();
    }
}
