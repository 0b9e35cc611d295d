package io.tileseeder.runtime.logging;

import io.quarkus.logging.LoggingFilter;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.util.Set;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import org.jboss.logmanager.ExtLogRecord;

/**
 * No stack trace for an expected outage: a record (of this product or of a client library: Redisson's lock renewal,
 * say) whose exception comes from a dependency that cannot be reached is logged as one line, the cause's message
 * appended. The outage itself is reported once by {@link io.tileseeder.outage.Outages}, with its duration; these
 * lines are what each part met meanwhile. Any other exception keeps its stack trace.
 *
 * <p>Named {@value #NAME} for {@code quarkus.log.console.filter}.
 */
@LoggingFilter(name = OutageLogFilter.NAME)
public final class OutageLogFilter implements Filter {

    public static final String NAME = "outages";

    /** Causes, by class name, that mean a client lost or could not reach its server (not all are on every path). */
    private static final Set<String> UNREACHABLE = Set.of("org.redisson.client.RedisConnectionException",
            "org.redisson.client.RedisTimeoutException", "io.netty.channel.ConnectTimeoutException",
            "org.apache.kafka.common.errors.DisconnectException", "org.apache.kafka.common.errors.TimeoutException");

    @Override
    public boolean isLoggable(LogRecord record) {
        Throwable unreachable = unreachable(record.getThrown());
        if (unreachable != null && record instanceof ExtLogRecord ext) {
            ext.setMessage(ext.getFormattedMessage() + " (" + unreachable + ")", ExtLogRecord.FormatStyle.NO_FORMAT);
            ext.setParameters(null);
            ext.setThrown(null);
        }
        return true;
    }

    /** The cause in {@code thrown}'s chain that says the server could not be reached, or null. */
    static Throwable unreachable(Throwable thrown) {
        for (Throwable cause = thrown; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof ConnectException || cause instanceof NoRouteToHostException
                    || cause instanceof UnknownHostException || cause instanceof ClosedChannelException
                    || UNREACHABLE.contains(cause.getClass().getName())) {
                return cause;
            }
        }
        return null;
    }
}
