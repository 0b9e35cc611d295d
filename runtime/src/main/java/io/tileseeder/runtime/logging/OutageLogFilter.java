package io.tileseeder.runtime.logging;

import io.quarkus.logging.LoggingFilter;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.regex.Pattern;
import org.jboss.logmanager.ExtLogRecord;

/**
 * No stack trace for an expected outage: a record (of this product or of a client library: Redisson's lock renewal,
 * say) whose exception comes from a dependency that cannot be reached is logged as one line, the cause's message
 * appended. The outage itself is reported once by {@link io.tileseeder.outage.Outages}, with its duration; these
 * lines are what each part met meanwhile. Any other exception keeps its stack trace.
 *
 * <p>A client library's line that repeats (the same logger and text, numbers aside: Kafka's "Connection to node 1
 * could not be established", once per reconnect attempt and client) is logged once per {@link #REPEATS} and dropped
 * in between. The product's own lines are never dropped.
 *
 * <p>Named {@value #NAME} for {@code quarkus.log.console.filter}.
 */
@LoggingFilter(name = OutageLogFilter.NAME)
public final class OutageLogFilter implements Filter {

    public static final String NAME = "outages";

    /** How long a client library's repeated line stays quiet after it was logged. */
    static final Duration REPEATS = Duration.ofMinutes(1);
    /** Loggers whose repeats are dropped: the clients of Kafka and Redis. */
    private static final List<String> CLIENTS = List.of("org.apache.kafka.", "org.redisson.");
    /** How many distinct repeated lines are remembered (the oldest forgotten first). */
    private static final int REMEMBERED = 512;
    private static final Pattern NUMBERS = Pattern.compile("-?\\d+");

    private final InstantSource clock;
    private final Map<String, Instant> lastLogged = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Instant> eldest) {
            return size() > REMEMBERED;
        }
    };

    public OutageLogFilter() {
        this(Clock.systemUTC());
    }

    OutageLogFilter(InstantSource clock) {
        this.clock = clock;
    }

    /** Causes, by class name, that mean a client lost or could not reach its server (not all are on every path). */
    private static final Set<String> UNREACHABLE = Set.of("org.redisson.client.RedisConnectionException",
            "org.redisson.client.RedisTimeoutException", "org.redisson.client.RedisResponseTimeoutException",
            "io.netty.channel.ConnectTimeoutException",
            "org.apache.kafka.common.errors.DisconnectException", "org.apache.kafka.common.errors.TimeoutException");

    @Override
    public boolean isLoggable(LogRecord record) {
        Throwable unreachable = unreachable(record.getThrown());
        if (unreachable != null && record instanceof ExtLogRecord ext) {
            ext.setMessage(ext.getFormattedMessage() + " (" + unreachable + ")", ExtLogRecord.FormatStyle.NO_FORMAT);
            ext.setParameters(null);
            ext.setThrown(null);
        }
        return !repeated(record);
    }

    /** Whether {@code record} is a client library's line logged less than {@link #REPEATS} ago. */
    private boolean repeated(LogRecord record) {
        String logger = record.getLoggerName();
        if (logger == null || CLIENTS.stream().noneMatch(logger::startsWith)) {
            return false;
        }
        String text = record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
        String key = logger + ' ' + NUMBERS.matcher(String.valueOf(text)).replaceAll("#");
        Instant now = clock.instant();
        synchronized (lastLogged) {
            Instant last = lastLogged.get(key);
            if (last != null && Duration.between(last, now).compareTo(REPEATS) < 0) {
                return true;
            }
            lastLogged.put(key, now);
            return false;
        }
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
