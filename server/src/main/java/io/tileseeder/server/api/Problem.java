package io.tileseeder.server.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.tileseeder.job.FieldError;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * An error response as RFC 9457 "Problem Details for HTTP APIs" ({@code application/problem+json}), with
 * the fields at fault in {@code errors}.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Problem(String type, String title, int status, String detail, List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public static Response response(Response.StatusType status, String detail, List<FieldError> errors) {
        Problem problem = new Problem("about:blank", status.getReasonPhrase(), status.getStatusCode(), detail, errors);
        return Response.status(status).type(MEDIA_TYPE).entity(problem).build();
    }

    public static Response response(Response.StatusType status, String detail) {
        return response(status, detail, List.of());
    }
}
