package io.tileseeder.adapters.s3;

import io.tileseeder.adapters.bucket.BucketLocation;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A bucket and a key prefix (no leading or trailing slash; empty for the bucket's root), written
 * {@code s3://bucket/prefix}.
 */
public record S3Location(String bucket, String prefix) {

    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    public S3Location {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(prefix, "prefix");
        String problem = bucketNameProblem(bucket);
        if (problem != null) {
            throw new IllegalArgumentException("invalid bucket name '" + bucket + "': " + problem);
        }
        problem = BucketLocation.prefixProblem(prefix);
        if (problem != null) {
            throw new IllegalArgumentException("invalid key prefix '" + prefix + "': " + problem);
        }
    }

    /**
     * Reads {@code s3://bucket}, {@code s3://bucket/} or {@code s3://bucket/some/prefix} (a trailing slash is
     * ignored).
     *
     * @throws IllegalArgumentException naming the input and what is wrong with it
     */
    public static S3Location parse(String uri) {
        if (uri == null || uri.isBlank()) {
            throw new IllegalArgumentException("no S3 location given: expected s3://bucket/prefix");
        }
        String text = uri.strip();
        if (!text.regionMatches(true, 0, "s3://", 0, 5)) {
            throw new IllegalArgumentException("'" + uri + "' is not an S3 location: expected s3://bucket/prefix");
        }
        BucketLocation.Names names = BucketLocation.Names.of(text.substring(5));
        String bucket = names.bucket();
        String prefix = names.prefix();
        if (bucket.isEmpty()) {
            throw new IllegalArgumentException("'" + uri + "' names no bucket: expected s3://bucket/prefix");
        }
        try {
            return new S3Location(bucket, prefix);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + uri + "': " + e.getMessage(), e);
        }
    }

    /** The object name of {@code path} below the prefix. */
    public String objectName(String path) {
        return prefix.isEmpty() ? path : prefix + "/" + path;
    }

    @Override
    public String toString() {
        return "s3://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix);
    }

    /** Amazon S3's rules for general purpose bucket names; null if {@code name} keeps them. */
    static String bucketNameProblem(String name) {
        if (name.length() < 3 || name.length() > 63) {
            return "must be 3 to 63 characters long";
        }
        if (!name.equals(name.toLowerCase(Locale.ROOT)) && name.toLowerCase(Locale.ROOT).chars()
                .allMatch(c -> (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-')) {
            return "must be lower case";
        }
        if (!BUCKET.matcher(name).matches()) {
            return "only lower-case letters, digits, dots and hyphens, beginning and ending with a letter or "
                    + "digit";
        }
        if (name.contains("..") || name.contains(".-") || name.contains("-.")) {
            return "must not contain '..', '.-' or '-.'";
        }
        if (IPV4.matcher(name).matches()) {
            return "must not look like an IP address";
        }
        for (String reserved : List.of("xn--", "sthree-", "amzn-s3-demo-")) {
            if (name.startsWith(reserved)) {
                return "must not begin with '" + reserved + "' (reserved)";
            }
        }
        for (String reserved : List.of("-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3")) {
            if (name.endsWith(reserved)) {
                return "must not end with '" + reserved + "' (reserved)";
            }
        }
        return null;
    }
}
