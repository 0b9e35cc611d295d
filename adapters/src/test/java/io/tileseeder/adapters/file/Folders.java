package io.tileseeder.adapters.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** What a test sees of a folder a {@link FileTileStore} wrote into. */
public final class Folders {

    private Folders() {
    }

    /** Every regular file below {@code root}, relative to it with '/' separators. */
    public static Set<String> regularFiles(Path root) throws IOException {
        if (!Files.exists(root)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile)
                    .map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /**
     * The tiles below {@code root}: the files at {@code {layer}/{tileMatrixSet}/{z}/...}, without the documents beside
     * them (done markers, change lists, TileJSON).
     */
    public static Set<String> tiles(Path root) throws IOException {
        return regularFiles(root).stream().filter(name -> name.matches("[^/]+/[^/]+/\\d+/.*"))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The files below {@code root} whose name ends in {@code .tmp}. */
    public static Set<String> tempFiles(Path root) throws IOException {
        return regularFiles(root).stream().filter(name -> name.endsWith(".tmp"))
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
