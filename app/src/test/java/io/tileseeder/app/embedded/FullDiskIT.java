package io.tileseeder.app.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code seeder seed} into a folder on a disk that fills up: a 512 KiB tmpfs, mounted in a mount namespace of the
 * command's own ({@code unshare -m}, so nothing is left mounted whatever happens), too small for the job. The job
 * fails, saying the disk is full; no tile is left truncated under its final name nor as a temporary file, and no
 * tile is counted as written that is not there. The tmpfs is copied out before the namespace ends, to be read here.
 */
class FullDiskIT {

    private static final Path JAR = Path.of("target/quarkus-app/quarkus-run.jar");
    private static final Pattern WRITTEN = Pattern.compile("tiles written\\s+([\\d,]+)");

    @TempDir
    Path work;

    @Test
    void aJobOnAFullDiskFailsSayingSoAndLeavesOnlyWholeTilesItCounted() throws Exception {
        Path disk = Files.createDirectories(work.resolve("disk"));
        Path copy = Files.createDirectories(work.resolve("copy"));
        Path out = work.resolve("out.txt");
        Path err = work.resolve("err.txt");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String script = "mount -t tmpfs -o size=512k tmpfs \"$1\" || exit 90\n"
                + "\"$3\" -Xmx512m -Djava.awt.headless=true -jar \"$4\" seed --layer world --zoom 0-4 --out \"$1\"\n"
                + "status=$?\n"
                + "cp -a \"$1/.\" \"$2/\"\n"
                + "exit $status\n";
        ProcessBuilder builder = new ProcessBuilder("unshare", "-m", "sh", "-c", script, "sh", disk.toString(),
                copy.toString(), java, JAR.toAbsolutePath().toString())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        Process process = builder.start();

        assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("the seed on a full disk ended").isTrue();
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        String both = "stdout:\n" + stdout + "\nstderr:\n" + stderr;
        assertThat(process.exitValue()).as("mounting a tmpfs needs root in a mount namespace (unshare -m)\n%s", both)
                .isNotEqualTo(90);
        assertThat(process.exitValue()).as("exit status of a FAILED job\n%s", both).isEqualTo(2);
        assertThat(stderr).as(both).contains("job FAILED").contains("No space left on device");

        List<Path> files;
        try (Stream<Path> walk = Files.walk(copy)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        assertThat(files).as("temporary files left").noneMatch(file -> file.getFileName().toString().endsWith(".tmp"));
        List<Path> tiles = files.stream().filter(file -> file.toString().endsWith(".png")).toList();
        for (Path tile : tiles) {
            BufferedImage image = ImageIO.read(tile.toFile());
            assertThat(image).as("%s is a whole PNG (%d bytes)", tile, Files.size(tile)).isNotNull();
            assertThat(image.getWidth()).as("%s", tile).isEqualTo(256);
        }
        Matcher written = WRITTEN.matcher(stdout);
        assertThat(written.find()).as("the summary's tiles written\n%s", both).isTrue();
        long counted = Long.parseLong(written.group(1).replace(",", ""));
        assertThat(counted).as("tiles counted as written, %d tiles stored\n%s", tiles.size(), both)
                .isPositive().isLessThanOrEqualTo(tiles.size());
    }
}
