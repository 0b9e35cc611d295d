package io.tileseeder.app.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tileseeder.job.JobRequest;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A WMTS of another maker cascaded: the dev services' MapCache (Debian's mapcache-cgi, caching the dev MapServer's
 * {@code world} and WMS-T {@code frames} layers), read through its own capabilities. Its tiles are kept byte for byte
 * (same grid, same format), empty ones skipped; through its RESTful template, and through its KVP GetTile alone when
 * the capabilities have no template; a TIME dimension of the layer is sent as MapCache's TIME; its EPSG:4326 set is
 * warped into Web Mercator.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MapCacheWmtsIT {

    private static final int ZOOM = 3;
    private static final List<String> TIMES = List.of("2026-11-26T12:00:00Z", "2026-11-26T12:05:00Z");

    private static String wmtsUrl;
    /**
     * HTTP/1.1, as the seeder's own WMS client (OkHttp) speaks it: the dev services' lighttpd closes a connection
     * when it likes (its keep-alive limits), and the JDK sends a GET again on a new connection when its pooled
     * HTTP/1.1 connection turns out closed, but fails it on an HTTP/2 connection (h2c, which Java's client asks for by
     * default and lighttpd grants) that the server closed: "EOF reached while reading", once in a CI run.
     */
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path root;

    @BeforeAll
    static void server() {
        wmtsUrl = System.getenv("SEEDER_WMTS_URL");
        assertThat(wmtsUrl).as("SEEDER_WMTS_URL (run dev/services up --wms and source .dev/services.env)")
                .isNotBlank();
    }

    @Test
    void itsRestfulTilesAreKeptByteForByte() throws Exception {
        Path out = seed("world", wmtsUrl + "?SERVICE=WMTS&REQUEST=GetCapabilities", "", Map.of());
        assertCacheIsMapCaches(out.resolve("cascade/WebMercatorQuad"), "world", null);
    }

    /**
     * Its EPSG:4326 set (MapCache's WGS84) into WebMercatorQuad, warped: against MapCache's own Web Mercator tiles
     * (the WMS's drawing in that CRS), z0-3, the mean difference per channel stays under 4 of 255.
     */
    @Test
    void itsSetInAnotherCrsIsWarped() throws Exception {
        Path out = seed("world", wmtsUrl + "?SERVICE=WMTS&REQUEST=GetCapabilities", "", Map.of(), "WGS84");
        long difference = 0;
        long samples = 0;
        for (int z = 0; z <= ZOOM; z++) {
            for (int x = 0; x < 1 << z; x++) {
                for (int y = 0; y < 1 << z; y++) {
                    BufferedImage theirs = ImageIO.read(new ByteArrayInputStream(tile(wmtsUrl + "?SERVICE=WMTS"
                            + "&REQUEST=GetTile&VERSION=1.0.0&LAYER=world&STYLE=default&FORMAT=image%2Fpng"
                            + "&TILEMATRIXSET=GoogleMapsCompatible&TILEMATRIX=" + z + "&TILEROW=" + y + "&TILECOL="
                            + x)));
                    Path file = out.resolve("cascade/WebMercatorQuad/" + z + "/" + x + "/" + y + ".png");
                    BufferedImage ours = Files.exists(file) ? ImageIO.read(file.toFile()) : null;
                    for (int py = 0; py < 256; py++) {
                        for (int px = 0; px < 256; px++) {
                            int expected = theirs.getRGB(px, py);
                            int got = ours == null ? 0 : ours.getRGB(px, py);
                            for (int shift = 0; shift < 32; shift += 8) {
                                difference += Math.abs((got >>> shift & 0xff) - (expected >>> shift & 0xff));
                                samples++;
                            }
                        }
                    }
                }
            }
        }
        double mean = (double) difference / samples;
        System.out.printf("MapCache's WGS84 warped into WebMercatorQuad z0-%d: mean difference %.2f of 255%n", ZOOM,
                mean);
        assertThat(mean).isLessThan(4);
    }

    /** Its capabilities without their ResourceURLs, served as a file: only the KVP GetTile address is left. */
    @Test
    void aKvpOnlyWmtsIsCascadedThroughItsGetTileAddressWithEachTime() throws Exception {
        String capabilities = get(wmtsUrl + "?SERVICE=WMTS&REQUEST=GetCapabilities").body();
        String kvpOnly = capabilities.replaceAll("(?s)<ResourceURL[^>]*>(</ResourceURL>)?", "");
        assertThat(kvpOnly).doesNotContain("ResourceURL").contains("<ows:Identifier>TIME</ows:Identifier>");
        Path site = Files.createDirectories(root.resolve("site"));
        Files.writeString(site.resolve("capabilities.xml"), kvpOnly);
        try (StaticWebServer files = StaticWebServer.serve(site, root)) {
            Path out = seed("frames", files.url() + "/capabilities.xml", """
                        dimensions:
                          - name: TIME
                            values: [%s, %s]
                            default: %s
                    """.formatted(TIMES.get(0), TIMES.get(1), TIMES.get(0)),
                    Map.of("TIME", new ObjectMapper().valueToTree(TIMES)));
            for (String time : TIMES) {
                assertCacheIsMapCaches(out.resolve("cascade/WebMercatorQuad/" + time), "frames", time);
            }
        }
    }

    /**
     * Every tile to {@link #ZOOM}: where MapCache's is empty (fully transparent) none, else MapCache's bytes (which
     * the seeder's own encoder would not write: MapCache's PNGs are true colour). A time's cache is compared with
     * MapCache's tiles of that time, which differ where the frames do.
     */
    private static void assertCacheIsMapCaches(Path cache, String layer, String time) throws Exception {
        int stored = 0;
        for (int z = 0; z <= ZOOM; z++) {
            for (int x = 0; x < 1 << z; x++) {
                for (int y = 0; y < 1 << z; y++) {
                    byte[] theirs = tile(wmtsUrl + "?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=" + layer
                            + "&STYLE=default&FORMAT=image%2Fpng&TILEMATRIXSET=GoogleMapsCompatible&TILEMATRIX=" + z
                            + "&TILEROW=" + y + "&TILECOL=" + x + (time == null ? "" : "&TIME=" + time));
                    Path ours = cache.resolve(z + "/" + x + "/" + y + ".png");
                    if (transparent(theirs)) {
                        assertThat(ours).as("%s: empty at MapCache", ours).doesNotExist();
                    } else {
                        assertThat(Files.readAllBytes(ours)).as("%s", ours).isEqualTo(theirs);
                        stored++;
                    }
                }
            }
        }
        assertThat(stored).as("tiles compared in " + cache).isPositive();
    }

    private Path seed(String layer, String capabilities, String dimensions, Map<String, JsonNode> values)
            throws Exception {
        return seed(layer, capabilities, dimensions, values, "GoogleMapsCompatible");
    }

    private Path seed(String layer, String capabilities, String dimensions, Map<String, JsonNode> values,
                      String theirSet) throws Exception {
        Path layers = root.resolve("layers.yaml");
        Files.writeString(layers, """
                layers:
                  - name: cascade
                    tileMatrixSets: [WebMercatorQuad]
                    gutter: 0
                    source:
                      type: wmts
                      url: "%s"
                      layer: %s
                      tileMatrixSet: %s
                      timeout: 30s
                %s""".formatted(capabilities, layer, theirSet, dimensions));
        Path out = root.resolve("seeded");
        EmbeddedJobs.succeed(Map.of("seeder.store.path", out.toString(), "seeder.layers.file", layers.toString()),
                new JobRequest("cascade", null, new JobRequest.Zoom(0, ZOOM), null, null, null, null, null, null,
                        Map.of(), null, null, null, values));
        return out;
    }

    private static boolean transparent(byte[] png) throws Exception {
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if (image.getRGB(x, y) >>> 24 != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    private static HttpResponse<String> get(String url) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(url).isEqualTo(200);
        return response;
    }

    private static byte[] tile(String url) throws Exception {
        HttpResponse<byte[]> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).as(url).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).as(url).contains("image/png");
        return response.body();
    }
}
