package io.tileseeder.app.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The refusals that happen before Quarkus REST sees a request, answered with problem+json like every other: a
 * request line or headers too long (414, 431), a body too large (413), a target that is not a URI (400), and a
 * failure no mapper handled (500).
 *
 * <p>Vert.x's HTTP decoder answers an over-long request line or header block itself, with an empty body, and offers
 * Quarkus no hook to shape that answer. So the decoder's limits ({@code quarkus.http.limits.max-initial-line-length},
 * {@code max-header-size}) are set well above the API's own, {@link #MAX_TARGET} and {@link #MAX_HEADERS}, which this
 * route enforces with a problem; only a request beyond the decoder's limits still gets its bare answer. The body
 * limit is Quarkus's {@code quarkus.http.limits.max-body-size}, checked here first for a body that declares its
 * length.
 */
@Singleton
public class HttpLimits {

    /** The longest request target (path and query) the API reads. */
    static final int MAX_TARGET = 8 * 1024;
    /** The most bytes of header names and values the API reads. */
    static final int MAX_HEADERS = 16 * 1024;

    private final ObjectMapper json;
    private final long maxBody;

    public HttpLimits(ObjectMapper json,
                      @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize maxBody) {
        this.json = json;
        this.maxBody = maxBody.asLongValue();
    }

    void routes(@Observes Router router) {
        int beforeQuarkusLimits = RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 1;
        router.route().order(beforeQuarkusLimits).handler(this::check);
        router.route().order(beforeQuarkusLimits).failureHandler(this::failed);
        // Failures before any route runs, such as a target that is not a valid URI (400).
        for (Response.Status status : Response.Status.values()) {
            if (status.getStatusCode() >= 400) {
                router.errorHandler(status.getStatusCode(), this::failed);
            }
        }
    }

    private void check(RoutingContext context) {
        int target = context.request().uri().length();
        if (target > MAX_TARGET) {
            answer(context, Response.Status.REQUEST_URI_TOO_LONG, "the request's path and query are " + target
                    + " characters long; the limit is " + MAX_TARGET);
            return;
        }
        long headers = context.request().headers().entries().stream()
                .mapToLong(header -> header.getKey().length() + header.getValue().length()).sum();
        if (headers > MAX_HEADERS) {
            answer(context, Response.Status.REQUEST_HEADER_FIELDS_TOO_LARGE, "the request's headers hold " + headers
                    + " characters; the limit is " + MAX_HEADERS);
            return;
        }
        String length = context.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null && length.matches("\\d{1,18}") && Long.parseLong(length) > maxBody) {
            context.response().putHeader(HttpHeaders.CONNECTION, "close");
            answer(context, Response.Status.REQUEST_ENTITY_TOO_LARGE, "the body is " + length
                    + " bytes; the limit is " + maxBody);
            return;
        }
        context.next();
    }

    /** A failure that reached the router: a status someone chose, or an error of the server's own. */
    private void failed(RoutingContext context) {
        if (context.response().headWritten()) {
            context.next();
            return;
        }
        Response.Status chosen = context.statusCode() >= 400 ? Response.Status.fromStatusCode(context.statusCode())
                : null;
        Response.Status status = chosen != null ? chosen : Response.Status.INTERNAL_SERVER_ERROR;
        answer(context, status, status == Response.Status.INTERNAL_SERVER_ERROR
                ? ProblemMappers.internalError(context.failure()) : status.getReasonPhrase());
    }

    private void answer(RoutingContext context, Response.Status status, String detail) {
        Problem problem = new Problem("about:blank", status.getReasonPhrase(), status.getStatusCode(), detail, null);
        String body;
        try {
            body = json.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a problem always serialises", e);
        }
        context.response().setStatusCode(status.getStatusCode()).putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                .end(body);
    }
}
