package io.tileseeder.adapters.pmtiles;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A pack whose disk fills up mid-way, on a real full file system: the packer runs in a JVM of its own inside a mount
 * namespace (util-linux's {@code unshare}, as an unprivileged user) where the archive's folder is a small tmpfs. The
 * tiles take 1.4 MB: 512 KiB fills up while the tiles are written to their temporary file, 2 MiB while the archive is
 * written from it. Either way the pack fails saying the disk is full and which archive; the archive that was there
 * before is left as it was, and none of the pack's temporary files.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FullDiskPackTest {

    private static final TileCache WORLD = new TileCache("world", TileMatrixSet.WEB_MERCATOR_QUAD);
    private static final String BEFORE = "the archive before";

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"512k", "2m"})
    void aDiskThatFillsUpMidPackFailsTheDiskFullNamingTheFileAndLeavesTheArchiveBefore(String size) throws Exception {
        Path tiles = dir.resolve("tiles");
        List<EncodedTile> written = new ArrayList<>();
        for (int x = 0; x < 64; x++) {
            for (int y = 0; y < 64; y++) {
                written.add(new EncodedTile(new TileKey(WORLD, TileCoord.of(6, x, y), TileFormat.PNG),
                        ("tile " + x + "/" + y + " ").repeat(30).getBytes(StandardCharsets.UTF_8)));
            }
        }
        new FileTileStore(tiles).write(written);
        Path small = Files.createDirectories(dir.resolve("small"));

        String report = inSmallDisk(small, size, tiles);

        assertThat(report).as("the pack's report").startsWith("failed: cannot write " + small.resolve("world.pmtiles")
                + ": No space left on device\n");
        assertThat(report).as("what the pack left on the full disk")
                .endsWith("left: world.pmtiles (" + BEFORE.length() + " bytes)\n");
    }

    /**
     * Runs {@link Packing} in a new user and mount namespace where {@code small} is a tmpfs of {@code size} holding
     * the archive of before; returns what it printed. The tmpfs goes with the namespace, so the packer itself reports
     * what is left on it.
     */
    private static String inSmallDisk(Path small, String size, Path tiles) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String script = "mount -t tmpfs -o size=\"$1\" tmpfs \"$2\" && shift 2 && exec \"$@\"";
        Process process = new ProcessBuilder("unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script,
                "sh", size, small.toString(), java, "-cp", System.getProperty("java.class.path"), Packing.class.getName(),
                tiles.toString(), small.resolve("world.pmtiles").toString()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }

    /** Writes the archive of before on the small disk, packs the cache onto it, and says what failed and what is left. */
    static final class Packing {
        public static void main(String[] args) throws Exception {
            Path archive = Path.of(args[1]);
            Files.writeString(archive, BEFORE);
            try {
                new CachePacker(new FileTileStore(Path.of(args[0])), CachePacker.Limits.DEFAULT).pack(WORLD,
                        TileFormat.PNG, 0, 6, new CachePacker.About(PmtilesWriter.TileType.PNG,
                                new double[] {-180, -85, 180, 85}, "{}"), archive);
                System.out.println("packed");
            } catch (IOException e) {
                System.out.println("failed: " + e.getMessage());
            }
            StringBuilder left = new StringBuilder("left:");
            try (Stream<Path> files = Files.list(archive.getParent()).sorted()) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    left.append(' ').append(file.getFileName()).append(" (").append(Files.size(file)).append(" bytes)");
                }
            }
            if (!Files.readString(archive).equals(BEFORE)) {
                left.append(" (the archive before was changed)");
            }
            System.out.println(left);
        }
    }
}
