package io.tileseeder.runtime.settings;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.configuration.DurationConverter;
import io.tileseeder.runtime.SeederConfig;
import io.tileseeder.runtime.settings.SettingKeys.Group;
import io.tileseeder.runtime.settings.SettingKeys.Setting;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@link SeederConfig} is the only place a setting's key, default and description are declared. The manual's
 * settings page is written from it, and the Helm chart's values and schema must agree with it: each test fails
 * naming what disagrees.
 *
 * <p>To write the page again after changing the mapping:
 * {@code ./mvnw -pl app -am test -Dtest=SettingsPageTest -Dsurefire.failIfNoSpecifiedTests=false -Dsettings.page.write=true}.
 */
class SettingsPageTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path SOURCE = ROOT.resolve("runtime/src/main/java/io/tileseeder/runtime/SeederConfig.java");
    static final Path PAGE = ROOT.resolve("docs/settings.md");
    private static final Path VALUES = ROOT.resolve("helm/tile-seeder/values.yaml");
    private static final Path SCHEMA = ROOT.resolve("helm/tile-seeder/values.schema.json");

    /** Chart values that differ from the mapping's default on purpose, with the reason. */
    private static final Map<String, String> CHART_OVERRIDES = Map.of(
            "SEEDER_STORE_PATH", "pods write to S3: the chart's default is a bucket, never a folder in a pod");

    private static final SettingKeys KEYS = SettingKeys.read(SOURCE, "seeder");

    @Test
    void theSettingsPageIsWrittenFromTheMapping() throws IOException {
        String page = page(KEYS);
        if (Boolean.getBoolean("settings.page.write")) {
            Files.writeString(PAGE, page, StandardCharsets.UTF_8);
        }
        assertThat(Files.readString(PAGE, StandardCharsets.UTF_8))
                .as("%s is written from SeederConfig's keys, defaults and Javadoc; write it again with "
                        + "-Dsettings.page.write=true (see SettingsPageTest)", ROOT.relativize(PAGE))
                .isEqualTo(page);
    }

    @Test
    void everyKeyOnThePageIsOneTheConfigurationReads() {
        SeederConfig defaults = Settings.declared(Map.of());
        for (Setting setting : KEYS.all()) {
            Object value = read(defaults, setting.key());
            if (setting.defaultValue().isPresent()) {
                assertThat(String.valueOf(value).toLowerCase(Locale.ROOT)).as(setting.key())
                        .isEqualTo(normalised(setting.defaultValue().get(), value));
            }
        }
        assertThat(KEYS.all()).extracting(Setting::key).doesNotHaveDuplicates()
                .contains("seeder.mode", "seeder.store.path", "seeder.limits.max-tiles-per-job",
                        "seeder.redis.sync-replicas", "seeder.expiry.window");
    }

    @Test
    void theChartsValuesDefaultToTheMappingsDefaults() throws IOException {
        Map<String, Setting> byVariable = KEYS.all().stream()
                .collect(Collectors.toMap(Setting::environmentVariable, setting -> setting));
        List<ChartValue> values = chartValues(Files.readAllLines(VALUES, StandardCharsets.UTF_8));
        assertThat(values).as("values.yaml names the settings it sets, e.g. (SEEDER_REDIS_MODE)").hasSizeGreaterThan(8);
        for (ChartValue value : values) {
            assertThat(byVariable).as("%s in values.yaml names %s, which SeederConfig does not declare",
                    value.path(), value.variable()).containsKey(value.variable());
            Setting setting = byVariable.get(value.variable());
            if (setting.defaultValue().isEmpty() || CHART_OVERRIDES.containsKey(value.variable())) {
                continue;
            }
            String expected = setting.defaultValue().get();
            String actual = value.path().endsWith("Seconds")
                    ? Duration.ofSeconds(Long.parseLong(value.value())).toString()
                    : value.value();
            assertThat(actual).as("values.yaml %s (%s): SeederConfig's default of %s is %s", value.path(),
                    value.variable(), setting.key(), expected)
                    .isEqualTo(value.path().endsWith("Seconds") ? duration(expected).toString() : expected);
        }
    }

    @Test
    void theChartsSchemaAllowsWhatTheMappingAllows() throws IOException {
        JsonNode schema = new ObjectMapper().readTree(SCHEMA.toFile());
        Map<String, Setting> byVariable = KEYS.all().stream()
                .collect(Collectors.toMap(Setting::environmentVariable, setting -> setting));
        for (ChartValue value : chartValues(Files.readAllLines(VALUES, StandardCharsets.UTF_8))) {
            JsonNode property = schema;
            for (String part : value.path().split("\\.")) {
                property = property.path("properties").path(part);
            }
            assertThat(property.isMissingNode()).as("values.schema.json describes %s", value.path()).isFalse();
            Class<?> type = javaType(byVariable.get(value.variable()).key());
            String jsonType = property.path("type").asText();
            if (type.isEnum()) {
                List<String> allowed = new ArrayList<>();
                property.path("enum").forEach(entry -> allowed.add(entry.asText()));
                assertThat(allowed).as("values.schema.json %s: the values of %s", value.path(), value.variable())
                        .containsExactlyElementsOf(enumValues(type));
            } else if (type == int.class || type == long.class || type == java.util.OptionalInt.class
                    || type == Duration.class) {
                assertThat(jsonType).as("values.schema.json %s (%s)", value.path(), value.variable())
                        .isEqualTo("integer");
            } else if (type == boolean.class) {
                assertThat(jsonType).as("values.schema.json %s (%s)", value.path(), value.variable())
                        .isEqualTo("boolean");
            } else {
                assertThat(jsonType).as("values.schema.json %s (%s)", value.path(), value.variable())
                        .isEqualTo("string");
            }
        }
    }

    /** The page: one section per group, a row per setting. */
    static String page(SettingKeys keys) {
        StringBuilder page = new StringBuilder("""
                # Settings

                <!-- Written from SeederConfig (runtime/src/main/java/io/tileseeder/runtime/SeederConfig.java) by SettingsPageTest:
                     change the Javadoc or the defaults there, then write this page again (see the test). -->

                Every setting is a key in `application.properties` or, the same setting, an environment variable:
                `seeder.store.io-threads=16` or `SEEDER_STORE_IO_THREADS=16`. The command line's options (`--store`,
                `--threads`, ...) take precedence over both. Durations are written `500ms`, `15s`, `10m`, `1h` or
                `2d`.

                The Helm chart sets some of these from its values (`kafka.bootstrap` is `SEEDER_KAFKA_BOOTSTRAP`);
                any other goes in its `extraEnv` (see [Kubernetes](kubernetes.md)).
                """);
        for (Group group : keys.groups()) {
            page.append("\n## `").append(group.prefix()).append(".*`\n\n");
            if (!group.about().isEmpty()) {
                page.append(group.about()).append("\n\n");
            }
            page.append("| setting | default | what it is |\n| --- | --- | --- |\n");
            for (Setting setting : group.settings()) {
                page.append("| `").append(setting.key()).append("`<br>`").append(setting.environmentVariable())
                        .append("` | ").append(setting.defaultValue().map(value -> "`" + value + "`")
                                .or(setting::defaultAbout).orElse("none"))
                        .append(" | ").append(kind(setting)).append(escaped(setting.about())).append(" |\n");
            }
        }
        return page.toString();
    }

    private static String kind(Setting setting) {
        Class<?> type = javaType(setting.key());
        if (type.isEnum()) {
            return "One of " + enumValues(type).stream().map(value -> "`" + value + "`")
                    .collect(Collectors.joining(", ")) + ". ";
        }
        if (type == Duration.class) {
            return "A duration. ";
        }
        return "";
    }

    private static String escaped(String text) {
        return text.replace("|", "\\|");
    }

    /** The Java type of {@code key}'s method in {@link SeederConfig}. */
    private static Class<?> javaType(String key) {
        return method(key).getReturnType();
    }

    private static Method method(String key) {
        String[] parts = key.split("\\.");
        Class<?> type = SeederConfig.class;
        Method method = null;
        for (int i = 1; i < parts.length; i++) {
            String name = parts[i];
            method = Arrays.stream(type.getMethods()).filter(m -> SettingKeys.kebab(m.getName()).equals(name))
                    .findFirst().orElseThrow(() -> new AssertionError("SeederConfig has no key " + key));
            type = method.getReturnType();
        }
        return method;
    }

    private static Object read(SeederConfig config, String key) {
        String[] parts = key.split("\\.");
        Object value = config;
        try {
            for (int i = 1; i < parts.length; i++) {
                String name = parts[i];
                Method method = Arrays.stream(value.getClass().getInterfaces()[0].getMethods())
                        .filter(m -> SettingKeys.kebab(m.getName()).equals(name)).findFirst().orElseThrow();
                value = method.invoke(value);
            }
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot read " + key, e);
        }
        return value;
    }

    private static String normalised(String text, Object value) {
        return (value instanceof Duration ? duration(text).toString() : text).toLowerCase(Locale.ROOT);
    }

    private static Duration duration(String text) {
        return new DurationConverter().convert(text);
    }

    private static List<String> enumValues(Class<?> type) {
        return Arrays.stream(type.getEnumConstants()).map(constant -> ((Enum<?>) constant).name()
                .toLowerCase(Locale.ROOT)).toList();
    }

    /** A scalar of values.yaml whose comment names the setting it sets. */
    record ChartValue(String path, String variable, String value) {
    }

    private static final Pattern KEY = Pattern.compile("^( *)([A-Za-z0-9_]+):\\s*(.*)$");
    private static final Pattern COMMENT = Pattern.compile("^ *#(.*)$");
    private static final Pattern VARIABLE = Pattern.compile("\\((SEEDER_[A-Z0-9_]+)[):]");

    /** The scalars of values.yaml whose comment names a {@code (SEEDER_…)} variable, by dotted path. */
    static List<ChartValue> chartValues(List<String> lines) {
        List<ChartValue> values = new ArrayList<>();
        Map<Integer, String> parents = new LinkedHashMap<>();
        StringBuilder comment = new StringBuilder();
        for (String line : lines) {
            Matcher commentLine = COMMENT.matcher(line);
            if (commentLine.matches()) {
                comment.append(commentLine.group(1)).append(' ');
                continue;
            }
            Matcher key = KEY.matcher(line);
            if (!key.matches()) {
                comment.setLength(0);
                continue;
            }
            int indent = key.group(1).length();
            parents.keySet().removeIf(level -> level >= indent);
            String path = parents.values().stream().map(parent -> parent + ".").collect(Collectors.joining())
                    + key.group(2);
            parents.put(indent, key.group(2));
            String scalar = key.group(3).replaceFirst("\\s+#.*$", "").strip();
            Matcher variable = VARIABLE.matcher(comment);
            if (!scalar.isEmpty() && variable.find()) {
                values.add(new ChartValue(path, variable.group(1), unquoted(scalar)));
            }
            comment.setLength(0);
        }
        return values;
    }

    private static String unquoted(String scalar) {
        return Optional.of(scalar).filter(s -> s.length() >= 2 && (s.startsWith("\"") || s.startsWith("'")))
                .map(s -> s.substring(1, s.length() - 1)).orElse(scalar);
    }
}
