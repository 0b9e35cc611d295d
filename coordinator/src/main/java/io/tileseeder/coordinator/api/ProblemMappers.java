package io.tileseeder.coordinator.api;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import io.tileseeder.coordinator.access.Roles;
import io.tileseeder.coordinator.access.TokenIdentityProvider;
import io.tileseeder.coordinator.job.TooManyJobsException;
import io.tileseeder.job.FieldError;
import io.tileseeder.job.InvalidJobException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Every error the API returns is problem+json naming what is wrong; no stack trace reaches a client. */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

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
    public Response tooMany(TooManyJobsException e) {
        return Problem.response(Response.Status.TOO_MANY_REQUESTS, e.getMessage());
    }

    @ServerExceptionMapper
    public Response malformedJson(JsonParseException e) {
        return Problem.response(Response.Status.BAD_REQUEST, "malformed JSON: " + e.getOriginalMessage(),
                List.of(new FieldError("body", "malformed JSON at line " + e.getLocation().getLineNr()
                        + ", column " + e.getLocation().getColumnNr() + ": " + e.getOriginalMessage())));
    }

    /** More specific than {@link #wrongJson}, so it takes over from Quarkus's own mapper for this type. */
    @ServerExceptionMapper
    public Response mismatchedJson(MismatchedInputException e) {
        return wrongJson(e);
    }

    @ServerExceptionMapper
    public Response wrongJson(JsonMappingException e) {
        String field = e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
        String reason = e instanceof UnrecognizedPropertyException unknown
                ? "unknown field; known fields: " + unknown.getKnownPropertyIds()
                : e.getOriginalMessage().replaceAll(" \\(class [^)]*\\)", "");
        FieldError error = new FieldError(field.isEmpty() ? "body" : field, reason);
        return Problem.response(Response.Status.BAD_REQUEST, error.toString(), List.of(error));
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e) {
        Response.Status status = Response.Status.fromStatusCode(e.getResponse().getStatus());
        if (status == null) {
            status = Response.Status.INTERNAL_SERVER_ERROR;
        }
        if (e.getCause() instanceof JsonParseException parse) {
            return malformedJson(parse);
        }
        if (e.getCause() instanceof JsonMappingException mapping) {
            return wrongJson(mapping);
        }
        return Problem.response(status, e.getMessage());
    }

    @ServerExceptionMapper
    public Response unexpected(RuntimeException e) {
        LOG.error("request failed", e);
        return Problem.response(Response.Status.INTERNAL_SERVER_ERROR, "internal error: " + e.getMessage());
    }
}
