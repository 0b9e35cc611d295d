package io.tileseeder.worker.lock;

import io.tileseeder.port.DependencyUnavailableException;
import java.io.IOException;
import java.util.concurrent.TimeoutException;
import org.redisson.client.RedisBusyException;
import org.redisson.client.RedisClusterDownException;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisException;
import org.redisson.client.RedisLoadingException;
import org.redisson.client.RedisMasterDownException;
import org.redisson.client.RedisNoReplicasException;
import org.redisson.client.RedisNodeNotFoundException;
import org.redisson.client.RedisReadonlyException;
import org.redisson.client.RedisReconnectedException;
import org.redisson.client.RedisRedirectException;
import org.redisson.client.RedisRetryException;
import org.redisson.client.RedisTimeoutException;
import org.redisson.client.RedisTryAgainException;

/**
 * Tells Redis being unreachable for now (restarting, failing over, loading its data, cluster slots moving)
 * from errors that are not going to pass (a script's bug, bad data), so that the first become
 * {@link DependencyUnavailableException}s: a pause for whoever meets them, never a failed job.
 */
public final class RedisFailures {

    public static final String REDIS = "Redis";

    private RedisFailures() {
    }

    /** {@code e} as a {@link DependencyUnavailableException} when it means Redis is unavailable now; else {@code e}. */
    public static RuntimeException classify(RuntimeException e) {
        return transient_(e) ? new DependencyUnavailableException(REDIS, "Redis is unavailable: " + message(e), e) : e;
    }

    /** Whether {@code e}, or what it wraps, is Redis being unreachable or not serving for now. */
    public static boolean isTransient(Throwable e) {
        return transient_(e);
    }

    private static boolean transient_(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof DependencyUnavailableException
                    || t instanceof RedisConnectionException || t instanceof RedisTimeoutException
                    || t instanceof RedisRetryException || t instanceof RedisLoadingException
                    || t instanceof RedisTryAgainException || t instanceof RedisClusterDownException
                    || t instanceof RedisMasterDownException || t instanceof RedisReadonlyException
                    || t instanceof RedisNodeNotFoundException || t instanceof RedisReconnectedException
                    || t instanceof RedisRedirectException || t instanceof RedisBusyException
                    || t instanceof RedisNoReplicasException
                    || t instanceof IOException || t instanceof TimeoutException) {
                return true;
            }
            // A command cut off by a connection loss: Redisson says "Unexpected exception while processing command".
            if (t instanceof RedisException && t.getMessage() != null
                    && t.getMessage().startsWith("Unexpected exception while processing command")) {
                return true;
            }
        }
        return false;
    }

    private static String message(Throwable e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }
}
