package io.tileseeder.adapters;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The records one class's logger writes while this is open, for tests that check what is logged and at which
 * level. Records from any thread are kept.
 *
 * <pre>{@code
 * try (LoggedRecords logged = LoggedRecords.of(Finisher.class)) {
 *     ...
 *     assertThat(logged.records()).singleElement()...
 * }
 * }</pre>
 */
public final class LoggedRecords implements AutoCloseable {

    private final Logger logger;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord entry) {
            records.add(entry);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private LoggedRecords(Logger logger) {
        this.logger = logger;
        logger.addHandler(handler);
    }

    /** Starts keeping what the logger named after {@code type} writes. */
    public static LoggedRecords of(Class<?> type) {
        return new LoggedRecords(Logger.getLogger(type.getName()));
    }

    /** What was logged so far. */
    public List<LogRecord> records() {
        return List.copyOf(records);
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
