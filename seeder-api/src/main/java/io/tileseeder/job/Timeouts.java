package io.tileseeder.job;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as people write them: {@code 90}, {@code 90s}, {@code 5m}, {@code 1h30m}, {@code 1d} or ISO-8601
 * ({@code PT30S}); {@link #format} writes them back that way for messages.
 */
public final class Timeouts {

    private static final Pattern SECONDS = Pattern.compile("\\d+");
    private static final Pattern SHORT = Pattern.compile("(?:\\d+(?:ms|s|m|h|d))+");
    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    private Timeouts() {
    }

    /** @throws IllegalArgumentException naming the text that is not a duration */
    public static Duration parse(String text) {
        String value = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (SECONDS.matcher(value).matches()) {
                return Duration.ofSeconds(Long.parseLong(value));
            }
            if (SHORT.matcher(value).matches()) {
                Duration total = Duration.ZERO;
                for (Matcher part = PART.matcher(value); part.find(); ) {
                    long n = Long.parseLong(part.group(1));
                    total = total.plus(switch (part.group(2)) {
                        case "ms" -> Duration.ofMillis(n);
                        case "m" -> Duration.ofMinutes(n);
                        case "h" -> Duration.ofHours(n);
                        case "d" -> Duration.ofDays(n);
                        default -> Duration.ofSeconds(n);
                    });
                }
                return total;
            }
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is too long a duration");
        }
        try {
            Duration duration = Duration.parse(text.trim().toUpperCase(Locale.ROOT));
            if (duration.isNegative()) {
                throw new IllegalArgumentException("'" + text + "' is negative");
            }
            return duration;
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration like 30s, 5m, 2h, 1h30m or PT30S");
        }
    }

    /**
     * A duration as {@link #parse} reads it and people write it, largest unit first: {@code 15m}, {@code 90s} as
     * {@code 1m30s}, {@code 1h30m}, {@code 99h}, whole days as {@code 2d}, {@code 250ms}, {@code 0s}; a part of a
     * millisecond as a fraction of one ({@code 0.5ms}), a negative one with a minus sign.
     */
    public static String format(Duration duration) {
        if (duration.isNegative()) {
            return "-" + format(duration.negated());
        }
        if (duration.isZero()) {
            return "0s";
        }
        StringBuilder text = new StringBuilder();
        if (duration.toDaysPart() > 0 && duration.equals(Duration.ofDays(duration.toDays()))) {
            return text.append(duration.toDays()).append("d").toString();
        }
        append(text, duration.toHours(), "h");
        append(text, duration.toMinutesPart(), "m");
        append(text, duration.toSecondsPart(), "s");
        int nanos = duration.toNanosPart();
        if (nanos % 1_000_000 == 0) {
            append(text, nanos / 1_000_000, "ms");
        } else {
            text.append(BigDecimal.valueOf(nanos, 6).stripTrailingZeros().toPlainString()).append("ms");
        }
        return text.toString();
    }

    private static void append(StringBuilder text, long amount, String unit) {
        if (amount > 0) {
            text.append(amount).append(unit);
        }
    }
}
