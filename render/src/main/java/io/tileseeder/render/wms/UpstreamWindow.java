package io.tileseeder.render.wms;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * How many requests this process sends to one upstream at once: a window between 1 and {@code max} that looks for
 * the concurrency at which the upstream serves the most, which nobody tells the seeder. Map rendering's throughput
 * grows with concurrency up to the server's cores, then stays flat while requests queue at the server, then falls
 * when the server thrashes.
 *
 * <ul>
 *   <li><b>The signal is the queue at the server</b> (TCP Vegas's): with {@code floor} the latency of the
 *       upstream when nothing queues and {@code latency} the recent one, {@code inFlight × (1 − floor / latency)} is
 *       about how many of this process's requests wait at the server. The window grows by one per window of answers
 *       while fewer than {@link #LOW_QUEUE} or {@link #QUEUE_SHARE} of those in flight seem to wait, and shrinks by
 *       one per window while one more than that does, so the server is kept just busy: its throughput without its
 *       collapse. The share is there because latencies vary with what is drawn: the floor, a minimum, lies below the
 *       mean latency of an idle server, which looks like a queue in proportion to the requests in flight.</li>
 *   <li><b>Latencies</b> are averaged over about the last fifty answers ({@link #SMOOTHING}); the floor is the
 *       lowest average of the last {@link #FLOOR_SAMPLES} answers, so it follows a layer whose areas cost more to
 *       draw (land after ocean) within that many answers.</li>
 *   <li><b>Start:</b> from one request, the window doubles with each window of answers (slow start) until the
 *       first sign of a queue in the average of the last few answers ({@link #RECENT_SMOOTHING}), or of trouble. It grows only while it is full: a process with fewer requests to send
 *       learns nothing about more.</li>
 *   <li><b>Trouble</b> (a timeout, a 5xx, a 429) halves the window, at most once per average latency, so one burst
 *       of failures halves it once. A {@code Retry-After} holds every request of this process until then
 *       ({@link #pauseUntil}).</li>
 *   <li>A fixed window ({@link #fixed}) never moves: {@code max} requests at once.</li>
 * </ul>
 */
final class UpstreamWindow {

    /** Requests queued at the server below which the window grows. */
    static final double LOW_QUEUE = 1;
    /** The share of the requests in flight that may seem queued before the window stops growing. */
    static final double QUEUE_SHARE = 0.2;
    /** Requests queued at the server beyond the growing threshold above which the window shrinks. */
    static final double HIGH_QUEUE = 2;
    /** Weight of a new answer's latency in the average: about the last fifty answers count. */
    static final double SMOOTHING = 0.02;
    /** Weight of a new answer in the average of the last few, which ends the slow start. */
    static final double RECENT_SMOOTHING = 0.25;
    /** Answers the floor is the lowest smoothed latency of. */
    static final int FLOOR_SAMPLES = 5000;
    private static final int FLOOR_BUCKETS = 10;

    private final int max;
    private final boolean adaptive;
    private final LongSupplier nanoTime;
    private double window;
    private boolean slowStart;
    private int inFlight;
    private double weighted;
    private double weights;
    private double smoothed = Double.NaN;
    private double recentWeighted;
    private double recentWeights;
    private final double[] bucketFloors = new double[FLOOR_BUCKETS];
    private int bucket;
    private int inBucket;
    private long answers;
    private long fullUntil;
    private boolean decreased;
    private long noDecreaseBefore;
    private boolean paused;
    private long pausedUntil;

    private UpstreamWindow(int max, boolean adaptive, LongSupplier nanoTime) {
        if (max < 1) {
            throw new IllegalArgumentException("need at least one request at once, got " + max);
        }
        this.max = max;
        this.adaptive = adaptive;
        this.nanoTime = nanoTime;
        this.window = adaptive ? 1 : max;
        this.slowStart = adaptive;
        Arrays.fill(bucketFloors, Double.POSITIVE_INFINITY);
    }

    /** A window that finds the upstream's best concurrency, at most {@code max}. */
    static UpstreamWindow adaptive(int max, LongSupplier nanoTime) {
        return new UpstreamWindow(max, true, nanoTime);
    }

    /** A window of {@code max} requests that never moves. */
    static UpstreamWindow fixed(int max, LongSupplier nanoTime) {
        return new UpstreamWindow(max, false, nanoTime);
    }

    /** Waits until a request may be sent: fewer than the window in flight, and no pause. */
    synchronized void acquire() throws InterruptedException {
        while (true) {
            long pause = paused ? pausedUntil - nanoTime.getAsLong() : 0;
            if (pause > 0) {
                TimeUnit.NANOSECONDS.timedWait(this, pause);
            } else if (inFlight < limit()) {
                if (++inFlight >= limit()) {
                    fullUntil = answers + limit();
                }
                return;
            } else {
                wait();
            }
        }
    }

    /** A request that ended without an answer worth learning from (interrupted, refused by the client itself). */
    synchronized void release() {
        inFlight--;
        notifyAll();
    }

    /**
     * A request answered in {@code latencyNanos}, as the upstream meant to (an image, a 4xx, a ServiceException),
     * while {@code onWire} requests of this process were at the upstream, this one with them (fewer than in the
     * window when some wait for a permit of the cluster's limit).
     */
    synchronized void answered(long latencyNanos, int onWire) {
        inFlight--;
        if (adaptive) {
            learn(latencyNanos, onWire);
        }
        notifyAll();
    }

    /** A request the upstream could not serve: timed out, or answered 5xx or 429. */
    synchronized void overloaded() {
        inFlight--;
        if (adaptive) {
            long now = nanoTime.getAsLong();
            slowStart = false;
            if (!decreased || now - noDecreaseBefore >= 0) {
                decreased = true;
                window = Math.max(1, window / 2);
                noDecreaseBefore = now + (long) (Double.isNaN(smoothed) ? 0 : smoothed);
            }
        }
        notifyAll();
    }

    /** Holds every request until {@code nanos} (a {@code Retry-After}); a later pause only lengthens it. */
    synchronized void pauseUntil(long nanos) {
        if (!paused || nanos - pausedUntil > 0) {
            pausedUntil = nanos;
        }
        paused = true;
        notifyAll();
    }

    /** Requests that may be in flight at once now. */
    synchronized int limit() {
        return Math.max(1, (int) Math.floor(window));
    }

    /** Requests holding a place in the window now (on the wire, or waiting for a permit). */
    synchronized int inFlight() {
        return inFlight;
    }

    /** The recent latency, smoothed, in seconds; 0 before the first answer. */
    synchronized double latencySeconds() {
        return Double.isNaN(smoothed) ? 0 : smoothed / 1e9;
    }

    /** The latency when nothing queues, as far as seen, in seconds; 0 before the first answer. */
    synchronized double floorSeconds() {
        double floor = floor();
        return Double.isInfinite(floor) ? 0 : floor / 1e9;
    }

    private double floor() {
        double floor = Double.POSITIVE_INFINITY;
        for (double each : bucketFloors) {
            floor = Math.min(floor, each);
        }
        return floor;
    }

    /** Learns from an answer that came while {@code busy} requests were in flight, this one with them. */
    private void learn(long latencyNanos, int busy) {
        answers++;
        // An average that weighs recent answers more, corrected for its start (as Adam's moments are), so its first
        // values are the plain mean of the answers so far rather than the first answer's latency alone.
        weighted = weighted * (1 - SMOOTHING) + SMOOTHING * latencyNanos;
        weights = weights * (1 - SMOOTHING) + SMOOTHING;
        smoothed = weighted / weights;
        recentWeighted = recentWeighted * (1 - RECENT_SMOOTHING) + RECENT_SMOOTHING * latencyNanos;
        recentWeights = recentWeights * (1 - RECENT_SMOOTHING) + RECENT_SMOOTHING;
        if (++inBucket > FLOOR_SAMPLES / FLOOR_BUCKETS) {
            bucket = (bucket + 1) % FLOOR_BUCKETS;
            bucketFloors[bucket] = Double.POSITIVE_INFINITY;
            inBucket = 1;
        }
        bucketFloors[bucket] = Math.min(bucketFloors[bucket], smoothed);
        double queued = busy * (1 - floor() / smoothed);
        double low = Math.max(LOW_QUEUE, QUEUE_SHARE * busy);
        if (slowStart && busy * (1 - floor() / (recentWeighted / recentWeights)) >= low) {
            // Doubling outruns the average of fifty answers: the last few tell when a queue begins.
            slowStart = false;
        }
        if (queued < low) {
            // Only a full window tells whether more would be served: a process with fewer requests to send
            // learns nothing about more, and its window stays (as TCP's does when the sender has no more data).
            if (answers <= fullUntil) {
                window = Math.min(max, window + (slowStart ? 1 : 1 / window));
            }
        } else {
            slowStart = false;
            if (queued > low + HIGH_QUEUE - LOW_QUEUE) {
                window = Math.max(1, window - 1 / window);
            }
        }
    }
}
