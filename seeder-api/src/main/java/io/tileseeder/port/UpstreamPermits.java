package io.tileseeder.port;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Permits to send one request to an upstream (a WMS, a tile server), shared by every process that sends to it: at
 * most {@code limit} requests to one upstream are in flight at once among them all, however many pods, threads and
 * layers ask.
 */
public interface UpstreamPermits {

    /**
     * Waits for a permit to send one request to {@code upstream}, and until any hold on it ({@link #holdOff}) ended.
     *
     * @param upstream what the limit is kept for (a {@code host:port})
     * @param limit    requests in flight to it at once, among all that share these permits; holders that ask with
     *                 different limits share nothing
     * @param lease    how long the permit lasts at most: a holder that dies without closing it gives it back then.
     *                 Longer than any request may take
     */
    Permit acquire(String upstream, int limit, Duration lease) throws InterruptedException;

    /**
     * Holds back every permit for {@code upstream}, in every process that shares these permits, until {@code until}:
     * the upstream asked to be left alone until then ({@code Retry-After}), {@code reason} says how. A later hold
     * lengthens an earlier one; a shorter one leaves it as it is. A hold that follows one without a break keeps its
     * {@link Hold#since}.
     */
    void holdOff(String upstream, Instant until, String reason);

    /** The hold on {@code upstream} now, if there is one, as far as this process knows (within a second or so). */
    Optional<Hold> hold(String upstream);

    /** An upstream held off: until when, since when without a break, and what the upstream answered. */
    record Hold(Instant until, Instant since, String reason) {
    }

    /** A request's place among those in flight to an upstream; closing it gives the place back. */
    interface Permit extends AutoCloseable {

        @Override
        void close();
    }
}
