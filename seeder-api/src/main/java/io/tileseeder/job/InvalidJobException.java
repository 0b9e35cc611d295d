package io.tileseeder.job;

import java.util.List;
import java.util.stream.Collectors;

/** A job request that cannot be run, with everything that is wrong with it. */
public class InvalidJobException extends RuntimeException {

    private final transient List<FieldError> errors;

    public InvalidJobException(List<FieldError> errors) {
        super(errors.stream().map(FieldError::toString).collect(Collectors.joining("; ")));
        this.errors = List.copyOf(errors);
    }

    public List<FieldError> errors() {
        return errors;
    }
}
