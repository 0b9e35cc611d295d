package io.tileseeder.server.access;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a tokens file: one token a line, {@code NAME ROLE TOKEN} separated by whitespace, for example
 *
 * <pre>
 * # name       role   token
 * ci-reader    read   3f0c9a…
 * pipeline     write  9b71d2…   # the nightly seed
 * </pre>
 *
 * A field starting with {@code #} starts a comment that runs to the end of the line; blank lines are ignored.
 * ROLE is {@code read} or {@code write}. Names and tokens are unique. A mistake is refused with the file and the
 * line, never with a secret in the message.
 */
public final class TokensFile {

    private TokensFile() {
    }

    /**
     * The tokens in {@code file}.
     *
     * @throws IllegalArgumentException naming the file and the line at fault, or saying why the file cannot be read
     */
    public static Tokens read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("tokens file " + file + " does not exist");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read tokens file " + file + ": " + e.getMessage());
        }
        List<Tokens.Token> tokens = new ArrayList<>();
        Map<String, Integer> lineOfName = new HashMap<>();
        List<Integer> lineOfToken = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            int number = i + 1;
            List<String> fields = fields(lines.get(i));
            if (fields.isEmpty()) {
                continue;
            }
            if (fields.size() != 3) {
                throw mistake(file, number, "expected NAME ROLE TOKEN, found " + fields.size() + " field"
                        + (fields.size() == 1 ? "" : "s"));
            }
            String name = fields.get(0);
            String role = fields.get(1);
            if (!Roles.known(role)) {
                throw mistake(file, number, "role '" + role + "' of '" + name + "' is neither " + Roles.READ + " nor "
                        + Roles.WRITE);
            }
            Integer earlier = lineOfName.putIfAbsent(name, number);
            if (earlier != null) {
                throw mistake(file, number, "name '" + name + "' is already used on line " + earlier);
            }
            byte[] digest = Tokens.digest(fields.get(2));
            for (int t = 0; t < tokens.size(); t++) {
                if (MessageDigest.isEqual(tokens.get(t).digest(), digest)) {
                    throw mistake(file, number, "the token of '" + name + "' is the same as that of '"
                            + tokens.get(t).name() + "' on line " + lineOfToken.get(t));
                }
            }
            tokens.add(new Tokens.Token(name, role, digest));
            lineOfToken.add(number);
        }
        if (tokens.isEmpty()) {
            throw new IllegalArgumentException("tokens file " + file + " has no tokens: expected lines NAME ROLE TOKEN");
        }
        return Tokens.of(tokens);
    }

    /** The whitespace-separated fields of a line, up to a field that starts a comment. */
    private static List<String> fields(String line) {
        List<String> fields = new ArrayList<>();
        for (String field : Arrays.asList(line.strip().split("\\s+"))) {
            if (field.startsWith("#")) {
                break;
            }
            if (!field.isEmpty()) {
                fields.add(field);
            }
        }
        return fields;
    }

    private static IllegalArgumentException mistake(Path file, int line, String reason) {
        return new IllegalArgumentException("tokens file " + file + " line " + line + ": " + reason);
    }
}
