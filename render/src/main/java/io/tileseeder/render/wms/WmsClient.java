package io.tileseeder.render.wms;

import io.tileseeder.layer.HttpSource;
import io.tileseeder.layer.TileSourceConfig;
import io.tileseeder.layer.WmsSourceConfig;
import io.tileseeder.outage.RetryPolicy;
import io.tileseeder.port.DependencyUnavailableException;
import io.tileseeder.port.UpstreamPermits;
import io.tileseeder.port.UpstreamPermits.Hold;
import io.tileseeder.port.UpstreamPermits.Permit;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Logger;
import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Asks upstream WMSes for images, and tile servers for tiles, with care: at most {@code maxPerUpstream} requests in
 * flight to one upstream ({@code host:port}) from this process, however many threads and layers ask, and at most
 * {@code clusterLimit} among all processes that share its {@link UpstreamPermits}; connections kept alive and
 * reused; connect and whole-request timeouts per layer; retries with exponential backoff and jitter on 5xx
 * answers, I/O errors, timeouts and truncated images, never on 4xx answers or ServiceExceptions. One per
 * process (pod).
 *
 * <p>Within the cap, an adaptive client sends as many requests at once as the upstream serves best
 * ({@link UpstreamWindow}): its window grows while the upstream's latency stays near its floor, shrinks when requests
 * queue at the server, and halves on timeouts, 5xx and 429 answers; a {@code Retry-After} on a 429 or 503 holds every
 * request of this process to that upstream until then (at most {@link #MAX_RETRY_AFTER}). A 429 is retried as a 503
 * is, and is an outage after the last try.
 *
 * <p>A place in the window, and a permit, are held only while a request is on the wire; a retry's backoff and the
 * decoding of the image happen outside them. The place is taken first, so a pod never asks for more permits than it
 * can use. A permit's lease is the layer's whole-request timeout plus {@link #LEASE_MARGIN}: no request outlives it.
 * Interrupting a caller cancels its request at once, however slow the upstream.
 */
public final class WmsClient {

    private static final Logger LOG = Logger.getLogger(WmsClient.class.getName());
    /** Retries back off from the layer's retryDelay, doubling, up to this. */
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);
    /** Bytes of a body beyond the image's raw size (an answer larger than raw ARGB plus this is refused). */
    private static final long BODY_MARGIN = 1 << 20;

    /** What a permit's lease adds to the request's own timeout, for the time to take and give back the permit. */
    static final Duration LEASE_MARGIN = Duration.ofSeconds(5);
    /** The longest a {@code Retry-After} holds this process's requests to an upstream. */
    static final Duration MAX_RETRY_AFTER = Duration.ofMinutes(5);
    /** Permits of a client that shares no limit with other processes: its window's pause is the only hold. */
    private static final UpstreamPermits UNSHARED = new UpstreamPermits() {
        @Override
        public Permit acquire(String upstream, int limit, Duration lease) {
            return () -> {
            };
        }

        @Override
        public void holdOff(String upstream, Instant until, String reason) {
        }

        @Override
        public Optional<Hold> hold(String upstream) {
            return Optional.empty();
        }
    };

    private final int maxPerUpstream;
    private final int clusterLimit;
    private final UpstreamPermits permits;
    private final boolean adaptive;
    private final OkHttpClient http;
    private final Map<String, Upstream> upstreams = new ConcurrentHashMap<>();
    private final Map<Duration, Map<Duration, OkHttpClient>> clients = new ConcurrentHashMap<>();

    /**
     * One upstream's window of requests in flight, and its counts: requests on the wire (with a permit), tries
     * answered and failed, and the time callers spent waiting for a place in the window and a permit.
     */
    private record Upstream(UpstreamWindow window, AtomicInteger onWire, LongAdder requests, LongAdder failures,
                            LongAdder waitNanos) {
    }

    /**
     * A client that sends at most {@code maxPerUpstream} requests at once to one upstream, always that many when it
     * has them, and shares no limit with other processes.
     */
    public WmsClient(int maxPerUpstream) {
        this(maxPerUpstream, maxPerUpstream, UNSHARED, false);
    }

    /**
     * @param maxPerUpstream requests in flight to one upstream at once, from this process, at most
     * @param clusterLimit   requests in flight to one upstream at once, among all processes sharing {@code permits}
     * @param permits        where the cluster's limit is kept
     * @param adaptive       whether this process's window looks for the upstream's best concurrency up to the
     *                       smaller limit ({@link UpstreamWindow}), or stays at it
     */
    public WmsClient(int maxPerUpstream, int clusterLimit, UpstreamPermits permits, boolean adaptive) {
        if (maxPerUpstream < 1) {
            throw new IllegalArgumentException("need at least one request per upstream, got " + maxPerUpstream);
        }
        if (clusterLimit < 1) {
            throw new IllegalArgumentException("need at least one request per upstream in the cluster, got "
                    + clusterLimit);
        }
        this.maxPerUpstream = maxPerUpstream;
        this.clusterLimit = clusterLimit;
        this.permits = Objects.requireNonNull(permits, "permits");
        this.adaptive = adaptive;
        // OkHttp itself retries a request whose connection failed, and follows redirects: the first is ours to
        // decide (with backoff), the second is what a browser or GeoWebCache would do too.
        this.http = new OkHttpClient.Builder()
                .retryOnConnectionFailure(false)
                .connectionPool(new ConnectionPool(Math.max(5, maxPerUpstream), 5, TimeUnit.MINUTES))
                .build();
    }

    public int maxPerUpstream() {
        return maxPerUpstream;
    }

    /** GetMap requests answered (each try counts), since start. */
    public long requests() {
        return upstreams.values().stream().mapToLong(upstream -> upstream.requests().sum()).sum();
    }

    /** Tries that failed (error status, not an image, I/O error), since start. */
    public long failures() {
        return upstreams.values().stream().mapToLong(upstream -> upstream.failures().sum()).sum();
    }

    /** GetMap requests answered by one upstream ({@code host:port}), since start. */
    public long requests(String upstream) {
        Upstream known = upstreams.get(upstream);
        return known == null ? 0 : known.requests().sum();
    }

    /** Tries to one upstream ({@code host:port}) that failed, since start. */
    public long failures(String upstream) {
        Upstream known = upstreams.get(upstream);
        return known == null ? 0 : known.failures().sum();
    }

    /** Requests of this process on the wire to one upstream now. */
    public int inFlight(String upstream) {
        Upstream known = upstreams.get(upstream);
        return known == null ? 0 : known.onWire().get();
    }

    /** Requests this process may send to one upstream at once now: its window. */
    public int window(String upstream) {
        Upstream known = upstreams.get(upstream);
        return known == null ? 0 : known.window().limit();
    }

    /** One upstream's recent latency, smoothed, in seconds; 0 before its first answer. */
    public double latencySeconds(String upstream) {
        Upstream known = upstreams.get(upstream);
        return known == null ? 0 : known.window().latencySeconds();
    }

    /** Seconds callers of this process spent waiting for a place and a permit to send to one upstream, since start. */
    public double waitSeconds(String upstream) {
        Upstream known = upstreams.get(upstream);
        return known == null ? 0 : known.waitNanos().sum() / 1e9;
    }

    private Upstream upstream(HttpSource source) {
        return upstreams.computeIfAbsent(source.upstream(), key -> {
            int max = Math.min(maxPerUpstream, clusterLimit);
            return new Upstream(adaptive ? UpstreamWindow.adaptive(max, System::nanoTime)
                    : UpstreamWindow.fixed(maxPerUpstream, System::nanoTime), new AtomicInteger(), new LongAdder(),
                    new LongAdder(), new LongAdder());
        });
    }

    /**
     * The decoded image of a GetMap, tried up to {@code 1 + source.retries()} times.
     *
     * @throws WmsException naming the upstream, the URL and what it answered instead of a {@code width × height}
     *                      image
     * @throws DependencyUnavailableException when the last try found the upstream unreachable or not serving
     *                                        (I/O error, timeout, 502, 503, 504): an outage, not the task's fault
     */
    public BufferedImage getMap(WmsSourceConfig source, HttpUrl url, int width, int height)
            throws WmsException, InterruptedException {
        return getMap(source, url, width, height, null);
    }

    /**
     * As {@link #getMap(WmsSourceConfig, HttpUrl, int, int)}, decoding into {@code into}'s pixels where the format
     * allows (an 8-bit RGB, RGBA or palette PNG); the returned image is then {@code into} itself.
     *
     * @param into a {@code TYPE_INT_ARGB} image of {@code width × height}, or null for a new image
     */
    public BufferedImage getMap(WmsSourceConfig source, HttpUrl url, int width, int height, BufferedImage into)
            throws WmsException, InterruptedException {
        String what = "WMS " + source.upstream() + " GetMap " + url;
        return get(source, url, what, "the WMS " + source.upstream(), imageLimit(width, height), answer ->
                WmsAnswer.image(what, answer.status(), answer.contentType(), answer.body(), width, height, into));
    }

    /**
     * A tile of a tile server, decoded, tried as a GetMap is; empty when it answers one of the source's
     * {@link TileSourceConfig#emptyStatuses} (no tile there), at once.
     *
     * @throws WmsException naming the upstream, the URL and what it answered instead of a tile of {@code size} px
     * @throws DependencyUnavailableException when the last try found the upstream unreachable or not serving
     */
    public Optional<UpstreamTile> getTile(TileSourceConfig source, HttpUrl url, int size)
            throws WmsException, InterruptedException {
        String what = "tile server " + source.upstream() + " tile " + url;
        return Optional.ofNullable(get(source, url, what, "the tile server " + source.upstream(),
                imageLimit(size, size), answer -> source.emptyStatuses().contains(answer.status()) ? null
                        : new UpstreamTile(WmsAnswer.image(what, answer.status(), answer.contentType(), answer.body(),
                        size, size, null), answer.body())));
    }

    /** A tile server's tile: its pixels, and its bytes as it answered them. */
    public record UpstreamTile(BufferedImage image, byte[] bytes) {
    }

    /**
     * A document of an upstream (a WMTS's capabilities), of at most {@code limit} bytes, tried as a GetMap is.
     *
     * @throws WmsException naming the upstream, the URL and the status when it does not answer 200
     * @throws DependencyUnavailableException when the last try found the upstream unreachable or not serving
     */
    public byte[] getDocument(HttpSource source, HttpUrl url, long limit) throws WmsException, InterruptedException {
        String what = source.upstream() + " " + url;
        return get(source, url, what, source.upstream(), limit, answer -> {
            if (answer.status() != 200) {
                int status = answer.status();
                throw new WmsException(what + " answered " + status, status >= 500 || status == 429,
                        status >= 502 && status <= 504 || status == 429, null);
            }
            return answer.body();
        });
    }

    private static long imageLimit(int width, int height) {
        return (long) width * height * 4 + BODY_MARGIN;
    }

    /** Reads an answer; may refuse it. */
    @FunctionalInterface
    private interface Reader<T> {
        T read(Answer answer) throws WmsException;
    }

    /** What {@code read} makes of the answer, tried up to {@code 1 + source.retries()} times. */
    private <T> T get(HttpSource source, HttpUrl url, String what, String dependency, long limit, Reader<T> read)
            throws WmsException, InterruptedException {
        RetryPolicy retry = new RetryPolicy(1 + source.retries(), source.retryDelay(),
                MAX_BACKOFF.compareTo(source.retryDelay()) > 0 ? MAX_BACKOFF : source.retryDelay());
        for (int attempt = 1; ; attempt++) {
            try {
                return read.read(once(source, url, what, limit));
            } catch (WmsException e) {
                upstream(source).failures().increment();
                if (!e.retryable() || attempt >= retry.maxAttempts()) {
                    WmsException last = attempt == 1 ? e
                            : new WmsException(e.getMessage() + " (after " + attempt + " tries)", false, e);
                    if (e.unreachable()) {
                        throw new DependencyUnavailableException(dependency, last.getMessage(), last);
                    }
                    throw last;
                }
                int tries = attempt;
                LOG.fine(() -> "try " + tries + " failed, trying again: " + e.getMessage());
                Thread.sleep(retry.backoff(attempt));
            }
        }
    }

    private Answer once(HttpSource source, HttpUrl url, String what, long limit)
            throws WmsException, InterruptedException {
        Upstream upstream = upstream(source);
        UpstreamWindow window = upstream.window();
        long asked = System.nanoTime();
        window.acquire();
        boolean learned = false;
        Duration lease = source.timeout().plus(LEASE_MARGIN);
        try (Permit permit = permits.acquire(source.upstream(), clusterLimit, lease)) {
            long sent = System.nanoTime();
            upstream.waitNanos().add(sent - asked);
            upstream.onWire().incrementAndGet();
            // The call runs on a virtual thread and this one waits for it: a platform thread blocked reading a
            // socket does not notice an interrupt, so a worker shutting down would wait out the layer's timeout.
            Call call = client(source).newCall(new Request.Builder().url(url).get().build());
            FutureTask<Answer> fetch = new FutureTask<>(() -> fetch(call, limit, what, upstream.requests()));
            Thread.ofVirtual().name("wms-getmap").start(fetch);
            Answer answer;
            try {
                answer = fetch.get();
            } catch (InterruptedException e) {
                call.cancel();
                throw new InterruptedException("interrupted during " + what);
            } finally {
                upstream.onWire().decrementAndGet();
            }
            learned = true;
            if (answer.status() == 429 || answer.status() >= 500) {
                // The hold first, then the place: a caller waiting for the place must find the hold.
                if (answer.status() == 429 || answer.status() == 503) {
                    answer.retryAfter(Instant.now()).ifPresent(until -> holdOff(source, window, until,
                            "answered HTTP " + answer.status() + " with Retry-After: " + answer.retryAfterHeader()));
                }
                window.overloaded();
            } else {
                window.answered(System.nanoTime() - sent, upstream.onWire().get() + 1);
            }
            return answer;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException && !(e.getCause() instanceof WmsException)) {
                // No answer in time, or a connection refused or reset: the upstream could not serve.
                learned = true;
                window.overloaded();
            }
            switch (e.getCause()) {
                case WmsException wms -> throw wms;
                case InterruptedIOException timeout -> throw new WmsException(what + " timed out (connect "
                        + source.connectTimeout().toMillis() + " ms, whole request " + source.timeout().toMillis()
                        + " ms): " + timeout.getMessage(), true, true, timeout);
                case IOException io -> throw new WmsException(what + " failed: " + io, true, true, io);
                case RuntimeException runtime -> throw runtime;
                case Error error -> throw error;
                default -> throw new IllegalStateException(e.getCause());
            }
        } finally {
            if (!learned) {
                window.release();
            }
        }
    }

    /**
     * Holds the requests to the upstream until {@code until}, at most {@link #MAX_RETRY_AFTER} ahead: this process's
     * at once, and every other's that shares the permits.
     */
    private void holdOff(HttpSource source, UpstreamWindow window, Instant until, String reason) {
        Instant now = Instant.now();
        Duration wait = Duration.between(now, until);
        Duration held = wait.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : wait;
        if (held.isPositive()) {
            LOG.info(() -> source.upstream() + " asked to wait " + held.toMillis() + " ms (Retry-After)");
            window.pauseUntil(System.nanoTime() + held.toNanos());
            permits.holdOff(source.upstream(), now.plus(held), reason);
        }
    }

    /** What came back, read whole (up to {@code limit} bytes), and its {@code Retry-After} if it has one. */
    private record Answer(int status, String contentType, byte[] body, String retryAfterHeader) {

        /** When the upstream asked to be asked again: {@code Retry-After} in seconds or as an HTTP date. */
        Optional<Instant> retryAfter(Instant now) {
            if (retryAfterHeader == null || retryAfterHeader.isBlank()) {
                return Optional.empty();
            }
            String value = retryAfterHeader.strip();
            try {
                return Optional.of(now.plusSeconds(Math.min(Math.max(0, Long.parseLong(value)),
                        MAX_RETRY_AFTER.toSeconds())));
            } catch (NumberFormatException notSeconds) {
                try {
                    return Optional.of(ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
                } catch (DateTimeParseException notADate) {
                    return Optional.empty();
                }
            }
        }
    }

    private Answer fetch(Call call, long limit, String what, LongAdder requests) throws IOException {
        try (Response response = call.execute()) {
            requests.increment();
            return new Answer(response.code(), response.header("Content-Type"), read(response.body(), limit, what),
                    response.header("Retry-After"));
        }
    }

    private static byte[] read(ResponseBody body, long limit, String what) throws IOException {
        long length = body.contentLength();
        if (length > limit) {
            throw new WmsException(what + " answered with " + length + " bytes, more than the " + limit
                    + " an image of that size may take", false, null);
        }
        try (InputStream in = body.byteStream()) {
            byte[] bytes = in.readNBytes((int) Math.min(limit + 1, Integer.MAX_VALUE - 8));
            if (bytes.length > limit) {
                throw new WmsException(what + " answered with more than the " + limit
                        + " bytes an image of that size may take", false, null);
            }
            return bytes;
        }
    }

    /** A client with the layer's timeouts, sharing this one's connection pool. */
    private OkHttpClient client(HttpSource source) {
        return clients.computeIfAbsent(source.connectTimeout(), c -> new ConcurrentHashMap<>())
                .computeIfAbsent(source.timeout(), t -> http.newBuilder()
                        .connectTimeout(source.connectTimeout())
                        .readTimeout(source.timeout())
                        .callTimeout(source.timeout())
                        .build());
    }
}
