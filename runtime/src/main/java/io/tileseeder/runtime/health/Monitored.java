package io.tileseeder.runtime.health;

import java.util.List;
import java.util.Map;

/**
 * What health reports of a running engine or worker: the dependencies it needs, each with a quick check
 * (readiness: DOWN while one cannot be reached), and its own loops that died (liveness: DOWN, so that
 * Kubernetes restarts the pod instead of leaving a process that only logs).
 */
public interface Monitored {

    /** The names operators know them by. */
    String KAFKA = "Kafka";
    String REDIS = "Redis";
    String STORE = "store";

    /** A dependency's quick check: returns when it answers, throws naming what is wrong when it does not. */
    @FunctionalInterface
    interface Probe {
        void check() throws Exception;
    }

    /** The dependencies used, by name ({@link #KAFKA}, {@link #REDIS}, {@link #STORE}). */
    Map<String, Probe> dependencies();

    /** What of this process's own loops has stopped, e.g. "the Kafka task consumer: ..."; empty while all run. */
    List<String> deadLoops();
}
