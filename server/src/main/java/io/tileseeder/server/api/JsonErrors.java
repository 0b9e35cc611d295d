package io.tileseeder.server.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.JsonMappingException;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.FieldError;
import io.tileseeder.job.JsonProblems;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Says what is wrong with a body that Jackson could not read, in the API's words: the field (a JSON path such as
 * {@code zoom.min}, or {@code body}) and what it should have been ({@link JsonProblems}).
 */
final class JsonErrors {

    /** What the whole numbers of a job may be, where a number out of range is named by the field's range. */
    private static final Map<String, String> RANGES = Map.of(
            "zoom.min", "within the zoom range 0.." + TileMatrixSet.MAX_ZOOM + " (a layer's may end sooner)",
            "zoom.max", "within the zoom range 0.." + TileMatrixSet.MAX_ZOOM + " (a layer's may end sooner)",
            "metatile.width", "1 to " + MetatileSize.MAX_SIDE + " tiles",
            "metatile.height", "1 to " + MetatileSize.MAX_SIDE + " tiles");

    private JsonErrors() {
    }

    static FieldError describe(JsonProcessingException e) {
        String field = e instanceof JsonMappingException mapping ? field(mapping) : "body";
        return new FieldError(field, reason(e, field));
    }

    private static String field(JsonMappingException e) {
        String path = e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
        return path.isEmpty() ? "body" : path;
    }

    private static String reason(JsonProcessingException e, String field) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof InputCoercionException && RANGES.containsKey(field)) {
                return "out of range: must be " + RANGES.get(field);
            }
        }
        return JsonProblems.reason(e, "the JSON");
    }
}
