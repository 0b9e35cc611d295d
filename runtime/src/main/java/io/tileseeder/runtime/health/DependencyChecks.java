package io.tileseeder.runtime.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code /q/health/ready}: one check per dependency (Kafka, Redis, the tile store), DOWN while it does not answer,
 * UP with {@code used=false} in a mode that does not use it. {@code /q/health/live}: DOWN when one of the
 * process's own loops died (a Kafka consumer, a worker thread, the coordinator's housekeeping).
 */
@ApplicationScoped
public class DependencyChecks {

    private final Running running;

    public DependencyChecks(Running running) {
        this.running = running;
    }

    @Produces
    @Readiness
    HealthCheck kafka() {
        return () -> dependency(Monitored.KAFKA);
    }

    @Produces
    @Readiness
    HealthCheck redis() {
        return () -> dependency(Monitored.REDIS);
    }

    @Produces
    @Readiness
    HealthCheck store() {
        return () -> dependency(Monitored.STORE);
    }

    @Produces
    @Liveness
    HealthCheck loops() {
        return () -> {
            List<String> dead = running.monitored().map(Monitored::deadLoops).orElse(List.of());
            HealthCheckResponseBuilder response = HealthCheckResponse.named("loops").status(dead.isEmpty());
            for (int i = 0; i < dead.size(); i++) {
                response.withData("dead." + i, dead.get(i));
            }
            return response.build();
        };
    }

    private HealthCheckResponse dependency(String name) {
        HealthCheckResponseBuilder response = HealthCheckResponse.named(name);
        Optional<Monitored> started = running.monitored();
        if (started.isEmpty()) {
            return response.down().withData("reason", "not started yet").build();
        }
        Monitored.Probe probe = started.get().dependencies().get(name);
        if (probe == null) {
            return response.up().withData("used", false).build();
        }
        try {
            probe.check();
            return response.up().build();
        } catch (Exception e) {
            String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return response.down().withData("reason", message).build();
        }
    }
}
