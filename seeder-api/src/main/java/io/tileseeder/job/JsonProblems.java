package io.tileseeder.job;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.time.temporal.Temporal;
import java.util.Collection;
import java.util.Map;

/**
 * Says what is wrong with JSON or YAML that Jackson could not read, in plain words: where the text ends early or
 * goes wrong (line and column), or what a value should have been. Jackson's own messages name Java types and its
 * settings ({@code [Source: REDACTED (StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION disabled); line: 1, column:
 * 34]}), which mean nothing to whoever wrote the text, so none of them is passed on as it is.
 */
public final class JsonProblems {

    private JsonProblems() {
    }

    /**
     * What is wrong, as one clause: {@code the GeoJSON ends early at line 1, column 34}, {@code the JSON is malformed
     * at line 2, column 5: unexpected character ','}, {@code 'x' is not a whole number}.
     *
     * @param what the text, as the clause names it: {@code the JSON}, {@code the GeoJSON}, {@code the file}
     */
    public static String reason(JsonProcessingException e, String what) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof StreamConstraintsException) {
                return "too large: a number, a string or the nesting of " + what + " goes over the size that is read";
            }
            if (cause instanceof InputCoercionException coercion) {
                Class<?> type = coercion.getTargetType();
                return "out of range: must be " + kind(type) + (type == Integer.class || type == int.class
                        ? " from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE : "");
            }
            if (cause instanceof JsonEOFException || cause instanceof JsonParseException early
                    && String.valueOf(early.getOriginalMessage()).startsWith("Unexpected end-of-input")) {
                return what + " ends early at " + location((JsonProcessingException) cause);
            }
            if (cause instanceof JsonParseException parse) {
                return what + " is malformed at " + location(parse) + ": " + words(parse.getOriginalMessage());
            }
        }
        if (e instanceof UnrecognizedPropertyException unknown) {
            return "unknown field; known fields: " + unknown.getKnownPropertyIds();
        }
        if (e instanceof InvalidFormatException format) {
            Class<?> target = format.getTargetType();
            // A number or true/false where text or true/false goes is of the wrong kind, whatever its value: quoted,
            // it would read as the string the writer did not write.
            if (target != null && (CharSequence.class.isAssignableFrom(target) || target == Boolean.class
                    || target == boolean.class)) {
                return "must be " + kind(target);
            }
            return "'" + format.getValue() + "' is not " + kind(target);
        }
        if (e instanceof MismatchedInputException mismatch) {
            if (mismatch.getOriginalMessage().startsWith("Trailing token")) {
                return "unexpected content after " + what + " at " + location(e);
            }
            return "must be " + kind(mismatch.getTargetType());
        }
        return "cannot be read at " + location(e) + ": " + words(e.getOriginalMessage());
    }

    /** Where Jackson stopped: {@code line 1, column 34}. */
    private static String location(JsonProcessingException e) {
        return e.getLocation() == null ? "an unknown place"
                : "line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
    }

    /** What a value of this Java type looks like in JSON or YAML. */
    private static String kind(Class<?> type) {
        if (type == null) {
            return "a value of another kind";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class
                || type == Short.class || type == short.class) {
            return "a whole number";
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
     * Jackson's description of a syntax error, first line only, without the Java names it may carry (quoted types,
     * classes, its settings) nor the places it quotes in its own form ({@code [Source: ...; line: 1, column: 5]}):
     * what is left describes the text only.
     */
    public static String words(String message) {
        String line = message == null ? "" : message.strip().lines().findFirst().orElse("");
        return line.replaceAll("\\s*\\((?:for \\w+ )?(?:start marker |starting )?at \\[Source: .*?]\\)", "")
                .replaceAll("\\s*at \\[Source: .*?]", "")
                .replaceFirst("[:;] enable .*", "")
                .replaceAll("\\s*\\((?:class|token|through reference chain|from) [^)]*\\)", "")
                .replaceAll("`[^`]*`", "a value")
                .replaceAll("\\b(?:[a-z]+\\.)+[A-Z]\\w*(?:\\$\\w+)*", "a value");
    }
}
