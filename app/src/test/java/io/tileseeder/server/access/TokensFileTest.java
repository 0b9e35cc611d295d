package io.tileseeder.server.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokensFileTest {

    @TempDir
    Path folder;

    @Test
    void readsNamesRolesAndTokensSkippingCommentsAndBlankLines() throws IOException {
        Tokens tokens = TokensFile.read(file("""
                # name      role   token

                ci-reader   read   r-secret
                  pipeline\twrite  w#secret   # a '#' inside a token is part of it
                """));

        assertThat(tokens.size()).isEqualTo(2);
        assertThat(tokens.find("r-secret")).hasValueSatisfying(token -> {
            assertThat(token.name()).isEqualTo("ci-reader");
            assertThat(token.role()).isEqualTo("read");
        });
        assertThat(tokens.find("w#secret")).hasValueSatisfying(token -> assertThat(token.name()).isEqualTo("pipeline"));
        assertThat(tokens.find("w")).isEmpty();
        assertThat(tokens.find("")).isEmpty();
        assertThat(tokens.find("r-secret ")).isEmpty();
    }

    @Test
    void writeIncludesRead() {
        assertThat(Roles.granted("write")).containsExactlyInAnyOrder("read", "write");
        assertThat(Roles.granted("read")).containsExactly("read");
    }

    @Test
    void aLineWithoutThreeFieldsIsRefusedWithFileAndLineAndNoSecret() throws IOException {
        Path file = file("a read one\nb write two three-and-a-half\n");

        assertThatThrownBy(() -> TokensFile.read(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tokens file " + file + " line 2: expected NAME ROLE TOKEN, found 4 fields");
        Path short_ = file("\n\nlonely\n");
        assertThatThrownBy(() -> TokensFile.read(short_))
                .hasMessage("tokens file " + short_ + " line 3: expected NAME ROLE TOKEN, found 1 field");
    }

    @Test
    void anUnknownRoleIsRefused() throws IOException {
        Path file = file("a read one\nroot admin two\n");

        assertThatThrownBy(() -> TokensFile.read(file))
                .hasMessage("tokens file " + file + " line 2: role 'admin' of 'root' is neither read nor write");
    }

    @Test
    void aDuplicateTokenIsRefusedWithoutShowingIt() throws IOException {
        Path file = file("a read same-secret\nb write other\nc write same-secret\n");

        assertThatThrownBy(() -> TokensFile.read(file))
                .hasMessage("tokens file " + file + " line 3: the token of 'c' is the same as that of 'a' on line 1")
                .message().doesNotContain("same-secret");
    }

    @Test
    void aDuplicateNameIsRefused() throws IOException {
        Path file = file("a read one\na write two\n");

        assertThatThrownBy(() -> TokensFile.read(file))
                .hasMessage("tokens file " + file + " line 2: name 'a' is already used on line 1");
    }

    @Test
    void aFileWithoutTokensIsRefused() throws IOException {
        Path file = file("# nobody yet\n\n");

        assertThatThrownBy(() -> TokensFile.read(file))
                .hasMessage("tokens file " + file + " has no tokens: expected lines NAME ROLE TOKEN");
    }

    @Test
    void aMissingFileIsRefusedByName() {
        Path file = folder.resolve("nowhere");

        assertThatThrownBy(() -> TokensFile.read(file)).hasMessage("tokens file " + file + " does not exist");
    }

    private Path file(String text) throws IOException {
        return Files.writeString(Files.createTempFile(folder, "tokens", ""), text);
    }
}
