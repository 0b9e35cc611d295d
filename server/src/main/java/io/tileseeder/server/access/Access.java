package io.tileseeder.server.access;

import io.tileseeder.runtime.SeederConfig;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether the API needs a token ({@code seeder.auth.tokens-file} is set) and which tokens it accepts. The file is
 * read once, when {@code seeder serve} starts (or at the first request that needs it).
 */
@Singleton
public class Access {

    private final Optional<Path> file;
    private Tokens tokens;

    public Access(SeederConfig config) {
        this.file = config.auth().tokensFile().filter(name -> !name.isBlank()).map(Path::of);
    }

    /** Whether every API call needs a bearer token. */
    public boolean enabled() {
        return file.isPresent();
    }

    /**
     * The accepted tokens, read from the file on first use.
     *
     * @throws IllegalArgumentException naming the file (and line) when it cannot be used; also when auth is off
     */
    public synchronized Tokens tokens() {
        if (tokens == null) {
            tokens = TokensFile.read(file.orElseThrow(() -> new IllegalStateException("no tokens file is set")));
        }
        return tokens;
    }
}
