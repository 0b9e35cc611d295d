package io.tileseeder.layer;

import java.time.Duration;

/** A source whose pixels come from an upstream over HTTP (a WMS, a tile server): how to call it. */
public interface HttpSource {

    /** The upstream as {@code host:port}: requests to it share one concurrency cap per pod. */
    String upstream();

    /** How long to wait for a connection. */
    Duration connectTimeout();

    /** How long a whole request may take, body included. */
    Duration timeout();

    /** Tries after the first on a 5xx answer, an I/O error, a timeout or a truncated image. */
    int retries();

    /** The wait before the first retry; it doubles with each further one, with jitter. */
    Duration retryDelay();

    /** {@code host:port} of an http(s) URL, the scheme's port if it names none. */
    static String upstreamOf(java.net.URI url) {
        int port = url.getPort() != -1 ? url.getPort() : "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
        return url.getHost() + ":" + port;
    }
}
