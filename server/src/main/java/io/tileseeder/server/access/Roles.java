package io.tileseeder.server.access;

import java.util.Set;

/**
 * The roles of API tokens. {@code read}: list and inspect jobs, wait on them, list layers, preview tiles.
 * {@code write}: also submit and cancel jobs.
 */
public final class Roles {

    public static final String READ = "read";
    public static final String WRITE = "write";

    private Roles() {
    }

    /** Whether {@code role} is one a token may have. */
    static boolean known(String role) {
        return READ.equals(role) || WRITE.equals(role);
    }

    /** The roles a token of {@code role} holds: {@code write} includes {@code read}. */
    static Set<String> granted(String role) {
        return WRITE.equals(role) ? Set.of(READ, WRITE) : Set.of(READ);
    }
}
