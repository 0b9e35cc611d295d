package io.tileseeder.app.distributed;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The samples of one Prometheus text scrape, to ask for series by name and labels. */
record Scrape(List<Sample> samples, String text) {

    /** One line: {@code name{label="value",...} value}. */
    record Sample(String name, Map<String, String> labels, double value) {
    }

    private static final Pattern LINE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? (\\S+).*");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    static Scrape of(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            Matcher m = LINE.matcher(line);
            if (line.startsWith("#") || !m.matches()) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(2) != null) {
                Matcher label = LABEL.matcher(m.group(2));
                while (label.find()) {
                    labels.put(label.group(1), label.group(2));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
        }
        return new Scrape(samples, text);
    }

    /** The samples of a series name having all these labels ({@code "outcome", "written", ...}). */
    List<Sample> find(String name, String... labels) {
        return samples.stream().filter(s -> s.name().equals(name)).filter(s -> {
            for (int i = 0; i < labels.length; i += 2) {
                if (!labels[i + 1].equals(s.labels().get(labels[i]))) {
                    return false;
                }
            }
            return true;
        }).toList();
    }

    /** The sum of the samples {@link #find} finds; 0 when there are none. */
    double sum(String name, String... labels) {
        return find(name, labels).stream().mapToDouble(Sample::value).sum();
    }
}
