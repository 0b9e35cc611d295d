package io.tileseeder.runtime.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import java.time.Instant;
import java.util.logging.Level;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

class OutageLogFilterTest {

    private final OutageLogFilter filter = new OutageLogFilter();

    @Test
    void anExceptionFromADependencyThatCannotBeReachedBecomesOneLineNamingTheCause() {
        ExtLogRecord record = new ExtLogRecord(Level.SEVERE, "Can't update locks %s expiration",
                ExtLogRecord.FormatStyle.PRINTF, "org.redisson.renewal.LockTask");
        record.setParameters(new Object[] {"[]"});
        record.setThrown(new IllegalStateException("Unexpected exception while processing command",
                new ConnectException("Connection refused")));

        assertThat(filter.isLoggable(record)).isTrue();

        assertThat(record.getThrown()).isNull();
        assertThat(record.getFormattedMessage()).isEqualTo("Can't update locks [] expiration "
                + "(java.net.ConnectException: Connection refused)");
    }

    @Test
    void anyOtherExceptionKeepsItsStackTrace() {
        IOException failure = new IOException("disk on fire");
        ExtLogRecord record = new ExtLogRecord(Level.SEVERE, "request failed", ExtLogRecord.FormatStyle.NO_FORMAT,
                "io.tileseeder");
        record.setThrown(failure);

        assertThat(filter.isLoggable(record)).isTrue();

        assertThat(record.getThrown()).isSameAs(failure);
        assertThat(record.getFormattedMessage()).isEqualTo("request failed");
    }

    @Test
    void aClientLibrarysRepeatedLineIsLoggedOncePerMinuteTheProductsEveryTime() {
        Instant[] now = {Instant.parse("2026-11-27T12:00:00Z")};
        OutageLogFilter quiet = new OutageLogFilter(() -> now[0]);

        assertThat(quiet.isLoggable(kafka("Connection to node 1 (/127.0.0.1:9092) could not be established."))).isTrue();
        now[0] = now[0].plusSeconds(1);
        assertThat(quiet.isLoggable(kafka("Connection to node -1 (/127.0.0.1:9093) could not be established.")))
                .isFalse();
        assertThat(quiet.isLoggable(kafka("Bootstrap broker 127.0.0.1:9092 disconnected"))).isTrue();
        ExtLogRecord own = new ExtLogRecord(Level.WARNING, "Redis is unavailable", ExtLogRecord.FormatStyle.NO_FORMAT,
                "io.tileseeder.outage.Outages");
        own.setLoggerName("io.tileseeder.outage.Outages");
        assertThat(quiet.isLoggable(own)).isTrue();
        assertThat(quiet.isLoggable(own)).isTrue();
        now[0] = now[0].plus(OutageLogFilter.REPEATS);
        assertThat(quiet.isLoggable(kafka("Connection to node 1 (/127.0.0.1:9092) could not be established."))).isTrue();
    }

    private static ExtLogRecord kafka(String message) {
        ExtLogRecord record = new ExtLogRecord(Level.WARNING, message, ExtLogRecord.FormatStyle.NO_FORMAT,
                "org.apache.kafka.clients.NetworkClient");
        record.setLoggerName("org.apache.kafka.clients.NetworkClient");
        return record;
    }
}
