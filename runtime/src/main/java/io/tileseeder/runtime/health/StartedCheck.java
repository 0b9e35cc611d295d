package io.tileseeder.runtime.health;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code /q/health/ready}: UP once the process has started what it runs (a coordinator's engine, the embedded
 * engine or a worker), which includes having reached Kafka, Redis and the store in the distributed mode; DOWN before.
 */
@Readiness
@ApplicationScoped
public class StartedCheck implements HealthCheck {

    private final Running running;

    public StartedCheck(Running running) {
        this.running = running;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("engine").status(running.monitored().isPresent()).build();
    }
}
