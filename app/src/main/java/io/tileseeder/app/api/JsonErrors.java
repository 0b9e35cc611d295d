package io.tileseeder.app.api;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.FieldError;
import java.time.temporal.Temporal;
import java.util.Collection;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Says what is wrong with a body that Jackson could not read, in the API's words: the field (a JSON path such as
 * {@code zoom.min}, or {@code body}) and what it should have been. Jackson's own messages name Java types and its
 * settings, which mean nothing to a client, so none of them is passed on as it is.
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
            if (cause instanceof StreamConstraintsException) {
                return "too large: a number, a string or the nesting of the JSON goes over the size the API reads";
            }
            if (cause instanceof InputCoercionException coercion) {
                return "out of range: must be " + RANGES.getOrDefault(field, kind(coercion.getTargetType()));
            }
            if (cause instanceof JsonEOFException eof) {
                return "the JSON ends early, at " + location(eof);
            }
            if (cause instanceof JsonParseException parse) {
                return "malformed JSON at " + location(parse) + ": " + words(parse.getOriginalMessage());
            }
        }
        if (e instanceof UnrecognizedPropertyException unknown) {
            return "unknown field; known fields: " + unknown.getKnownPropertyIds();
        }
        if (e instanceof InvalidFormatException format) {
            Class<?> target = format.getTargetType();
            // A number or true/false where text or true/false goes is of the wrong kind, whatever its value: quoted,
            // it would read as the string the client did not send.
            if (CharSequence.class.isAssignableFrom(target) || target == Boolean.class || target == boolean.class) {
                return "must be " + kind(target);
            }
            return "'" + format.getValue() + "' is not " + kind(target);
        }
        if (e instanceof MismatchedInputException mismatch) {
            if (mismatch.getOriginalMessage().startsWith("Trailing token")) {
                return "unexpected content after the JSON value at " + location(e);
            }
            return "must be " + kind(mismatch.getTargetType());
        }
        return "cannot be read: " + words(e.getOriginalMessage());
    }

    private static String location(JsonProcessingException e) {
        return e.getLocation() == null ? "an unknown place"
                : "line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
    }

    /** What a value of this Java type looks like in JSON. */
    static String kind(Class<?> type) {
        if (type == null) {
            return "a value of another kind";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class
                || type == Short.class || type == short.class) {
            String range = type == Integer.class || type == int.class ? " from " + Integer.MIN_VALUE + " to "
                    + Integer.MAX_VALUE : "";
            return "a whole number" + range;
        }
        if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (CharSequence.class.isAssignableFrom(type)) {
            return "a string";
        }
        if (Temporal.class.isAssignableFrom(type)) {
            return "an instant such as 2026-01-01T00:00:00Z";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        if (Map.class.isAssignableFrom(type) || type.isRecord()) {
            return "an object";
        }
        return "a value of another kind";
    }

    /**
     * Jackson's description of a syntax error, without the Java names it may carry (quoted types, classes, its
     * settings): what is left describes the JSON only.
     */
    static String words(String message) {
        return message.replaceFirst("[:;] enable .*", "")
                .replaceAll("\\s*\\((?:class|token|through reference chain|from) [^)]*\\)", "")
                .replaceAll("`[^`]*`", "a value")
                .replaceAll("\\b(?:[a-z]+\\.)+[A-Z]\\w*(?:\\$\\w+)*", "a value");
    }
}
