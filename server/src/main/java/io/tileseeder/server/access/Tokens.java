package io.tileseeder.server.access;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Optional;

/**
 * The API's tokens, as read from a tokens file. Only SHA-256 digests of the secrets are kept, and a presented
 * token is compared with every one of them in constant time, so neither the time of a refusal nor a heap dump
 * tells a secret.
 */
public final class Tokens {

    /** One token: the name it is known by in logs and messages, its role, and the digest of its secret. */
    public record Token(String name, String role, byte[] digest) {
    }

    private final List<Token> tokens;

    private Tokens(List<Token> tokens) {
        this.tokens = List.copyOf(tokens);
    }

    static Tokens of(List<Token> tokens) {
        return new Tokens(tokens);
    }

    /** The token whose secret this is, if any. */
    public Optional<Token> find(String secret) {
        byte[] presented = digest(secret);
        Token found = null;
        for (Token token : tokens) {
            if (MessageDigest.isEqual(token.digest(), presented)) {
                found = token;
            }
        }
        return Optional.ofNullable(found);
    }

    public int size() {
        return tokens.size();
    }

    static byte[] digest(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
