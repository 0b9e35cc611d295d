package io.tileseeder.adapters.sqlite;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One SQLite file of a single-file store (MBTiles, GeoPackage): one connection used by one thread at a time, in WAL
 * mode with {@code synchronous=FULL}, so that a {@link #transaction} is on disk when it returns and a crash leaves
 * the file as of the last one; and the documents a job leaves beside a cache (TileJSON, manifest, done markers), in a
 * table of their own by their path in a folder store.
 */
public final class SqliteFile implements AutoCloseable {

    /** Work on the file: its SQL, and the store's own checks. */
    public interface Work<T> {
        T run(Connection connection) throws SQLException, IOException;
    }

    private final Path file;
    private final Connection connection;
    private final ReentrantLock lock = new ReentrantLock();

    /** Opens (or creates) the file, with the documents table. */
    public SqliteFile(Path file) throws IOException {
        this.file = file.toAbsolutePath().normalize();
        try {
            this.connection = DriverManager.getConnection("jdbc:sqlite:" + this.file);
        } catch (SQLException e) {
            throw new IOException("cannot open " + this.file + ": " + e.getMessage(), e);
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA journal_mode=WAL");
            statement.execute("PRAGMA synchronous=FULL");
        } catch (SQLException e) {
            close();
            throw new IOException("cannot use " + this.file + " as an SQLite database: " + e.getMessage(), e);
        }
    }

    public Path path() {
        return file;
    }

    /** Whether the file has a table (or a view, with {@code type} "view") of that name. */
    public boolean has(String type, String name) throws IOException {
        return run(sql -> {
            try (PreparedStatement select = sql.prepareStatement(
                    "SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?")) {
                select.setString(1, type);
                select.setString(2, name);
                try (ResultSet row = select.executeQuery()) {
                    return row.next();
                }
            }
        });
    }

    /** Runs the statements, each on its own, in one transaction. */
    public void execute(String... statements) throws IOException {
        transaction(sql -> {
            try (Statement statement = sql.createStatement()) {
                for (String each : statements) {
                    statement.execute(each);
                }
            }
            return null;
        });
    }

    /** The work, with the connection to itself; an SQL failure named with the file. */
    public <T> T run(Work<T> work) throws IOException {
        lock.lock();
        try {
            return work.run(connection);
        } catch (SQLException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    /** The work in one transaction, committed (durably: WAL, {@code synchronous=FULL}) before this returns. */
    public <T> T transaction(Work<T> work) throws IOException {
        return run(sql -> {
            sql.setAutoCommit(false);
            try {
                T result = work.run(sql);
                sql.commit();
                return result;
            } catch (SQLException | IOException | RuntimeException e) {
                sql.rollback();
                throw e;
            } finally {
                sql.setAutoCommit(true);
            }
        });
    }

    /** Creates the documents table unless it is there. */
    public void createDocuments() throws IOException {
        execute("CREATE TABLE IF NOT EXISTS tileseeder_documents (name TEXT NOT NULL PRIMARY KEY, "
                + "content BLOB NOT NULL)");
    }

    /** Stores a document, within the caller's transaction. */
    public static void putDocument(Connection sql, String path, byte[] content) throws SQLException {
        try (PreparedStatement document = sql.prepareStatement(
                "INSERT OR REPLACE INTO tileseeder_documents (name, content) VALUES (?, ?)")) {
            document.setString(1, path);
            document.setBytes(2, content);
            document.executeUpdate();
        }
    }

    public Optional<byte[]> document(String path) throws IOException {
        return run(sql -> {
            try (PreparedStatement select = sql.prepareStatement(
                    "SELECT content FROM tileseeder_documents WHERE name = ?")) {
                select.setString(1, path);
                return blob(select);
            }
        });
    }

    /** The first column of the query's first row, as bytes; empty if it answers no row. */
    public static Optional<byte[]> blob(PreparedStatement select) throws SQLException {
        try (ResultSet row = select.executeQuery()) {
            return row.next() ? Optional.of(row.getBytes(1)) : Optional.empty();
        }
    }

    public void deleteDocuments(Collection<String> paths) throws IOException {
        if (paths.isEmpty()) {
            return;
        }
        transaction(sql -> {
            try (PreparedStatement delete = sql.prepareStatement("DELETE FROM tileseeder_documents WHERE name = ?")) {
                for (String path : paths) {
                    delete.setString(1, path);
                    delete.executeUpdate();
                }
            }
            return null;
        });
    }

    /** Deletes the documents whose path starts with {@code prefix}, within the caller's transaction. */
    public static long deleteDocumentsBelow(Connection sql, String prefix) throws SQLException {
        try (PreparedStatement delete = sql.prepareStatement(
                "DELETE FROM tileseeder_documents WHERE substr(name, 1, ?) = ?")) {
            delete.setInt(1, prefix.length());
            delete.setString(2, prefix);
            return delete.executeUpdate();
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            // closing: every transaction is committed or rolled back already
        }
    }
}
