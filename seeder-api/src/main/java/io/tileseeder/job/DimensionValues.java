package io.tileseeder.job;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One value of each of a layer's dimensions, in the order the layer declares them: one cache of the layer. Written in
 * JSON as an object, name → value, in that order. {@link #NONE} for a layer without dimensions.
 */
public record DimensionValues(Map<String, String> values) {

    public static final DimensionValues NONE = new DimensionValues(Map.of());

    /** Characters a value keeps in its folder name; any other is percent-encoded (UTF-8). */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9._~:+-]+");

    @JsonCreator
    public DimensionValues {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    @JsonValue
    @Override
    public Map<String, String> values() {
        return values;
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /**
     * The folders of this cache below its layer's matrix set, one per dimension, e.g. {@code 2026-11-26T12:05:00Z/night}:
     * each value as it is when it is plain ({@code A-Z a-z 0-9 . _ ~ : + -}), else percent-encoded, so no value can
     * leave its folder or hold a character a file name or an object key cannot; empty for {@link #NONE}.
     */
    public String path() {
        List<String> folders = new ArrayList<>(values.size());
        values.values().forEach(value -> folders.add(folder(value)));
        return String.join("/", folders);
    }

    /** The folder name of one value (see {@link #path}). */
    public static String folder(String value) {
        if (PLAIN.matcher(value).matches() && !value.equals(".") && !value.equals("..")) {
            return value;
        }
        StringBuilder out = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || c == '_' || c == '~' || c == '-')) {
                out.append(c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
            }
        }
        return out.toString();
    }

    /** The value a folder name stands for: the inverse of {@link #folder}. */
    public static String value(String folder) {
        if (folder.indexOf('%') < 0) {
            return folder;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < folder.length(); i++) {
            char c = folder.charAt(i);
            if (c == '%' && i + 2 < folder.length()) {
                bytes.write(Integer.parseInt(folder.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                bytes.write(c);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
