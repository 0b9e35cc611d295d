package io.tileseeder.adapters.sqlite;

import io.tileseeder.adapters.TileStoreContract;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link TileStoreContract} of a single-file store on SQLite, a new file per test, and what the tests of one need
 * to look at the file with plain SQL, as another reader would.
 */
public abstract class SqliteStoreContract<S extends TileStore & AutoCloseable> extends TileStoreContract {

    @TempDir
    protected Path dir;

    protected Path file;
    protected S store;

    /** Opens (or creates) the store's file. */
    protected abstract S open(Path file) throws IOException;

    /** The file's name in the test's folder, with its extension. */
    protected abstract String fileName();

    @BeforeEach
    void openStore() throws IOException {
        file = dir.resolve(fileName());
        store = open(file);
    }

    @AfterEach
    void closeStore() throws Exception {
        store.close();
    }

    @Override
    protected TileStore store() {
        return store;
    }

    @Override
    protected Optional<byte[]> readMetadata(TileCache cache, String name) throws IOException {
        try (Connection sql = sql();
             PreparedStatement select = sql.prepareStatement("SELECT content FROM tileseeder_documents WHERE name = ?")) {
            select.setString(1, cache.path() + "/" + name);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(row.getBytes(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IOException(e);
        }
    }

    /** The first column of each row the query answers, as text (a blob as UTF-8). */
    protected List<String> query(String query) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = sql(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery(query)) {
            while (row.next()) {
                Object value = row.getObject(1);
                rows.add(value instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(value));
            }
        }
        return rows;
    }

    protected Connection sql() throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + file);
    }

    protected static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
