package io.tileseeder.app.cli;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads the option values that are not text, saying in the command line's words what is wrong with one: picocli's
 * own converters name the Java type and exception instead ({@code cannot convert 'yesterday' to class
 * java.time.Instant (java.time.format.DateTimeParseException ...)}).
 */
final class Converters {

    private Converters() {
    }

    /** Registers the converters with {@code cli} and the subcommands it has. */
    static void register(CommandLine cli) {
        cli.registerConverter(Instant.class, Converters::instant);
        ITypeConverter<Integer> whole = Converters::wholeNumber;
        cli.registerConverter(Integer.class, whole);
        cli.registerConverter(int.class, whole);
        ITypeConverter<Boolean> flag = Converters::trueOrFalse;
        cli.registerConverter(Boolean.class, flag);
        cli.registerConverter(boolean.class, flag);
    }

    static Instant instant(String text) {
        try {
            return Instant.parse(text.strip());
        } catch (DateTimeParseException e) {
            throw new TypeConversionException("'" + text + "' is not an instant; give one like 2026-11-26T12:00:00Z "
                    + "(UTC) or 2026-11-26T13:00:00+01:00");
        }
    }

    /** The value of a flag given one ({@code --wait=false}). */
    static boolean trueOrFalse(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new TypeConversionException("'" + text + "' is not true or false");
        };
    }

    static int wholeNumber(String text) {
        String digits = text.strip();
        if (!digits.matches("[+-]?\\d+")) {
            throw new TypeConversionException("'" + text + "' is not a whole number");
        }
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + text + "' is too " + (digits.startsWith("-") ? "small" : "large")
                    + " a number");
        }
    }
}
