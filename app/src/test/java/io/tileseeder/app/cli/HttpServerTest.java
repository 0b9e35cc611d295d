package io.tileseeder.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which addresses count as this machine only, where {@code serve} may run without tokens. */
class HttpServerTest {

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({"127.0.0.1, true", "127.1.2.3, true", "::1, true", "localhost, true", "0.0.0.0, false",
            "::, false", "10.1.2.3, false", "192.168.0.1, false", "no-such-host.invalid, false"})
    void loopbackAddressesAreThisMachineOnly(String host, boolean loopback) {
        assertThat(HttpServer.loopback(host)).isEqualTo(loopback);
    }
}
