package io.tileseeder.app.cli;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

/**
 * The server the {@code submit} and {@code wait} tests talk to: a tile store new on every run, and the bundled
 * layers plus one, {@code broken}, whose data file does not exist, so that a job on it FAILS.
 */
public class RemoteCliProfile implements QuarkusTestProfile {

    /** The store root for this JVM, relative to the module folder (the test's working directory). */
    static final String STORE = "target/test-tiles/remote-cli-" + UUID.randomUUID();
    /** The layer whose jobs fail: its data file is missing. */
    static final String BROKEN = "broken";
    static final String MISSING_DATA = "missing.geojson";

    private static final Path LAYERS = writeLayers();

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("seeder.store.path", STORE, "seeder.layers.file", LAYERS.toString());
    }

    /** A copy of the bundled catalogue, with its data next to it, and the broken layer appended. */
    private static Path writeLayers() {
        try {
            Path folder = Path.of(STORE).toAbsolutePath().resolveSibling("remote-cli-layers-" + UUID.randomUUID());
            Files.createDirectories(folder.resolve("world"));
            Path file = folder.resolve("layers.yaml");
            copy("layers/layers.yaml", file);
            copy("layers/world/countries.geojson", folder.resolve("world/countries.geojson"));
            copy("layers/world/africa.geojson", folder.resolve("world/africa.geojson"));
            Files.writeString(file, Files.readString(file).stripTrailing() + "\n" + """
                      - name: %s
                        zoom: {min: 0, max: 5}
                        source:
                          type: vector
                          data: [%s]
                        style:
                          - fill: "#ff0000"
                            stroke: "#000000"
                    """.formatted(BROKEN, MISSING_DATA));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void copy(String resource, Path target) throws IOException {
        try (InputStream in = RemoteCliProfile.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("resource " + resource + " is missing from the class path");
            }
            Files.copy(in, target);
        }
    }
}
