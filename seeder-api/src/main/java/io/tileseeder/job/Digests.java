package io.tileseeder.job;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Message digests as lower-case hex, of algorithms every JDK has. */
public final class Digests {

    private Digests() {
    }

    /** MD5: what S3 answers as the ETag of an object written in one part. */
    public static String md5(byte[] data) {
        return hex("MD5", data);
    }

    public static String sha256(byte[] data) {
        return hex("SHA-256", data);
    }

    private static String hex(String algorithm, byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no " + algorithm, e);
        }
    }
}
