package io.tileseeder.job;

/** One thing wrong with a request: the field (a JSON path such as {@code zoom.min}) and why. */
public record FieldError(String field, String reason) {

    @Override
    public String toString() {
        return field + ": " + reason;
    }
}
