package io.tileseeder.job;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.Period;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * A dimension of a layer: a request parameter whose every value is a cache of its own ({@code TIME}, {@code ELEVATION},
 * {@code STYLES}, a {@code DIM_*} or any other vendor parameter of the upstream).
 *
 * <p>Values are allowed by a list, by a regular expression ({@link Kind#TEXT} only), or by nothing more than their kind
 * (a {@link Kind#TIME} or {@link Kind#NUMBER} dimension without a list). A list holds values and, for times and numbers,
 * intervals in the extent syntax of WMS 1.3.0 (Annex C): {@code min/max/resolution}, e.g.
 * {@code 2026-11-01T00:00Z/2026-11-30T00:00Z/PT5M} or {@code 0/1000/100}; {@code min/max} without a resolution allows
 * every value between them.
 *
 * <p>Values are normalized, so that one value is one cache however it was written: a time is an ISO 8601 date
 * ({@code 2026-11-26}) or a UTC instant ({@code 2026-11-26T12:05:00Z}; a time with another offset is moved to UTC, one
 * without an offset is refused); a number is its plain decimal without trailing zeros ({@code 100.50} is {@code 100.5}).
 *
 * @param name         the parameter's name as the layer declares it (the upstream's spelling); jobs name it in any
 *                     case
 * @param allowed      the allowed values and intervals, normalized; empty to allow any value of the kind
 * @param pattern      with {@link Kind#TEXT}: the expression every value must match whole; null for none
 * @param defaultValue the value of a job that names no value, normalized; null if a job must name one
 * @param retention    which of its values' caches are kept once a job on the layer succeeds; null to keep all
 */
public record Dimension(String name, Kind kind, List<String> allowed, Pattern pattern, String defaultValue,
                        Retention retention) {

    /**
     * The values whose caches are kept: the {@code keep} last in the dimension's order (times and numbers by value,
     * text by its characters), and for a time dimension those no older than {@code newerThan}; a cache of any other
     * value is deleted.
     *
     * @param keep      how many of the last values are kept; 0 for no such limit
     * @param newerThan a time dimension's: values older than this, back from now, are not kept; null for no such limit
     */
    public record Retention(int keep, Duration newerThan) {

        public Retention {
            if (keep < 0 || newerThan != null && !newerThan.isPositive() || keep == 0 && newerThan == null) {
                throw new IllegalArgumentException("a retention keeps a positive number of values (keep) or values "
                        + "newer than a positive duration (newerThan)");
            }
        }
    }

    /** How a dimension's values are read and compared. */
    public enum Kind {
        /** ISO 8601 dates and instants; intervals with a period. */
        TIME,
        /** Decimal numbers; intervals with a step. */
        NUMBER,
        /** Any text; a list or a regular expression. */
        TEXT;

        /** The kind a dimension of this name has unless the layer says otherwise. */
        public static Kind of(String name) {
            return switch (name.toUpperCase(Locale.ROOT)) {
                case "TIME" -> TIME;
                case "ELEVATION" -> NUMBER;
                default -> TEXT;
            };
        }
    }

    /** The longest value, in characters: every value is a folder name of the cache. */
    public static final int MAX_VALUE_LENGTH = 120;
    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]*");

    public Dimension {
        allowed = List.copyOf(allowed);
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("dimension name '" + name + "' is not a request parameter name "
                    + "(a letter, then letters, digits and _)");
        }
        if (pattern != null && kind != Kind.TEXT) {
            throw new IllegalArgumentException("dimension " + name + " is a " + kind.name().toLowerCase(Locale.ROOT)
                    + " dimension: a pattern is for text dimensions; list its values or intervals");
        }
        if (kind == Kind.TEXT && allowed.isEmpty() && pattern == null) {
            throw new IllegalArgumentException("dimension " + name + " needs its allowed values (values) or a "
                    + "regular expression (pattern)");
        }
    }

    /**
     * A dimension as a layers file declares it: its values and intervals and its default are checked and normalized.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static Dimension declare(String name, Kind kind, List<String> values, String pattern,
                                    String defaultValue) {
        List<String> allowed = new ArrayList<>();
        for (String value : values) {
            allowed.add(kind == Kind.TEXT ? checkText(name, value) : normalizeItem(name, kind, value));
        }
        Pattern compiled = null;
        if (pattern != null) {
            try {
                compiled = Pattern.compile(pattern);
            } catch (java.util.regex.PatternSyntaxException e) {
                throw new IllegalArgumentException("dimension " + name + ": pattern is not a regular expression: "
                        + e.getDescription(), e);
            }
        }
        Dimension dimension = new Dimension(name, kind, allowed, compiled, null, null);
        String checkedDefault = defaultValue == null ? null : dimension.check(defaultValue);
        return new Dimension(name, kind, allowed, compiled, checkedDefault, null);
    }

    /** This dimension with a retention rule; a duration is for a time dimension only. */
    public Dimension withRetention(Retention rule) {
        if (rule != null && rule.newerThan() != null && kind != Kind.TIME) {
            throw new IllegalArgumentException("dimension " + name + ": retention newerThan is for a time dimension; "
                    + "keep the last values instead");
        }
        return new Dimension(name, kind, allowed, pattern, defaultValue, rule);
    }

    /**
     * The values among {@code held} (normalized) whose caches the retention rule does not keep at {@code now}, in
     * the dimension's order; none without a rule.
     */
    public List<String> expired(java.util.Collection<String> held, Instant now) {
        if (retention == null) {
            return List.of();
        }
        List<String> ordered = new ArrayList<>(new java.util.TreeSet<>(held));
        ordered.sort(order());
        List<String> expired = new ArrayList<>();
        for (int i = 0; i < ordered.size(); i++) {
            String value = ordered.get(i);
            boolean tooMany = retention.keep() > 0 && i < ordered.size() - retention.keep();
            boolean tooOld = retention.newerThan() != null
                    && Time.parse(name, value).instant().isBefore(now.minus(retention.newerThan()));
            if (tooMany || tooOld) {
                expired.add(value);
            }
        }
        return expired;
    }

    /** The order of normalized values: times and numbers by value, text by its characters. */
    private java.util.Comparator<String> order() {
        return switch (kind) {
            case TIME -> java.util.Comparator.comparing((String value) -> Time.parse(name, value).instant());
            case NUMBER -> java.util.Comparator.comparing(BigDecimal::new);
            case TEXT -> java.util.Comparator.naturalOrder();
        };
    }

    /**
     * The value, normalized, if the dimension allows it.
     *
     * @throws IllegalArgumentException saying why not, e.g. {@code STYLES 'dark' is not one of default, night}
     */
    public String check(String value) {
        String normalized = kind == Kind.TEXT ? checkText(name, value) : normalizeValue(name, kind, value);
        if (pattern != null && !pattern.matcher(normalized).matches()) {
            throw new IllegalArgumentException(name + " '" + value + "' does not match " + pattern.pattern());
        }
        if (!allowed.isEmpty() && allowed.stream().noneMatch(item -> contains(item, normalized))) {
            throw new IllegalArgumentException(kind == Kind.TEXT
                    ? name + " '" + value + "' is not one of " + String.join(", ", allowed)
                    : name + " " + value + " is not within " + String.join(", ", allowed));
        }
        return normalized;
    }

    /**
     * The values a job names with {@code item}: the value itself, or for times and numbers every value of the interval
     * {@code min/max/resolution}, each checked; at most {@code limit} of them.
     *
     * @throws IllegalArgumentException if one is not allowed, or they are more than {@code limit}
     */
    public List<String> expand(String item, int limit) {
        List<String> values = new ArrayList<>();
        String[] parts = item.split("/", -1);
        if (kind == Kind.TEXT || parts.length == 1) {
            values.add(check(item));
            return values;
        }
        if (parts.length != 3) {
            throw new IllegalArgumentException(name + " " + item + " is neither a value nor an interval "
                    + "min/max/resolution");
        }
        Consumer<String> add = value -> {
            if (values.size() == limit) {
                throw new IllegalArgumentException(name + " " + item + " has more than " + limit + " values");
            }
            values.add(check(value));
        };
        if (kind == Kind.NUMBER) {
            BigDecimal min = number(name, parts[0]);
            BigDecimal max = number(name, parts[1]);
            BigDecimal step = positiveStep(name, item, parts[2]);
            checkOrder(item, min.compareTo(max) <= 0);
            for (BigDecimal value = min; value.compareTo(max) <= 0; value = value.add(step)) {
                add.accept(value.toPlainString());
            }
        } else {
            Time start = Time.parse(name, parts[0]);
            Time end = Time.parse(name, parts[1]);
            Step step = Step.parse(name, item, parts[2], start.dateOnly());
            checkOrder(item, !start.instant().isAfter(end.instant()) && start.dateOnly() == end.dateOnly());
            for (long k = 0; ; k++) {
                Time value = start.plus(step, k);
                if (value.instant().isAfter(end.instant())) {
                    break;
                }
                add.accept(value.text());
            }
        }
        return values;
    }

    private void checkOrder(String item, boolean ordered) {
        if (!ordered) {
            throw new IllegalArgumentException(name + " " + item + " ends before it starts, or mixes a date with a "
                    + "time");
        }
    }

    /** Whether the allowed item (a value, or an interval) holds the normalized value. */
    private boolean contains(String item, String value) {
        if (kind == Kind.TEXT || !item.contains("/")) {
            return item.equals(value);
        }
        String[] parts = item.split("/", -1);
        if (kind == Kind.NUMBER) {
            BigDecimal v = new BigDecimal(value);
            BigDecimal min = new BigDecimal(parts[0]);
            if (v.compareTo(min) < 0 || v.compareTo(new BigDecimal(parts[1])) > 0) {
                return false;
            }
            return parts.length == 2 || v.subtract(min).remainder(new BigDecimal(parts[2])).signum() == 0;
        }
        Time v = Time.parse(name, value);
        Time start = Time.parse(name, parts[0]);
        Time end = Time.parse(name, parts[1]);
        if (v.dateOnly() != start.dateOnly() || v.instant().isBefore(start.instant())
                || v.instant().isAfter(end.instant())) {
            return false;
        }
        return parts.length == 2 || Step.parse(name, item, parts[2], start.dateOnly()).reaches(start, v);
    }

    /** A value or an interval of a time or number dimension's list, normalized. */
    private static String normalizeItem(String name, Kind kind, String item) {
        String[] parts = item.split("/", -1);
        if (parts.length == 1) {
            return normalizeValue(name, kind, item);
        }
        if (parts.length > 3) {
            throw new IllegalArgumentException(name + " " + item + " is neither a value nor an interval "
                    + "min/max or min/max/resolution");
        }
        String min = normalizeValue(name, kind, parts[0]);
        String max = normalizeValue(name, kind, parts[1]);
        String text = min + "/" + max;
        if (parts.length == 3) {
            if (kind == Kind.NUMBER) {
                text += "/" + positiveStep(name, item, parts[2]).toPlainString();
            } else {
                Step.parse(name, item, parts[2], Time.parse(name, min).dateOnly());
                text += "/" + parts[2];
            }
        }
        return text;
    }

    private static String normalizeValue(String name, Kind kind, String value) {
        return kind == Kind.NUMBER ? number(name, value).toPlainString() : Time.parse(name, value).text();
    }

    private static String checkText(String name, String value) {
        if (value.isEmpty()) {
            throw new IllegalArgumentException(name + " value is empty");
        }
        if (value.length() > MAX_VALUE_LENGTH) {
            throw new IllegalArgumentException(name + " value '" + value.substring(0, 20) + "…' is longer than "
                    + MAX_VALUE_LENGTH + " characters");
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException(name + " value '" + value + "' holds a control character");
        }
        return value;
    }

    private static BigDecimal number(String name, String text) {
        try {
            BigDecimal value = new BigDecimal(text.strip());
            BigDecimal normalized = value.stripTrailingZeros();
            return normalized.scale() < 0 ? normalized.setScale(0) : normalized;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " " + text + " is not a number");
        }
    }

    private static BigDecimal positiveStep(String name, String item, String text) {
        BigDecimal step = number(name, text);
        if (step.signum() <= 0) {
            throw new IllegalArgumentException(name + " " + item + " has a resolution that is not positive");
        }
        return step;
    }

    /** A time value: a date, or an instant in UTC. */
    private record Time(Instant instant, boolean dateOnly) {

        static Time parse(String name, String text) {
            String value = text.strip();
            if (value.length() == 10) {
                try {
                    return new Time(LocalDate.parse(value).atStartOfDay().toInstant(ZoneOffset.UTC), true);
                } catch (DateTimeParseException e) {
                    throw notTime(name, text);
                }
            }
            try {
                return new Time(OffsetDateTime.parse(value).toInstant(), false);
            } catch (DateTimeParseException e) {
                try {
                    LocalDateTime.parse(value);
                } catch (DateTimeParseException notLocal) {
                    throw notTime(name, text);
                }
                throw new IllegalArgumentException(name + " " + text + " has no UTC offset: add Z for UTC");
            }
        }

        private static IllegalArgumentException notTime(String name, String text) {
            return new IllegalArgumentException(name + " " + text + " is not an ISO 8601 instant "
                    + "(2026-11-26T12:05Z) or date (2026-11-26)");
        }

        String text() {
            return dateOnly ? LocalDate.ofInstant(instant, ZoneOffset.UTC).toString() : instant.toString();
        }

        Time plus(Step step, long times) {
            if (step.months() == 0) {
                return new Time(instant.plus(step.exact().multipliedBy(times)), dateOnly);
            }
            OffsetDateTime at = instant.atOffset(ZoneOffset.UTC).plusMonths(step.months() * times);
            return new Time(at.toInstant(), dateOnly);
        }
    }

    /** A time interval's resolution: whole months ({@code P1M}, {@code P1Y}) or an exact duration. */
    private record Step(long months, Duration exact) {

        static Step parse(String name, String item, String text, boolean dates) {
            Step step;
            try {
                if (text.contains("T")) {
                    step = new Step(0, Duration.parse(text));
                } else {
                    Period period = Period.parse(text);
                    step = period.getDays() == 0 ? new Step(period.toTotalMonths(), Duration.ZERO)
                            : period.toTotalMonths() == 0 ? new Step(0, Duration.ofDays(period.getDays())) : null;
                    if (step == null) {
                        throw new IllegalArgumentException(name + " " + item + ": a resolution of months and days "
                                + "together is not supported; use one of them");
                    }
                }
            } catch (DateTimeException e) {
                throw new IllegalArgumentException(name + " " + item + ": " + text + " is not an ISO 8601 period "
                        + "(PT5M, P1D, P1M)");
            }
            if (step.months() <= 0 && !step.exact().isPositive()) {
                throw new IllegalArgumentException(name + " " + item + " has a resolution that is not positive");
            }
            if (dates && step.months() == 0 && step.exact().toSeconds() % ChronoUnit.DAYS.getDuration().toSeconds() != 0) {
                throw new IllegalArgumentException(name + " " + item + ": dates step by whole days, months or years");
            }
            return step;
        }

        /** Whether a whole number of steps leads from {@code start} to {@code value}. */
        boolean reaches(Time start, Time value) {
            if (months == 0) {
                return Duration.between(start.instant(), value.instant()).toNanos() % exact.toNanos() == 0;
            }
            long k = ChronoUnit.MONTHS.between(start.instant().atOffset(ZoneOffset.UTC),
                    value.instant().atOffset(ZoneOffset.UTC)) / months;
            return start.plus(this, k).instant().equals(value.instant());
        }
    }
}
