package io.tileseeder.runtime.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
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
}
