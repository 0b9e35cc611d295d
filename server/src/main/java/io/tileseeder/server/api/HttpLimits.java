package io.tileseeder.server.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http.HttpObjectDecoder;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.impl.RoutingContextInternal;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.Locale;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The refusals that happen before Quarkus REST sees a request, answered with problem+json like every other: a
 * request line or headers too long (414, 431), a target that is not a URI (400), a body too large (413) or one that
 * stops arriving (408), and a failure no mapper handled (500). A client that goes away mid-request is told nothing
 * (there is no one to tell) and logged at DEBUG: it is not the server's failure.
 *
 * <p>Vert.x's HTTP decoder answers an over-long request line or header block itself, with an empty body, and offers
 * Quarkus no hook to shape that answer. So the decoder's limits ({@code quarkus.http.limits.max-initial-line-length},
 * {@code max-header-size}) are set well above the API's own, {@link #MAX_TARGET} and {@link #MAX_HEADERS}, which this
 * route enforces with a problem; only a request beyond the decoder's limits still gets its bare answer.
 *
 * <p>Quarkus refuses a target that is not a URI with a bare 400 before any route runs, unless the system property
 * {@value #NO_BARE_URI_CHECK} is set (each application's main sets it before Quarkus starts); this route makes the same
 * check ({@link URI}'s parser), first, and answers it with a problem.
 *
 * <p>Bodies are read here, whole, before Quarkus REST runs: up to {@code quarkus.http.limits.max-body-size} whether
 * their length is declared or they come chunked, and no longer than {@code quarkus.http.read-timeout} without a byte.
 * Forms and HTTP/2 bodies are left to Quarkus REST (it refuses forms with 415); only their declared length is checked
 * here.
 */
@Singleton
public class HttpLimits {

    /** The longest request target (path and query) the API reads. */
    static final int MAX_TARGET = 8 * 1024;
    /** The most bytes of header names and values the API reads. */
    static final int MAX_HEADERS = 16 * 1024;
    /** Quarkus's switch for its own check of the request target. */
    public static final String NO_BARE_URI_CHECK = "vertx.disableURIValidation";

    private static final Logger LOG = Logger.getLogger(HttpLimits.class);
    /** The timer that watches a body being read, under this key of the request's context. */
    private static final String BODY_WATCH = HttpLimits.class.getName() + ".bodyWatch";

    private final ObjectMapper json;
    private final Vertx vertx;
    private final long maxBody;
    private final long readTimeoutMillis;
    private final BodyHandler bodies;

    public HttpLimits(ObjectMapper json, Vertx vertx,
                      @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize maxBody,
                      @ConfigProperty(name = "quarkus.http.read-timeout") Duration readTimeout) {
        this.json = json;
        this.vertx = vertx;
        this.maxBody = maxBody.asLongValue();
        this.readTimeoutMillis = Math.max(1, readTimeout.toMillis());
        this.bodies = BodyHandler.create(false).setBodyLimit(this.maxBody);
    }

    void routes(@Observes Router router) {
        // The target first: Quarkus's own routes decode the path before the routes of the default order run.
        router.route().order(Integer.MIN_VALUE).handler(this::checkTarget);
        int beforeQuarkusLimits = RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 1;
        router.route().order(beforeQuarkusLimits).handler(this::checkHeadersAndReadBody);
        router.route().order(beforeQuarkusLimits).handler(this::bodyRead);
        router.route().order(beforeQuarkusLimits).failureHandler(this::failed);
        // Failures before any route runs.
        for (Response.Status status : Response.Status.values()) {
            if (status.getStatusCode() >= 400) {
                router.errorHandler(status.getStatusCode(), this::failed);
            }
        }
    }

    private void checkTarget(RoutingContext context) {
        String target = context.request().uri();
        if (target.length() > MAX_TARGET) {
            answer(context, Response.Status.REQUEST_URI_TOO_LONG, "the request's path and query are "
                    + target.length() + " characters long; the limit is " + MAX_TARGET);
            return;
        }
        try {
            new URI(target);
        } catch (URISyntaxException e) {
            answer(context, Response.Status.BAD_REQUEST, "the request's path and query are not a URI: "
                    + e.getReason() + " at character " + e.getIndex());
            return;
        }
        context.next();
    }

    private void checkHeadersAndReadBody(RoutingContext context) {
        long headers = context.request().headers().entries().stream()
                .mapToLong(header -> header.getKey().length() + header.getValue().length()).sum();
        if (headers > MAX_HEADERS) {
            answer(context, Response.Status.REQUEST_HEADER_FIELDS_TOO_LARGE, "the request's headers hold " + headers
                    + " characters; the limit is " + MAX_HEADERS);
            return;
        }
        String length = context.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null && length.matches("\\d{1,18}") && Long.parseLong(length) > maxBody) {
            answerTooLarge(context);
            return;
        }
        if (!hasBody(context.request(), length) || isForm(context.request())
                || context.request().version() == HttpVersion.HTTP_2) {
            // The API reads JSON only: Quarkus REST refuses a form (415) before reading it, and Vert.x's body
            // handler would decode one. An HTTP/2 body (never chunked) is left to Quarkus REST too: it pauses the
            // request before it reads, which Vert.x refuses for an HTTP/2 request whose body was read already.
            context.next();
            return;
        }
        context.put(BODY_WATCH, watchBody(context));
        bodies.handle(context);
    }

    /**
     * After Vert.x's body handler: the body is read, so its watch ends. A body that came empty (chunked, with no data)
     * gets an empty buffer: the body handler leaves none, and Quarkus REST would then wait to read one from a request
     * that has ended.
     */
    private void bodyRead(RoutingContext context) {
        Long watch = context.get(BODY_WATCH);
        if (watch != null) {
            vertx.cancelTimer(watch);
            if (context.body().buffer() == null) {
                ((RoutingContextInternal) context).setBody(Buffer.buffer());
            }
        }
        context.next();
    }

    /**
     * Whether the request says a body follows: chunked, or a {@code length} (its Content-Length) above 0. A request without one is left paused as
     * it comes (Quarkus pauses every request), so it is not watched: its end is never read.
     */
    private static boolean hasBody(HttpServerRequest request, String length) {
        return request.headers().contains(HttpHeaders.TRANSFER_ENCODING)
                || length != null && !length.strip().matches("0+");
    }

    private static boolean isForm(HttpServerRequest request) {
        String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
        String lower = type == null ? "" : type.toLowerCase(Locale.ROOT);
        return lower.startsWith("multipart/") || lower.startsWith("application/x-www-form-urlencoded");
    }

    /** Answers 408 when no byte of the body came for the read timeout; returns the watching timer's id. */
    private long watchBody(RoutingContext context) {
        HttpServerRequest request = context.request();
        long[] seen = {request.bytesRead()};
        long timer = vertx.setPeriodic(readTimeoutMillis, id -> {
            long read = request.bytesRead();
            if (context.response().headWritten()) {
                vertx.cancelTimer(id);
            } else if (read == seen[0]) {
                vertx.cancelTimer(id);
                answerAndClose(context, Response.Status.REQUEST_TIMEOUT, "the request's body stopped arriving after "
                        + read + " bytes: nothing came for " + readTimeoutMillis + " ms");
            }
            seen[0] = read;
        });
        context.addEndHandler(done -> vertx.cancelTimer(timer));
        return timer;
    }

    /** A failure that reached the router: a status someone chose, a malformed request, or the server's own error. */
    private void failed(RoutingContext context) {
        HttpServerResponse response = context.response();
        Throwable failure = context.failure();
        if (response.closed() || response.headWritten() || clientWentAway(failure)) {
            LOG.debugf("%s %s ended early: %s", context.request().method(), context.request().path(),
                    failure != null ? failure.toString() : "the connection closed");
            if (!response.closed() && !response.ended()) {
                context.request().connection().close();
            }
            return;
        }
        if (context.statusCode() < 400 && malformed(failure)) {
            LOG.debugf("%s %s is not well-formed HTTP: %s", context.request().method(), context.request().path(),
                    failure.toString());
            answerAndClose(context, Response.Status.BAD_REQUEST, "the request is not well-formed HTTP: "
                    + failure.getMessage());
            return;
        }
        Response.Status chosen = context.statusCode() >= 400 ? Response.Status.fromStatusCode(context.statusCode())
                : null;
        Response.Status status = chosen != null ? chosen : Response.Status.INTERNAL_SERVER_ERROR;
        if (status == Response.Status.REQUEST_ENTITY_TOO_LARGE) {
            answerTooLarge(context);
        } else {
            answer(context, status, status == Response.Status.INTERNAL_SERVER_ERROR
                    ? ProblemMappers.internalError(failure) : status.getReasonPhrase());
        }
    }

    /** Whether {@code failure} is the client closing its connection (or breaking it) before it was answered. */
    static boolean clientWentAway(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof HttpClosedException || cause instanceof ClosedChannelException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code failure} is Netty's HTTP decoder refusing what the client sent (bad chunking, say): it passes
     * on the exception it raised, not always wrapped in a {@link DecoderException}.
     */
    static boolean malformed(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            StackTraceElement[] stack = cause.getStackTrace();
            if (cause instanceof DecoderException
                    || stack.length > 0 && stack[0].getClassName().startsWith(HttpObjectDecoder.class.getName())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Answers a request whose body is not read to its end, and closes the connection: what is left of that body would
     * otherwise be read as the next request.
     */
    private void answerAndClose(RoutingContext context, Response.Status status, String detail) {
        context.response().putHeader(HttpHeaders.CONNECTION, "close");
        answer(context, status, detail).onComplete(written -> context.request().connection().close());
    }

    /**
     * Answers a body over the limit. Vert.x reads the rest of the body before it closes the connection, so that the
     * client, still sending, gets to read the answer; it closes it anyway after the read timeout.
     */
    private void answerTooLarge(RoutingContext context) {
        context.response().putHeader(HttpHeaders.CONNECTION, "close");
        answer(context, Response.Status.REQUEST_ENTITY_TOO_LARGE, "the body is larger than the limit of " + maxBody
                + " bytes").onComplete(written -> vertx.setTimer(readTimeoutMillis,
                        id -> context.request().connection().close()));
    }

    private Future<Void> answer(RoutingContext context, Response.Status status, String detail) {
        Problem problem = new Problem("about:blank", status.getReasonPhrase(), status.getStatusCode(), detail, null);
        String body;
        try {
            body = json.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a problem always serialises", e);
        }
        return context.response().setStatusCode(status.getStatusCode())
                .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE).end(body);
    }
}
