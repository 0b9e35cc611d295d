package io.tileseeder.job;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as people write them: {@code 90}, {@code 90s}, {@code 5m}, {@code 2h}, {@code 1d} or ISO-8601 ({@code PT30S}). */
public final class Timeouts {

    private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h|d)?");

    private Timeouts() {
    }

    /** @throws IllegalArgumentException naming the text that is not a duration */
    public static Duration parse(String text) {
        String value = text.trim().toLowerCase(Locale.ROOT);
        Matcher m = SHORT.matcher(value);
        if (m.matches()) {
            try {
                long n = Long.parseLong(m.group(1));
                String unit = m.group(2) == null ? "s" : m.group(2);
                return switch (unit) {
                    case "ms" -> Duration.ofMillis(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    case "d" -> Duration.ofDays(n);
                    default -> Duration.ofSeconds(n);
                };
            } catch (NumberFormatException | ArithmeticException e) {
                throw new IllegalArgumentException("'" + text + "' is too long a duration");
            }
        }
        try {
            Duration duration = Duration.parse(text.trim().toUpperCase(Locale.ROOT));
            if (duration.isNegative()) {
                throw new IllegalArgumentException("'" + text + "' is negative");
            }
            return duration;
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration like 30s, 5m, 2h or PT30S");
        }
    }
}
