package io.tileseeder.adapters.bucket;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A bucket of an object store and a name prefix in it (no leading or trailing slash; empty for the bucket's root),
 * written as a URL: {@code az://container/prefix} (Azure Blob Storage) or {@code gs://bucket/prefix} (Google Cloud
 * Storage), as rclone and the clouds' own tools write them. S3 has its own {@code S3Location}, with S3's rules.
 */
public record BucketLocation(Scheme scheme, String bucket, String prefix) {

    /** The clouds a location can name, with the rules of their bucket names. */
    public enum Scheme {
        /** Container names: 3 to 63 lower-case letters, digits and single hyphens, beginning with a letter or digit. */
        AZ("az", "container", Pattern.compile("[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]"),
                "3 to 63 lower-case letters, digits and hyphens, beginning and ending with a letter or digit, no '--'"),
        /** Bucket names: 3 to 63 lower-case letters, digits, hyphens, underscores and dots (no dotted names). */
        GS("gs", "bucket", Pattern.compile("[a-z0-9][a-z0-9_-]{1,61}[a-z0-9]"),
                "3 to 63 lower-case letters, digits, hyphens and underscores, beginning and ending with a letter or "
                        + "digit");

        private final String id;
        private final String noun;
        private final Pattern names;
        private final String rule;

        Scheme(String id, String noun, Pattern names, String rule) {
            this.id = id;
            this.noun = noun;
            this.names = names;
            this.rule = rule;
        }

        /** {@code az} or {@code gs}. */
        public String id() {
            return id;
        }

        /** The scheme of {@code path} ({@code az://…}, {@code gs://…}), or null when it names neither. */
        public static Scheme of(String path) {
            for (Scheme scheme : values()) {
                if (path.regionMatches(true, 0, scheme.id + "://", 0, scheme.id.length() + 3)) {
                    return scheme;
                }
            }
            return null;
        }
    }

    public BucketLocation {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(prefix, "prefix");
        if (!scheme.names.matcher(bucket).matches()) {
            throw new IllegalArgumentException("invalid " + scheme.noun + " name '" + bucket + "': " + scheme.rule);
        }
        String problem = prefixProblem(prefix);
        if (problem != null) {
            throw new IllegalArgumentException("invalid prefix '" + prefix + "': " + problem);
        }
    }

    /**
     * Reads {@code az://container/some/prefix} or {@code gs://bucket/some/prefix} (a trailing slash is ignored).
     *
     * @throws IllegalArgumentException naming the input and what is wrong with it
     */
    public static BucketLocation parse(String uri) {
        String text = uri == null ? "" : uri.strip();
        Scheme scheme = Scheme.of(text);
        if (scheme == null) {
            throw new IllegalArgumentException("'" + uri + "' is not a cloud location: expected az://container/prefix "
                    + "or gs://bucket/prefix");
        }
        Names names = Names.of(text.substring(scheme.id.length() + 3));
        String bucket = names.bucket();
        String prefix = names.prefix();
        if (bucket.isEmpty()) {
            throw new IllegalArgumentException("'" + uri + "' names no " + scheme.noun + ": expected " + scheme.id
                    + "://" + scheme.noun + "/prefix");
        }
        try {
            return new BucketLocation(scheme, bucket, prefix);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + uri + "': " + e.getMessage(), e);
        }
    }

    /** The bucket and the prefix of what follows a location's {@code scheme://}; a trailing slash is dropped. */
    public record Names(String bucket, String prefix) {

        public static Names of(String afterScheme) {
            int slash = afterScheme.indexOf('/');
            String prefix = slash < 0 ? "" : afterScheme.substring(slash + 1).replaceAll("/+$", "");
            return new Names(slash < 0 ? afterScheme : afterScheme.substring(0, slash), prefix);
        }
    }

    @Override
    public String toString() {
        return scheme.id + "://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix);
    }

    /**
     * What is wrong with a prefix of object names, or null: no leading or trailing slash, no empty, {@code .} or
     * {@code ..} segment, no control character or backslash, at most 512 characters.
     */
    public static String prefixProblem(String prefix) {
        if (prefix.isEmpty()) {
            return null;
        }
        if (prefix.startsWith("/") || prefix.endsWith("/")) {
            return "must not begin or end with '/'";
        }
        if (prefix.length() > 512) {
            return "longer than 512 characters";
        }
        if (prefix.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            return "contains a control character";
        }
        if (prefix.contains("\\")) {
            return "contains a backslash";
        }
        for (String segment : prefix.split("/", -1)) {
            if (segment.isEmpty()) {
                return "contains an empty segment ('//')";
            }
            if (segment.equals(".") || segment.equals("..")) {
                return "contains a '" + segment + "' segment";
            }
        }
        return null;
    }
}
