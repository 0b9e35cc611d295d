package io.tileseeder.adapters.redis;

import io.tileseeder.port.DependencyUnavailableException;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisException;
import org.redisson.client.RedisNodeNotFoundException;
import org.redisson.client.RedisOutOfMemoryException;
import org.redisson.client.RedisReadonlyException;
import org.redisson.client.RedisReconnectedException;
import org.redisson.client.RedisRedirectException;
import org.redisson.client.RedisRetryException;
import org.redisson.client.RedisTimeoutException;

/**
 * Tells Redisson's failures that mean "Redis cannot serve now" from the others, by what they mean: a
 * connection that cannot be made or was lost, no answer in time, a failover or resharding in progress (a replica
 * refusing writes, a moved slot, a master down, a cluster down), a server still loading its data or out of memory.
 * Those pass; a caller that waits and tries again will succeed once Redis is back. Anything else — an error in a
 * script, a wrong type, bad credentials, a client that was shut down — is a bug or a configuration to fix.
 */
public final class RedisFailures {

    /**
     * Error codes Redis answers while it cannot serve, for when they reach the client only as a message (an error
     * raised by a command inside a script keeps its code but may come without its own exception class).
     */
    private static final List<String> UNAVAILABLE_CODES = List.of("LOADING", "READONLY", "MASTERDOWN", "CLUSTERDOWN",
            "TRYAGAIN", "MOVED", "ASK", "NOREPLICAS", "MISCONF", "BUSY", "OOM");

    /** What {@link DependencyUnavailableException}s from Redis adapters name. */
    public static final String REDIS = "Redis";

    private RedisFailures() {
    }

    /**
     * {@code failure} as a {@link DependencyUnavailableException} naming Redis when it means Redis cannot serve now
     * ({@link #unavailable}); otherwise {@code failure} itself.
     */
    public static RuntimeException classify(RuntimeException failure) {
        if (failure instanceof DependencyUnavailableException || !unavailable(failure)) {
            return failure;
        }
        return new DependencyUnavailableException(REDIS, "Redis cannot serve now: " + describe(failure), failure);
    }

    /** Whether {@code failure}, or a cause of it, says Redis cannot serve now. */
    public static boolean unavailable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RedisConnectionException || t instanceof RedisTimeoutException
                    || t instanceof RedisRetryException || t instanceof RedisRedirectException
                    || t instanceof RedisReadonlyException || t instanceof RedisNodeNotFoundException
                    || t instanceof RedisReconnectedException || t instanceof RedisOutOfMemoryException
                    || t instanceof IOException || t instanceof TimeoutException) {
                return true;
            }
            if (t instanceof RedisException && t.getMessage() != null && hasUnavailableCode(t.getMessage())) {
                return true;
            }
        }
        return false;
    }

    /** The innermost message, for one line in a log. */
    public static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return root == failure || failure.getMessage() == null ? message : failure.getMessage() + ": " + message;
    }

    private static boolean hasUnavailableCode(String message) {
        // e.g. "READONLY You can't write against a read only replica. script: ..., on @user_script:3."
        return UNAVAILABLE_CODES.stream().anyMatch(code -> message.startsWith(code + " "));
    }
}
