package io.tileseeder.adapters.s3;

import io.tileseeder.outage.RetryPolicy;
import io.tileseeder.port.Layout;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of an {@link S3TileStore}.
 *
 * @param maxInFlight    the most requests in flight at once (PUTs, look-ups, deletes), for all callers together
 * @param retry          how failed requests are retried
 * @param cacheControl   the Cache-Control header of stored tiles and documents
 * @param connectTimeout how long to wait for a TCP connection
 * @param requestTimeout how long a read or write on a connection may stall
 * @param ensureBucket   whether the constructor checks that the bucket exists (creating it if not); off only to
 *                       build a store without contacting the server
 * @param tcpNoDelay     TCP_NODELAY on the sockets; off only to measure what it is worth
 * @param publicUrl      where clients read the store's root ({@link S3TileStore#publicUrl}); null: the endpoint's
 *                       path-style URL of the bucket and prefix
 * @param layout         how the objects of tiles are named below the prefix
 */
public record S3Options(int maxInFlight, RetryPolicy retry, String cacheControl, Duration connectTimeout,
                        Duration requestTimeout, boolean ensureBucket, boolean tcpNoDelay, String publicUrl,
                        Layout layout) {

    public static final int DEFAULT_MAX_IN_FLIGHT = 32;
    public static final String DEFAULT_CACHE_CONTROL = "public, max-age=86400";

    public S3Options {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight must be at least 1, not " + maxInFlight);
        }
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(cacheControl, "cacheControl");
        if (cacheControl.isBlank() || cacheControl.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new IllegalArgumentException("invalid Cache-Control value '" + cacheControl + "'");
        }
        if (connectTimeout.isNegative() || connectTimeout.isZero() || requestTimeout.isNegative()
                || requestTimeout.isZero()) {
            throw new IllegalArgumentException("timeouts must be positive: " + connectTimeout + ", "
                    + requestTimeout);
        }
    }

    /**
     * 32 in flight, {@link RetryPolicy#DEFAULT}, {@code public, max-age=86400}, 5 s to connect, 60 s stalls, the xyz
     * layout.
     */
    public static S3Options defaults() {
        return new S3Options(DEFAULT_MAX_IN_FLIGHT, RetryPolicy.DEFAULT, DEFAULT_CACHE_CONTROL,
                Duration.ofSeconds(5), Duration.ofSeconds(60), true, true, null, Layout.XYZ);
    }

    public S3Options withMaxInFlight(int value) {
        return new S3Options(value, retry, cacheControl, connectTimeout, requestTimeout, ensureBucket, tcpNoDelay,
                publicUrl, layout);
    }

    public S3Options withRetry(RetryPolicy value) {
        return new S3Options(maxInFlight, value, cacheControl, connectTimeout, requestTimeout, ensureBucket,
                tcpNoDelay, publicUrl, layout);
    }

    public S3Options withCacheControl(String value) {
        return new S3Options(maxInFlight, retry, value, connectTimeout, requestTimeout, ensureBucket, tcpNoDelay,
                publicUrl, layout);
    }

    public S3Options withEnsureBucket(boolean value) {
        return new S3Options(maxInFlight, retry, cacheControl, connectTimeout, requestTimeout, value, tcpNoDelay,
                publicUrl, layout);
    }

    public S3Options withPublicUrl(String value) {
        return new S3Options(maxInFlight, retry, cacheControl, connectTimeout, requestTimeout, ensureBucket,
                tcpNoDelay, value, layout);
    }

    public S3Options withLayout(Layout value) {
        return new S3Options(maxInFlight, retry, cacheControl, connectTimeout, requestTimeout, ensureBucket,
                tcpNoDelay, publicUrl, value);
    }
}
