package io.tileseeder.server.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** A store of its own and a layers file with a layer of dimensions (its WMS is never called by these tests). */
public class DimensionsProfile implements QuarkusTestProfile {

    /**
     * Not random: Quarkus loads the profile and the test class in class loaders of their own, each with its own
     * statics. The tests only read tiles they write themselves.
     */
    static final String STORE = "target/test-tiles/dimensions";

    @Override
    public Map<String, String> getConfigOverrides() {
        try {
            Path layers = Files.createDirectories(Path.of(STORE).toAbsolutePath()).resolveSibling(
                    Path.of(STORE).getFileName() + ".yaml");
            Files.writeString(layers, """
                    layers:
                      - name: radar
                        zoom: {min: 0, max: 8}
                        tileMatrixSets: [WebMercatorQuad]
                        source: {type: wms, url: "http://127.0.0.1:9/wms", layers: [radar]}
                        dimensions:
                          - {name: TIME, values: ["2026-11-26T00:00Z/2026-11-26T23:55Z/PT5M"], default: "2026-11-26T12:00Z"}
                          - {name: FILTER, pattern: ".*", default: "all"}
                    """);
            return Map.of("seeder.store.path", STORE, "seeder.layers.file", layers.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
