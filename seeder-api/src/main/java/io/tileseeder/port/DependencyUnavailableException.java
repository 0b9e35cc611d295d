package io.tileseeder.port;

import java.util.Objects;

/**
 * A dependency (Redis, Kafka, the object store, an upstream WMS) cannot be reached now, or answered that it
 * cannot serve now. Never the job's fault: whoever meets it backs off, keeps what it holds and tries again,
 * within the outage budget ({@code seeder.outage-budget}), instead of failing the job. Adapters throw it in
 * place of their client's connection and timeout errors, so the engines need not know any client library.
 */
public class DependencyUnavailableException extends RuntimeException {

    private final String dependency;

    /**
     * @param dependency what could not be reached, as an operator names it: {@code "Redis"}, {@code "Kafka"},
     *                   {@code "the tile store"}
     */
    public DependencyUnavailableException(String dependency, String message, Throwable cause) {
        super(message, cause);
        this.dependency = Objects.requireNonNull(dependency, "dependency");
    }

    public String dependency() {
        return dependency;
    }
}
