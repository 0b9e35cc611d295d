package io.tileseeder.server.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import io.tileseeder.job.FieldError;
import io.tileseeder.job.IdempotencyConflictException;
import io.tileseeder.job.InvalidJobException;
import io.tileseeder.job.TooManyJobsException;
import io.tileseeder.job.UnknownJobException;
import io.tileseeder.port.DependencyUnavailableException;
import io.tileseeder.server.EngineNotStartedException;
import io.tileseeder.server.access.Roles;
import io.tileseeder.server.access.TokenIdentityProvider;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Every error the API returns is problem+json naming what is wrong; no stack trace reaches a client. */
public class ProblemMappers {

    /** What a 503 for an unreachable dependency asks clients to wait before they ask again. */
    private static final int RETRY_AFTER_SECONDS = 5;

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);
    private static final Response.StatusType UNPROCESSABLE = new Response.StatusType() {
        @Override
        public int getStatusCode() {
            return 422;
        }

        @Override
        public Response.Status.Family getFamily() {
            return Response.Status.Family.CLIENT_ERROR;
        }

        @Override
        public String getReasonPhrase() {
            return "Unprocessable Content";
        }
    };

    private final CurrentIdentityAssociation identity;

    public ProblemMappers(CurrentIdentityAssociation identity) {
        this.identity = identity;
    }

    /** An endpoint that needs a role was called without a token. */
    @ServerExceptionMapper
    public Response unauthorized(UnauthorizedException e) {
        return unauthorized("no bearer token");
    }

    /** The bearer token is not one of the tokens file's. */
    @ServerExceptionMapper
    public Response unauthenticated(AuthenticationFailedException e) {
        return unauthorized("unknown token");
    }

    /** A token whose role is not enough: only write endpoints refuse a valid token. */
    @ServerExceptionMapper
    public Uni<Response> forbidden(ForbiddenException e) {
        return identity.getDeferredIdentity().map(caller -> Problem.response(Response.Status.FORBIDDEN,
                "token '" + caller.getPrincipal().getName() + "' has role " + role(caller)
                        + "; submitting and cancelling need " + Roles.WRITE));
    }

    private static String role(SecurityIdentity caller) {
        String role = caller.getAttribute(TokenIdentityProvider.ROLE);
        return role != null ? role : String.join(",", caller.getRoles());
    }

    private static Response unauthorized(String detail) {
        return Response.fromResponse(Problem.response(Response.Status.UNAUTHORIZED, detail))
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer").build();
    }

    @ServerExceptionMapper
    public Response invalidJob(InvalidJobException e) {
        return Problem.response(Response.Status.BAD_REQUEST, e.getMessage(), e.errors());
    }

    @ServerExceptionMapper
    public Response starting(EngineNotStartedException e) {
        return Problem.response(Response.Status.SERVICE_UNAVAILABLE, e.getMessage());
    }

    /**
     * A dependency the coordinator needs for this request (Redis for job records) cannot be reached now: 503 with
     * {@code Retry-After}, which {@code seeder wait} and other clients take as "ask again", not as an answer.
     */
    @ServerExceptionMapper
    public Response unavailable(DependencyUnavailableException e) {
        Response problem = Problem.response(Response.Status.SERVICE_UNAVAILABLE, e.dependency()
                + " is unavailable; the job is kept, ask again shortly");
        return Response.fromResponse(problem).header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS).build();
    }

    @ServerExceptionMapper
    public Response tooMany(TooManyJobsException e) {
        return Problem.response(Response.Status.TOO_MANY_REQUESTS, e.getMessage());
    }

    @ServerExceptionMapper
    public Response unknownJob(UnknownJobException e) {
        return Problem.response(Response.Status.NOT_FOUND, e.getMessage());
    }

    @ServerExceptionMapper
    public Response idempotencyConflict(IdempotencyConflictException e) {
        return Problem.response(UNPROCESSABLE, e.getMessage(),
                List.of(new FieldError("Idempotency-Key", e.getMessage())));
    }

    /** Covers what Jackson throws while reading a body, wrapped by Quarkus REST or not. */
    @ServerExceptionMapper
    public Response unreadableJson(JsonProcessingException e) {
        FieldError error = JsonErrors.describe(e);
        return Problem.response(Response.Status.BAD_REQUEST, error.toString(), List.of(error));
    }

    /** More specific than Quarkus's own mapper for this type, so that it takes over. */
    @ServerExceptionMapper
    public Response mismatchedJson(MismatchedInputException e) {
        return unreadableJson(e);
    }

    /**
     * What Quarkus REST refuses before a method runs (no such path, another method, media types), and the
     * refusals the resources shape themselves (which carry their problem already). The path is shown as it was
     * sent: decoding it again may fail (a {@code %25} that decodes to a stray {@code %}).
     */
    @ServerExceptionMapper
    public Response web(WebApplicationException e, HttpServerRequest request) {
        if (e.getCause() instanceof JsonProcessingException json) {
            return unreadableJson(json);
        }
        Response refused = e.getResponse();
        if (refused.hasEntity()) {
            return refused;
        }
        Response.StatusType status = refused.getStatusInfo();
        String detail = switch (status.getStatusCode()) {
            case 404 -> "nothing at " + request.path();
            case 405 -> request.method().name() + " is not allowed on " + request.path();
            case 406 -> "the Accept header (" + request.getHeader(HttpHeaders.ACCEPT) + ") takes nothing "
                    + request.path() + " answers with";
            case 415 -> "the body must be application/json, not " + request.getHeader(HttpHeaders.CONTENT_TYPE);
            default -> status.getReasonPhrase();
        };
        return Problem.response(status, detail);
    }

    /** A failure of the server's own: a generic answer, the details in the log under an id the answer gives. */
    @ServerExceptionMapper
    public Response unexpected(Exception e) {
        return Problem.response(Response.Status.INTERNAL_SERVER_ERROR, internalError(e));
    }

    /** Logs {@code e} with a new error id and returns what a client may see of it. */
    static String internalError(Throwable e) {
        String id = UUID.randomUUID().toString();
        LOG.errorf(e, "request failed (error id %s)", id);
        return "internal error " + id + "; the server's log has the details";
    }
}
