package io.tileseeder.app.cli;

import static io.tileseeder.app.cli.Cli.describe;
import static io.tileseeder.app.cli.Cli.files;
import static io.tileseeder.app.cli.Cli.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code seeder pack} end to end: a seeded cache packed into an archive whose header and metadata say what the cache
 * holds (go-pmtiles reads its tiles back in {@code CachePackerIT}), and each bad argument refused with what is wrong.
 */
@QuarkusMainTest
class PackCommandTest {

    @TempDir
    Path out;

    @Test
    void aSeededCacheIsPackedWithItsZoomsTypeAndTileJson(QuarkusMainLauncher launcher) throws Exception {
        LaunchResult seed = launcher.launch("seed", "--layer", "world", "--zoom", "1-3", "--out", out.toString());
        assertThat(seed.exitCode()).as(describe(seed)).isZero();
        long tiles = files(out).stream().filter(name -> name.endsWith(".png")).count();
        Path archive = out.resolve("world.pmtiles");

        LaunchResult pack = launcher.launch("pack", out.resolve("world/WebMercatorQuad").toString(),
                archive.toString());

        assertThat(pack.exitCode()).as(describe(pack)).isZero();
        assertThat(pack.getOutput()).as(describe(pack)).contains("packed " + tiles + " tiles of zooms 1-3 from "
                + out.toAbsolutePath() + "/world/WebMercatorQuad into " + archive);
        byte[] bytes = Files.readAllBytes(archive);
        ByteBuffer header = ByteBuffer.wrap(bytes, 0, 127).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(new String(bytes, 0, 7)).isEqualTo("PMTiles");
        assertThat(header.getLong(72)).as("addressed tiles").isEqualTo(tiles);
        assertThat(header.get(99)).as("PNG").isEqualTo((byte) 2);
        assertThat(header.get(100)).as("min zoom").isEqualTo((byte) 1);
        assertThat(header.get(101)).as("max zoom").isEqualTo((byte) 3);
        int metadataOffset = (int) header.getLong(24);
        int metadataLength = (int) header.getLong(32);
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(Arrays.copyOfRange(bytes,
                metadataOffset, metadataOffset + metadataLength)))) {
            JsonNode metadata = new ObjectMapper().readTree(in);
            assertThat(metadata.path("name").asText()).isEqualTo("World countries");
            assertThat(metadata.path("attribution").asText()).contains("Natural Earth");
            assertThat(metadata.path("format").asText()).isEqualTo("png");
            assertThat(metadata.has("tiles")).as("no URL of the cache").isFalse();
        }
    }

    @Test
    void aSeedWithPackWritesTheArchiveOnceTheJobSucceeded(QuarkusMainLauncher launcher) throws Exception {
        Path archive = out.resolve("world.pmtiles");

        LaunchResult seed = launcher.launch("seed", "--layer", "world", "--zoom", "0-2", "--out",
                out.resolve("tiles").toString(), "--pack", archive.toString());

        assertThat(seed.exitCode()).as(describe(seed)).isZero();
        long tiles = files(out.resolve("tiles")).stream().filter(name -> name.endsWith(".png")).count();
        assertThat(seed.getOutput()).as(describe(seed)).contains("SUCCEEDED world z0-2")
                .contains("packed " + tiles + " tiles of zooms 0-2 from " + out.toAbsolutePath()
                        + "/tiles/world/WebMercatorQuad into " + archive);
        byte[] bytes = Files.readAllBytes(archive);
        assertThat(new String(bytes, 0, 7)).isEqualTo("PMTiles");
        assertThat(ByteBuffer.wrap(bytes, 0, 127).order(ByteOrder.LITTLE_ENDIAN).getLong(72)).isEqualTo(tiles);

        assertThat(refusal(launcher.launch("seed", "--layer", "world", "--zoom", "0-1", "--out",
                out.resolve("other").toString(), "--pack", out.resolve("a.mbtiles").toString())))
                .contains("--pack: '" + out.resolve("a.mbtiles") + "' does not end in .pmtiles");
        assertThat(refusal(launcher.launch("seed", "--layer", "world", "--zoom", "0-1", "--tile-matrix-set",
                "WorldCRS84Quad", "--out", out.resolve("other").toString(), "--pack", archive.toString())))
                .contains("pack: PMTiles holds WebMercatorQuad tiles; the job seeds WorldCRS84Quad");
        assertThat(files(out.resolve("other"))).as("nothing seeded for a refused job").isEmpty();
    }

    @Test
    void badArgumentsAreRefusedWithWhatIsWrong(QuarkusMainLauncher launcher) throws Exception {
        LaunchResult seed = launcher.launch("seed", "--layer", "world", "--zoom", "0-1", "--out", out.toString());
        assertThat(seed.exitCode()).as(describe(seed)).isZero();
        String cache = out.resolve("world/WebMercatorQuad").toString();
        String archive = out.resolve("a.pmtiles").toString();

        assertThat(refusal(launcher.launch("pack", out.resolve("world").toString(), archive)))
                .contains("is not the folder of a Web Mercator cache", "{store}/{layer}/WebMercatorQuad");
        assertThat(refusal(launcher.launch("pack", out.resolve("world/WorldCRS84Quad").toString(), archive)))
                .contains("is not the folder of a Web Mercator cache");
        assertThat(refusal(launcher.launch("pack", cache, out.resolve("a.mbtiles").toString())))
                .contains("ARCHIVE", "does not end in .pmtiles");
        assertThat(refusal(launcher.launch("pack", cache, out.resolve("missing/a.pmtiles").toString())))
                .contains("the folder " + out.resolve("missing"), "does not exist");
        assertThat(refusal(launcher.launch("pack", out.resolve("other/WebMercatorQuad").toString(), archive)))
                .contains("other/WebMercatorQuad holds no finished cache", "manifest-{format}.json");
        assertThat(refusal(launcher.launch("pack", "--format", "jpeg", cache, archive)))
                .contains("holds no finished jpeg tiles (no manifest-jpeg.json); it holds png");
        assertThat(refusal(launcher.launch("pack", "--format", "tiff", cache, archive)))
                .contains("--format: unknown 'tiff'; one of png, png8, jpeg");
        assertThat(refusal(launcher.launch("pack", "--readers", "0", cache, archive)))
                .contains("--readers must be 1 to 64, got 0");
        assertThat(refusal(launcher.launch("pack", "--readers", "1000", cache, archive)))
                .contains("--readers must be 1 to 64, got 1000");
        assertThat(files(out)).as("no archive, no temporary file").noneMatch(name -> name.contains("pmtiles"));
    }
}
