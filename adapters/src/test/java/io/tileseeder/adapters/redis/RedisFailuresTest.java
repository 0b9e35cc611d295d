package io.tileseeder.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisException;
import org.redisson.client.RedisLoadingException;
import org.redisson.client.RedisMovedException;
import org.redisson.client.RedisNoScriptException;
import org.redisson.client.RedisResponseTimeoutException;
import org.redisson.client.RedisTryAgainException;
import org.redisson.misc.RedisURI;

class RedisFailuresTest {

    @Test
    void connectionTimeoutFailoverAndLoadingMeanUnavailable() {
        assertThat(RedisFailures.unavailable(new RedisConnectionException("Unable to connect"))).isTrue();
        assertThat(RedisFailures.unavailable(new RedisResponseTimeoutException("no answer"))).isTrue();
        assertThat(RedisFailures.unavailable(new RedisLoadingException("LOADING Redis is loading"))).isTrue();
        assertThat(RedisFailures.unavailable(new RedisTryAgainException("TRYAGAIN"))).isTrue();
        assertThat(RedisFailures.unavailable(new RedisMovedException(3999, new RedisURI("redis://127.0.0.1:7001"))))
                .isTrue();
        assertThat(RedisFailures.unavailable(new CompletionException(new RedisException(
                "Unexpected exception while processing command", new IOException("Connection reset by peer")))))
                .isTrue();
        assertThat(RedisFailures.unavailable(new RedisException("READONLY You can't write against a read only "
                + "replica. script: 1f0a, on @user_script:3."))).isTrue();
    }

    @Test
    void scriptErrorsBadDataAndConfigurationAreNot() {
        assertThat(RedisFailures.unavailable(new RedisException("ERR user_script:4: attempt to compare nil"))).isFalse();
        assertThat(RedisFailures.unavailable(new RedisException("WRONGTYPE Operation against a key holding the "
                + "wrong kind of value"))).isFalse();
        assertThat(RedisFailures.unavailable(new RedisNoScriptException("NOSCRIPT"))).isFalse();
        assertThat(RedisFailures.unavailable(new IllegalStateException("bad job data"))).isFalse();
    }

    @Test
    void aDescriptionNamesTheCause() {
        assertThat(RedisFailures.describe(new RedisException("Unexpected exception while processing command",
                new IOException("Connection reset by peer"))))
                .isEqualTo("Unexpected exception while processing command: Connection reset by peer");
        assertThat(RedisFailures.describe(new RedisConnectionException("Unable to connect to "
                + new InetSocketAddress("127.0.0.1", 1)))).startsWith("Unable to connect");
    }
}
