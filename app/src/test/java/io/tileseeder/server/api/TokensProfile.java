package io.tileseeder.server.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

/** The embedded API with a tokens file: every call needs a bearer token. */
public class TokensProfile implements QuarkusTestProfile {

    /** Constants, not random: the profile is loaded apart from the test class, by Quarkus's class loader. */
    public static final String READER = "r3ad-t0ken-for-tests";
    public static final String WRITER = "wr1te-t0ken-for-tests";

    private static final String STORE = "target/test-tiles/tokens-" + UUID.randomUUID();

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("seeder.store.path", STORE, "seeder.auth.tokens-file", write().toString());
    }

    private static Path write() {
        try {
            Path file = Path.of(STORE).toAbsolutePath().resolveSibling("tokens-" + UUID.randomUUID());
            Files.createDirectories(file.getParent());
            return Files.writeString(file, """
                    # name      role   token
                    ci-reader   read   %s
                    ci-writer   write  %s   # submits the nightly seed
                    """.formatted(READER, WRITER));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
