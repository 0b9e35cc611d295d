package io.tileseeder.render.wms;

import static io.tileseeder.render.wms.LoopbackWms.answer;
import static io.tileseeder.render.wms.LoopbackWms.png;
import static io.tileseeder.render.wms.LoopbackWms.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import com.sun.net.httpserver.HttpExchange;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.layer.TileSourceConfig;
import io.tileseeder.layer.WmsSourceConfig;
import io.tileseeder.port.DependencyUnavailableException;
import io.tileseeder.port.UpstreamPermits;
import io.tileseeder.port.UpstreamPermits.Hold;
import java.awt.image.BufferedImage;
import java.awt.image.IndexColorModel;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.zip.CRC32;
import javax.imageio.ImageIO;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link WmsClient} against a loopback server that produces the faults a real MapServer cannot: 5xx answers, proxies'
 * pages, cut connections, slow answers. Every case checks what the caller gets and how many requests the upstream
 * saw.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class WmsClientTest {

    private static final int WIDTH = 64;
    private static final int HEIGHT = 32;
    private static final Duration SHORT_TIMEOUT = Duration.ofMillis(300);
    /** How long a test waits for a condition that should hold at once. */
    private static final Duration PATIENCE = Duration.ofSeconds(5);

    private static final String SERVICE_EXCEPTION = """
            <?xml version='1.0' encoding="ISO-8859-1" standalone="no" ?>
            <!DOCTYPE ServiceExceptionReport SYSTEM "http://schemas.opengis.net/wms/1.1.1/exception_1_1_1.dtd">
            <ServiceExceptionReport version="1.1.1">
            <ServiceException code="LayerNotDefined">
            msWMSLoadGetMapParams(): WMS server error. Invalid layer(s) given in the LAYERS parameter.
            </ServiceException>
            </ServiceExceptionReport>
            """;
    private static final String MAPSERVER_TEXT =
            "msWMSLoadGetMapParams(): WMS server error. Invalid layer(s) given in the LAYERS parameter.";

    private final WmsClient client = new WmsClient(4);

    // The image.

    @Test
    void aGoodPngIsDecodedPixelForPixel() throws Exception {
        BufferedImage sent = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_ARGB);
        sent.setRGB(0, 0, 0xffff0000);
        sent.setRGB(WIDTH - 1, HEIGHT - 1, 0xff0000ff);
        sent.setRGB(10, 5, 0x80123456);
        try (LoopbackWms server = new LoopbackWms(answer(200, "image/png", png(sent)))) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(1), 2);

            BufferedImage image = client.getMap(config, url(config), WIDTH, HEIGHT);

            assertThat(image.getWidth()).isEqualTo(WIDTH);
            assertThat(image.getHeight()).isEqualTo(HEIGHT);
            assertThat(image.getRGB(0, 0)).isEqualTo(0xffff0000);
            assertThat(image.getRGB(WIDTH - 1, HEIGHT - 1)).isEqualTo(0xff0000ff);
            assertThat(image.getRGB(10, 5)).as("half transparent").isEqualTo(0x80123456);
            assertThat(image.getRGB(1, 0) >>> 24).as("alpha of a transparent pixel").isZero();
            assertThat(server.requests()).isEqualTo(1);
            assertThat(client.requests()).isEqualTo(1);
            assertThat(client.failures()).isZero();
            assertThat(server.queries()).singleElement().asString().contains("REQUEST=GetMap", "WIDTH=64",
                    "HEIGHT=32", "LAYERS=world");
        }
    }

    @Test
    void pngsAreDecodedStraightIntoTheGivenRasterWithTheSamePixels() throws Exception {
        BufferedImage argb = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_ARGB);
        BufferedImage rgb = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        BufferedImage grey = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_BYTE_GRAY);
        for (int y = 0; y < HEIGHT; y++) {
            for (int x = 0; x < WIDTH; x++) {
                int value = x * 4 << 16 | y * 8 << 8 | (x + y) & 0xff;
                argb.setRGB(x, y, (x * y & 0xff) << 24 | value);
                rgb.setRGB(x, y, value);
                grey.setRGB(x, y, value);
            }
        }
        // What a WMS sends for image/png; mode=8bit: a palette, translucent entries in a tRNS chunk. A short palette
        // (most 8-bit answers), and one of 4 bits a pixel, which goes through ImageIO.
        BufferedImage indexed = indexed(256, 8);
        BufferedImage fewColours = indexed(16, 8);
        BufferedImage fourBits = indexed(16, 4);
        for (BufferedImage sent : List.of(argb, rgb, grey, indexed, fewColours, fourBits)) {
            byte[] body = png(sent);
            try (LoopbackWms server = new LoopbackWms(answer(200, "image/png", body))) {
                WmsSourceConfig config = config(server.url(), Duration.ofSeconds(1), 0);
                BufferedImage into = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_ARGB);

                BufferedImage own = client.getMap(config, url(config), WIDTH, HEIGHT);
                BufferedImage decoded = client.getMap(config, url(config), WIDTH, HEIGHT, into);

                if (sent != grey && sent != fourBits) {
                    assertThat(decoded).as("8-bit RGB(A) or palette goes straight into the raster").isSameAs(into);
                }
                boolean exact = sent.getType() == BufferedImage.TYPE_INT_ARGB || sent.getColorModel()
                        instanceof IndexColorModel;
                for (int y = 0; y < HEIGHT; y++) {
                    for (int x = 0; x < WIDTH; x++) {
                        assertThat(decoded.getRGB(x, y)).as("type %d, pixel %d,%d", sent.getType(), x, y)
                                .isEqualTo(own.getRGB(x, y)).isEqualTo(exact ? sent.getRGB(x, y) : own.getRGB(x, y));
                    }
                }
            }
        }
    }

    @Test
    void aRasterOfAnotherSizeIsLeftAloneAndTheImageDecodedOnItsOwn() throws Exception {
        BufferedImage sent = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_ARGB);
        sent.setRGB(WIDTH - 1, HEIGHT - 1, 0xff0000ff);
        try (LoopbackWms server = new LoopbackWms(answer(200, "image/png", png(sent)))) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(1), 0);
            BufferedImage small = new BufferedImage(WIDTH / 2, HEIGHT / 2, BufferedImage.TYPE_INT_ARGB);

            BufferedImage decoded = client.getMap(config, url(config), WIDTH, HEIGHT, small);

            assertThat(decoded).isNotSameAs(small);
            assertThat(decoded.getRGB(WIDTH - 1, HEIGHT - 1)).isEqualTo(0xff0000ff);
            assertThat(small.getRGB(0, 0, WIDTH / 2, HEIGHT / 2, null, 0, WIDTH / 2)).containsOnly(0);
        }
    }

    /**
     * An image of {@code colours} palette entries at {@code bits} a pixel, every entry used: colour and alpha vary
     * with the index, index 0 fully transparent.
     */
    private static BufferedImage indexed(int colours, int bits) {
        byte[] r = new byte[colours];
        byte[] g = new byte[colours];
        byte[] b = new byte[colours];
        byte[] a = new byte[colours];
        for (int i = 0; i < colours; i++) {
            r[i] = (byte) (i * 7);
            g[i] = (byte) (255 - i);
            b[i] = (byte) (i * 31);
            a[i] = (byte) (i == 0 ? 0 : i % 3 == 0 ? 128 + i / 2 : 255);
        }
        IndexColorModel model = new IndexColorModel(bits, colours, r, g, b, a);
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, bits == 8 ? BufferedImage.TYPE_BYTE_INDEXED
                : BufferedImage.TYPE_BYTE_BINARY, model);
        for (int y = 0; y < HEIGHT; y++) {
            for (int x = 0; x < WIDTH; x++) {
                image.getRaster().setSample(x, y, 0, (x * 3 + y * 5) % colours);
            }
        }
        return image;
    }

    @Test
    void aPngWhosePixelsArePastItsPaletteIsAnError() throws Exception {
        byte[] body = png(indexed(16, 8));
        // Every index of the 16-colour image ends up past a palette cut to 8 entries: PLTE length 48 → 24.
        int plte = indexOf(body, "PLTE".getBytes(StandardCharsets.US_ASCII)) - 4;
        byte[] cut = Arrays.copyOf(body, body.length - 24);
        ByteBuffer.wrap(cut).putInt(plte, 24);
        System.arraycopy(body, plte + 8 + 48, cut, plte + 8 + 24, body.length - (plte + 8 + 48));
        CRC32 crc = new CRC32();
        crc.update(cut, plte + 4, 4 + 24);
        ByteBuffer.wrap(cut).putInt(plte + 8 + 24, (int) crc.getValue());
        try (LoopbackWms server = new LoopbackWms(answer(200, "image/png", cut))) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(1), 0);
            assertThatThrownBy(() -> client.getMap(config, url(config), WIDTH, HEIGHT,
                    new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_ARGB)))
                    .isInstanceOf(WmsException.class).hasMessageContaining("past the palette's 8 colours");
        }
    }

    private static int indexOf(byte[] body, byte[] what) {
        for (int i = 0; i + what.length <= body.length; i++) {
            if (Arrays.equals(body, i, i + what.length, what, 0, what.length)) {
                return i;
            }
        }
        throw new AssertionError("no " + new String(what, StandardCharsets.US_ASCII));
    }

    @Test
    void aPngWithABadChecksumIsTriedAgainAndReported() throws Exception {
        byte[] body = png(new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_ARGB));
        body[body.length - 20] ^= 0x55; // inside the last IDAT chunk, before IEND: its CRC no longer matches
        try (LoopbackWms server = new LoopbackWms(answer(200, "image/png", body))) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(1), 1);

            assertThatThrownBy(() -> client.getMap(config, url(config), WIDTH, HEIGHT,
                    new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_ARGB)))
                    .isInstanceOf(WmsException.class).hasMessageContaining("truncated or corrupt");
            assertThat(server.requests()).isEqualTo(2);
        }
    }

    // Answers worth another try.

    @Test
    void a503IsTriedAgainAndThenReportedUnavailableWithTheUpstreamsMessage() throws Exception {
        try (LoopbackWms server = new LoopbackWms(answer(503, "text/plain", bytes("overloaded")))) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(1), 2);

            assertThatThrownBy(() -> client.getMap(config, url(config), WIDTH, HEIGHT))
                    .isInstanceOf(DependencyUnavailableException.class)
                    .hasCauseInstanceOf(WmsException.class)
                    .hasMessageContaining("503")
                    .hasMessageContaining("overloaded")
                    .hasMessageContaining("after 3 tries")
                    .hasMessageContaining(config.upstream());
            assertThat(server.requests()).isEqualTo(3);
        }
    }

    @Test
    void a500IsTriedAgainAndThenTheTasksFailureNotAnOutage() throws Exception {
        try (LoopbackWms server = new LoopbackWms(answer(500, "text/plain", bytes("map file broken")))) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(1), 1);

            assertThatThrownBy(() -> client.getMap(config, url(config), WIDTH, HEIGHT))
                    .isInstanceOf(WmsException.class)
                    .hasMessageContaining("500")
                    .hasMessageContaining("map file broken")
                    .hasMessageContaining("after 2 tries");
            assertThat(server.requests()).isEqualTo(2);
        }
    }

    @Test
    void a503ThatGoesAwayIsNotAnError() throws Exception {
        byte[] good = png(WIDTH, HEIGHT);
        try (LoopbackWms server = new LoopbackWms((s, exchange, n) -> {
            if (n <= 2) {
                send(exchange, 503, "text/plain", bytes("overloaded"));
            } else {
                send(exchange, 200, "image/png", good);
            }
        })) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(1), 2);

            BufferedImage image = client.getMap(config, url(config), WIDTH, HEIGHT);

            assertThat(image.getWidth()).isEqualTo(WIDTH);
            assertThat(server.requests()).isEqualTo(3);
            assertThat(client.requests()).isEqualTo(3);
            assertThat(client.failures()).isEqualTo(2);
        }
    }

    @ParameterizedTest(name = "{0} with Retry-After in {1}")
    @CsvSource({"429, seconds", "503, seconds", "429, an HTTP date"})
    void anUpstreamSheddingLoadIsAskedAgainNoSoonerThanItsRetryAfterAndByNobodyElseMeanwhile(int status, String form)
            throws Exception {
        byte[] good = png(WIDTH, HEIGHT);
        List<Long> asked = new CopyOnWriteArrayList<>();
        try (LoopbackWms server = new LoopbackWms((s, exchange, n) -> {
            asked.add(System.nanoTime());
            if (n == 1) {
                exchange.getResponseHeaders().set("Retry-After", form.equals("seconds") ? "2"
                        : DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(3)));
                send(exchange, status, "text/plain", bytes("slow down"));
            } else {
                send(exchange, 200, "image/png", good);
            }
        })) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(5), 2);
            Caller first = Caller.start(client, config);
            await("the first request answered " + status, () -> client.failures() == 1);
            Caller second = Caller.start(client, config);

            assertThat(first.image().getWidth()).isEqualTo(WIDTH);
            assertThat(second.image().getWidth()).isEqualTo(WIDTH);
            assertThat(asked).hasSize(3);
            for (long later : asked.subList(1, 3)) {
                assertThat(Duration.ofNanos(later - asked.getFirst())).as("a request after the " + status)
                        .isGreaterThanOrEqualTo(Duration.ofSeconds(1));
            }
        }
    }

    @Test
    void a429ThatLastsIsAnOutageNamingTheUpstreamAfterTheLastTry() throws Exception {
        try (LoopbackWms server = new LoopbackWms(answer(429, "text/plain", bytes("too many requests")))) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(1), 2);

            assertThatThrownBy(() -> client.getMap(config, url(config), WIDTH, HEIGHT))
                    .isInstanceOf(DependencyUnavailableException.class)
                    .hasMessageContaining("HTTP 429").hasMessageContaining("too many requests")
                    .hasMessageContaining("after 3 tries");
            assertThat(server.requests()).isEqualTo(3);
        }
    }

    @Test
    void aPngCutShortIsTriedAgain() throws Exception {
        byte[] full = png(noise(WIDTH, HEIGHT));
        byte[] half = Arrays.copyOf(full, full.length / 2);
        try (LoopbackWms server = new LoopbackWms(answer(200, "image/png", half))) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(1), 2);

            assertThatThrownBy(() -> client.getMap(config, url(config), WIDTH, HEIGHT))
                    .isInstanceOf(WmsException.class)
                    .hasMessageContaining("truncated")
                    .hasMessageContaining("after 3 tries");
            assertThat(server.requests()).isEqualTo(3);
        }
    }

    @Test
    void aConnectionCutBeforeTheDeclaredLengthIsTriedAgainThenReportedUnavailable() throws Exception {
        byte[] full = png(noise(WIDTH, HEIGHT));
        try (LoopbackWms server = new LoopbackWms((s, exchange, n) -> {
            exchange.getResponseHeaders().set("Content-Type", "image/png");
            exchange.sendResponseHeaders(200, full.length);
            exchange.getResponseBody().write(full, 0, full.length / 2);
            exchange.getResponseBody().flush();
            exchange.close(); // short of the Content-Length: the server closes the connection
        })) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(1), 2);

            assertThatThrownBy(() -> client.getMap(config, url(config), WIDTH, HEIGHT))
                    .isInstanceOf(DependencyUnavailableException.class)
                    .hasCauseInstanceOf(WmsException.class)
                    .hasMessageContaining("after 3 tries")
                    .hasMessageNotContaining("timed out");
            assertThat(server.requests()).isEqualTo(3);
        }
    }

    @Test
    void aSlowUpstreamTimesOutAndIsTriedAgainThenReportedUnavailable() throws Exception {
        assertTimedOutTwiceThenUnavailable((s, exchange, n) -> {
            s.hold();
            send(exchange, 200, "image/png", png(WIDTH, HEIGHT));
        });
    }

    /** The whole-request timeout covers the body: an answer that stalls after its headers does not hold a worker. */
    @Test
    void anAnswerThatStallsMidBodyTimesOutAndIsTriedAgainThenReportedUnavailable() throws Exception {
        byte[] full = png(noise(WIDTH, HEIGHT));
        assertTimedOutTwiceThenUnavailable((s, exchange, n) -> {
            exchange.getResponseHeaders().set("Content-Type", "image/png");
            exchange.sendResponseHeaders(200, full.length);
            exchange.getResponseBody().write(full, 0, full.length / 2);
            exchange.getResponseBody().flush();
            s.hold();
        });
    }

    /** Against a server that answers with {@code stall}: the request times out, once more, then the upstream is out. */
    private void assertTimedOutTwiceThenUnavailable(LoopbackWms.Reply stall) throws Exception {
        try (LoopbackWms server = new LoopbackWms(stall)) {
            try {
                WmsSourceConfig config = config(server.url(), SHORT_TIMEOUT, 1);

                assertThatThrownBy(() -> client.getMap(config, url(config), WIDTH, HEIGHT))
                        .isInstanceOf(DependencyUnavailableException.class)
                        .hasCauseInstanceOf(WmsException.class)
                        .hasMessageContaining("timed out")
                        .hasMessageContaining("after 2 tries");
                // The client gave up on the second request; wait until the server has seen it arrive.
                await("the server saw both tries", () -> server.requests() >= 2);
                assertThat(server.requests()).isEqualTo(2);
            } finally {
                server.release();
            }
        }
    }

    @Test
    void anUpstreamThatIsNotListeningIsTriedAgainThenReportedUnavailable() throws Exception {
        URI closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            closed = URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/wms");
        }
        WmsSourceConfig config = config(closed, Duration.ofSeconds(1), 1);

        assertThatThrownBy(() -> client.getMap(config, url(config), WIDTH, HEIGHT))
                .isInstanceOf(DependencyUnavailableException.class)
                    .hasCauseInstanceOf(WmsException.class)
                .hasMessageContaining(config.upstream())
                .hasMessageContaining("after 2 tries");
        assertThat(client.requests()).as("no answer came back").isZero();
        assertThat(client.failures()).isEqualTo(2);
    }

    // Answers that would be the same again.

    @Test
    void a404IsNotTriedAgain() throws Exception {
        try (LoopbackWms server = new LoopbackWms(answer(404, "text/plain", bytes("no such path")))) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(1), 2);

            assertThatThrownBy(() -> client.getMap(config, url(config), WIDTH, HEIGHT))
                    .isInstanceOf(WmsException.class)
                    .hasMessageContaining("404")
                    .hasMessageContaining("no such path")
                    .hasMessageNotContaining("tries");
            assertThat(server.requests()).isEqualTo(1);
        }
    }

    // A tile server's tiles (the tile source).

    @Test
    void aTileIsDecodedAndKeptAsTheServerAnsweredIt() throws Exception {
        byte[] body = png(noise(256, 256));
        try (LoopbackWms server = new LoopbackWms(answer(200, "image/png", body))) {
            TileSourceConfig tiles = tiles(server.url());

            WmsClient.UpstreamTile tile = client.getTile(tiles, tileUrl(server.url()), 256).orElseThrow();

            assertThat(tile.bytes()).isEqualTo(body);
            assertThat(tile.image().getWidth()).isEqualTo(256);
            assertThat(tile.image().getRGB(7, 9)).isEqualTo(ImageIO.read(new ByteArrayInputStream(body))
                    .getRGB(7, 9));
        }
    }

    /** A tile of another size, a proxy's page, a ServiceException: the task fails naming the server and the tile. */
    @Test
    void aTileOfAnotherSizeOrNotAnImageFailsNamingTheTileServerAndTheTile() throws Exception {
        List<byte[]> bodies = List.of(png(128, 128), bytes("<html><body>Bad gateway</body></html>"),
                bytes(SERVICE_EXCEPTION));
        List<String> types = List.of("image/png", "text/html", "application/vnd.ogc.se_xml");
        List<String> what = List.of("an image of 128x128 px instead of 256x256", "instead of an image",
                "LayerNotDefined");
        for (int i = 0; i < bodies.size(); i++) {
            try (LoopbackWms server = new LoopbackWms(answer(200, types.get(i), bodies.get(i)))) {
                HttpUrl url = tileUrl(server.url());
                assertThatThrownBy(() -> client.getTile(tiles(server.url()), url, 256))
                        .isInstanceOf(WmsException.class)
                        .hasMessageContaining("tile server 127.0.0.1:" + server.url().getPort())
                        .hasMessageContaining(url.toString())
                        .hasMessageContaining(what.get(i));
            }
        }
    }

    /** An empty status (404 here) is no tile there, at once; another 4xx is the task's failure. */
    @Test
    void anEmptyStatusIsNoTileAndIsNotTriedAgain() throws Exception {
        try (LoopbackWms server = new LoopbackWms(answer(404, "text/plain", bytes("no tile")))) {
            assertThat(client.getTile(tiles(server.url()), tileUrl(server.url()), 256)).isEmpty();
            assertThat(server.requests()).isEqualTo(1);
        }
        try (LoopbackWms server = new LoopbackWms(answer(403, "text/plain", bytes("no key")))) {
            assertThatThrownBy(() -> client.getTile(tiles(server.url()), tileUrl(server.url()), 256))
                    .isInstanceOf(WmsException.class).hasMessageContaining("403").hasMessageContaining("no key");
            assertThat(server.requests()).isEqualTo(1);
        }
    }

    private static TileSourceConfig tiles(URI server) {
        return new TileSourceConfig(server + "/{z}/{x}/{y}.png", 256, 0, 18, Set.of(404),
                TileSourceConfig.Resampling.BILINEAR, Duration.ofSeconds(1), Duration.ofSeconds(1), 2,
                Duration.ofMillis(10));
    }

    private static HttpUrl tileUrl(URI server) {
        return HttpUrl.get(server + "/3/4/2.png");
    }

    @Test
    void a400IsNotTriedAgain() throws Exception {
        try (LoopbackWms server = new LoopbackWms(answer(400, null, new byte[0]))) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(1), 2);

            assertThatThrownBy(() -> client.getMap(config, url(config), WIDTH, HEIGHT))
                    .isInstanceOf(WmsException.class)
                    .hasMessageContaining("400");
            assertThat(server.requests()).isEqualTo(1);
        }
    }

    @Test
    void aServiceExceptionServedAs200IsAnErrorWithItsCodeAndText() throws Exception {
        try (LoopbackWms server = new LoopbackWms(answer(200, "application/vnd.ogc.se_xml",
                bytes(SERVICE_EXCEPTION)))) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(1), 2);

            assertThatThrownBy(() -> client.getMap(config, url(config), WIDTH, HEIGHT))
                    .isInstanceOf(WmsException.class)
                    .hasMessageContaining("ServiceException")
                    .hasMessageContaining("LayerNotDefined")
                    .hasMessageContaining(MAPSERVER_TEXT)
                    .hasMessageNotContaining("DOCTYPE");
            assertThat(server.requests()).isEqualTo(1);
        }
    }

    @Test
    void aServiceExceptionServedAsImagePngIsStillAnError() throws Exception {
        try (LoopbackWms server = new LoopbackWms(answer(200, "image/png", bytes(SERVICE_EXCEPTION)))) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(1), 2);

            assertThatThrownBy(() -> client.getMap(config, url(config), WIDTH, HEIGHT))
                    .isInstanceOf(WmsException.class)
                    .hasMessageContaining("ServiceException")
                    .hasMessageContaining("LayerNotDefined")
                    .hasMessageContaining(MAPSERVER_TEXT);
            assertThat(server.requests()).isEqualTo(1);
        }
    }

    @Test
    void aProxysHtmlPageIsAnErrorWithItsTitle() throws Exception {
        String page = "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>";
        try (LoopbackWms server = new LoopbackWms(answer(200, "text/html", bytes(page)))) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(1), 2);

            assertThatThrownBy(() -> client.getMap(config, url(config), WIDTH, HEIGHT))
                    .isInstanceOf(WmsException.class)
                    .hasMessageContaining("HTML")
                    .hasMessageContaining("502 Bad Gateway");
            assertThat(server.requests()).isEqualTo(1);
        }
    }

    @Test
    void anImageOfTheWrongSizeIsAnErrorNamingBothSizes() throws Exception {
        try (LoopbackWms server = new LoopbackWms(answer(200, "image/png", png(10, 10)))) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(1), 2);

            assertThatThrownBy(() -> client.getMap(config, url(config), WIDTH, HEIGHT))
                    .isInstanceOf(WmsException.class)
                    .hasMessageContaining("10x10")
                    .hasMessageContaining(WIDTH + "x" + HEIGHT);
            assertThat(server.requests()).isEqualTo(1);
        }
    }

    /**
     * An image bomb: a few bytes whose header claims 30000 x 30000 px. Decoded, it would take gigabytes (or more
     * than the largest array) before failing; it is refused from its header, not tried again, in every format.
     */
    @Test
    void aFewBytesClaimingAHugeImageAreRefusedFromTheirHeader() throws Exception {
        byte[] png = png(10, 10);
        ByteBuffer.wrap(png).putInt(16, 30000).putInt(20, 30000);
        CRC32 crc = new CRC32();
        crc.update(png, 12, 4 + 13);
        ByteBuffer.wrap(png).putInt(29, (int) crc.getValue());
        ByteArrayOutputStream jpeg = new ByteArrayOutputStream();
        ImageIO.write(new BufferedImage(16, 16, BufferedImage.TYPE_INT_RGB), "jpeg", jpeg);
        byte[] bigJpeg = jpeg.toByteArray();
        int frame = indexOf(bigJpeg, new byte[] {(byte) 0xff, (byte) 0xc0});
        ByteBuffer.wrap(bigJpeg).putShort(frame + 5, (short) 30000).putShort(frame + 7, (short) 30000);
        for (byte[] bomb : List.of(png, bigJpeg)) {
            try (LoopbackWms server = new LoopbackWms(answer(200, "image/png", bomb))) {
                WmsSourceConfig config = config(server.url(), Duration.ofSeconds(1), 2);

                assertThatThrownBy(() -> client.getMap(config, url(config), WIDTH, HEIGHT,
                        new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_ARGB)))
                        .isInstanceOf(WmsException.class)
                        .hasMessageContaining("an image of 30000x30000 px instead of " + WIDTH + "x" + HEIGHT);
                assertThat(server.requests()).isEqualTo(1);
            }
        }
    }

    @Test
    void bytesThatAreNoImageAreAnError() throws Exception {
        byte[] junk = new byte[1000];
        new Random(7).nextBytes(junk);
        junk[0] = 1; // neither markup nor a PNG signature
        try (LoopbackWms server = new LoopbackWms(answer(200, "application/octet-stream", junk))) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(1), 2);

            assertThatThrownBy(() -> client.getMap(config, url(config), WIDTH, HEIGHT))
                    .isInstanceOf(WmsException.class)
                    .hasMessageContaining("application/octet-stream");
            assertThat(server.requests()).isEqualTo(1);
        }
    }

    // The cap on requests in flight per upstream.

    @Test
    void atMostMaxPerUpstreamRequestsAreInFlightAndTheCapIsReached() throws Exception {
        WmsClient capped = new WmsClient(3);
        InFlight inFlight = new InFlight();
        try (LoopbackWms server = new LoopbackWms(inFlight::answer)) {
            try {
                WmsSourceConfig config = config(server.url(), Duration.ofSeconds(5), 0);
                assertCapped(capped, server, inFlight, List.of(config));
            } finally {
                server.release();
            }
        }
    }

    @Test
    void layersOnTheSameUpstreamShareTheCap() throws Exception {
        WmsClient capped = new WmsClient(3);
        InFlight inFlight = new InFlight();
        try (LoopbackWms server = new LoopbackWms(inFlight::answer)) {
            try {
                WmsSourceConfig world = config(server.url(), Duration.ofSeconds(5), 0, "world");
                WmsSourceConfig roads = config(URI.create(server.url() + "?map=/srv/roads.map"),
                        Duration.ofSeconds(5), 0, "roads");
                assertThat(roads.upstream()).isEqualTo(world.upstream());
                assertCapped(capped, server, inFlight, List.of(world, roads));
                assertThat(server.queries()).anySatisfy(q -> assertThat(q).contains("LAYERS=world"))
                        .anySatisfy(q -> assertThat(q).contains("LAYERS=roads"));
            } finally {
                server.release();
            }
        }
    }

    @Test
    void theClusterLimitHoldsBelowThisPodsCapWithAPermitLeasedPastTheTimeoutPerTry() throws Exception {
        SharedPermits shared = new SharedPermits();
        WmsClient clustered = new WmsClient(8, 3, shared, false);
        InFlight inFlight = new InFlight();
        try (LoopbackWms server = new LoopbackWms(inFlight::answer)) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(5), 0);
            try {
                assertCapped(clustered, server, inFlight, List.of(config));
            } finally {
                server.release();
            }
            assertThat(shared.asked).containsOnly(config.upstream() + " limit 3 lease PT10S");
            assertThat(shared.out.get()).as("permits out once all are answered").isZero();
            assertThat(clustered.inFlight(config.upstream())).isZero();
            assertThat(clustered.waitSeconds(config.upstream())).as("seven callers waited").isPositive();
        }
    }

    @Test
    void aTryThatFailsGivesItsPermitBackBeforeTheNext() throws Exception {
        SharedPermits shared = new SharedPermits();
        WmsClient clustered = new WmsClient(2, 1, shared, false);
        try (LoopbackWms server = new LoopbackWms(answer(503, "text/plain", "busy".getBytes()))) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(5), 2);
            assertThatThrownBy(() -> clustered.getMap(config, url(config), WIDTH, HEIGHT))
                    .isInstanceOf(DependencyUnavailableException.class);
            assertThat(server.requests()).isEqualTo(3);
            assertThat(shared.asked).hasSize(3);
            assertThat(shared.out.get()).isZero();
        }
    }

    @Test
    void aRetryAfterHoldsTheUpstreamOffForEveryProcessSharingThePermits() throws Exception {
        SharedPermits shared = new SharedPermits();
        WmsClient clustered = new WmsClient(2, 2, shared, true);
        byte[] good = png(WIDTH, HEIGHT);
        try (LoopbackWms server = new LoopbackWms((s, exchange, n) -> {
            if (n == 1) {
                exchange.getResponseHeaders().set("Retry-After", "1");
                send(exchange, 503, "text/plain", bytes("maintenance"));
            } else {
                send(exchange, 200, "image/png", good);
            }
        })) {
            WmsSourceConfig config = config(server.url(), Duration.ofSeconds(5), 1);

            assertThat(clustered.getMap(config, url(config), WIDTH, HEIGHT).getWidth()).isEqualTo(WIDTH);

            assertThat(shared.asked).contains(config.upstream() + " held off: answered HTTP 503 with Retry-After: 1");
        }
    }

    /** Permits of one process, as a cluster's would be: a semaphore per upstream and limit, and what was asked. */
    private static final class SharedPermits implements UpstreamPermits {
        final Map<String, Semaphore> semaphores = new ConcurrentHashMap<>();
        final Queue<String> asked = new ConcurrentLinkedQueue<>();
        final AtomicInteger out = new AtomicInteger();

        @Override
        public Permit acquire(String upstream, int limit, Duration lease) throws InterruptedException {
            asked.add(upstream + " limit " + limit + " lease " + lease);
            Semaphore semaphore = semaphores.computeIfAbsent(upstream + "/" + limit, key -> new Semaphore(limit));
            semaphore.acquire();
            out.incrementAndGet();
            return () -> {
                out.decrementAndGet();
                semaphore.release();
            };
        }

        @Override
        public void holdOff(String upstream, Instant until, String reason) {
            asked.add(upstream + " held off: " + reason);
        }

        @Override
        public Optional<Hold> hold(String upstream) {
            return Optional.empty();
        }
    }

    @Test
    void aBusyUpstreamDoesNotHoldUpAnother() throws Exception {
        WmsClient capped = new WmsClient(1);
        CountDownLatch busy = new CountDownLatch(1);
        try (LoopbackWms slow = new LoopbackWms((s, exchange, n) -> {
            busy.countDown();
            s.hold();
            send(exchange, 200, "image/png", png(WIDTH, HEIGHT));
        }); LoopbackWms fast = new LoopbackWms(answer(200, "image/png", png(WIDTH, HEIGHT)))) {
            Caller held = Caller.start(capped, config(slow.url(), Duration.ofSeconds(5), 0));
            try {
                assertThat(busy.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
                WmsSourceConfig other = config(fast.url(), Duration.ofSeconds(5), 0);

                assertThat(capped.getMap(other, url(other), WIDTH, HEIGHT).getWidth()).isEqualTo(WIDTH);
            } finally {
                slow.release();
            }
            assertThat(held.image()).isNotNull();
        }
    }

    // Interrupts.

    @Test
    void anInterruptedCallerStopsWaitingForASlowUpstream() throws Exception {
        CountDownLatch arrived = new CountDownLatch(1);
        try (LoopbackWms server = new LoopbackWms((s, exchange, n) -> {
            arrived.countDown();
            s.hold();
            send(exchange, 200, "image/png", png(WIDTH, HEIGHT));
        })) {
            try {
                // A timeout far beyond how long the test waits: only the interrupt can end the call in time.
                Caller caller = Caller.start(client, config(server.url(), Duration.ofSeconds(30), 2));
                assertThat(arrived.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();

                caller.thread.interrupt();

                assertThat(caller.done.await(2, TimeUnit.SECONDS)).as("getMap returned promptly").isTrue();
                assertThat(caller.thrown.get()).isInstanceOf(InterruptedException.class);
                assertThat(server.requests()).as("not tried again").isEqualTo(1);
            } finally {
                server.release();
            }
        }
    }

    @Test
    void anInterruptedCallerStopsWaitingForASlot() throws Exception {
        WmsClient capped = new WmsClient(1);
        CountDownLatch arrived = new CountDownLatch(1);
        try (LoopbackWms server = new LoopbackWms((s, exchange, n) -> {
            arrived.countDown();
            s.hold();
            send(exchange, 200, "image/png", png(WIDTH, HEIGHT));
        })) {
            Caller first;
            try {
                WmsSourceConfig config = config(server.url(), Duration.ofSeconds(5), 0);
                first = Caller.start(capped, config);
                assertThat(arrived.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
                Caller second = Caller.start(capped, config);
                await("the second caller waits for the slot", () -> waitsForASlot(second.thread));

                second.thread.interrupt();

                assertThat(second.done.await(2, TimeUnit.SECONDS)).isTrue();
                assertThat(second.thrown.get()).isInstanceOf(InterruptedException.class);
                assertThat(server.requests()).isEqualTo(1);
            } finally {
                server.release();
            }
            assertThat(first.image()).as("the first caller is not disturbed").isNotNull();
        }
    }

    // Helpers.

    /** Counts the requests the server is answering at once; holds each until the test releases them. */
    private static final class InFlight {
        final AtomicInteger now = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();
        final byte[] image = png(WIDTH, HEIGHT);

        void answer(LoopbackWms server, HttpExchange exchange, int n) throws IOException, InterruptedException {
            most.accumulateAndGet(now.incrementAndGet(), Math::max);
            try {
                server.hold();
            } finally {
                now.decrementAndGet();
            }
            send(exchange, 200, "image/png", image);
        }
    }

    /**
     * Ten callers at once on a client capped at three: three requests reach the server and the seven other callers
     * wait for a slot (a condition polled for, so the cap is seen reached and not exceeded before anything is
     * released); once released, all ten get their image and the server never saw more than three at once.
     */
    private static void assertCapped(WmsClient capped, LoopbackWms server, InFlight inFlight,
                                     List<WmsSourceConfig> configs) throws Exception {
        List<Caller> callers = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            callers.add(Caller.start(capped, configs.get(i % configs.size())));
        }
        await("three requests in flight and seven callers waiting for a slot", () -> inFlight.now.get() == 3
                && callers.stream().filter(c -> waitsForASlot(c.thread)).count() == 7);
        assertThat(inFlight.now.get()).isEqualTo(3);
        assertThat(server.requests()).isEqualTo(3);

        server.release();

        for (Caller caller : callers) {
            BufferedImage image = caller.image();
            assertThat(image.getWidth()).isEqualTo(WIDTH);
            assertThat(image.getHeight()).isEqualTo(HEIGHT);
        }
        assertThat(inFlight.most.get()).as("most requests in flight at once").isEqualTo(3);
        assertThat(server.requests()).isEqualTo(10);
    }

    /** Whether {@code thread} waits for a place in an upstream's window, or for a permit. */
    private static boolean waitsForASlot(Thread thread) {
        if (thread.getState() != Thread.State.WAITING) {
            return false;
        }
        return Arrays.stream(thread.getStackTrace()).anyMatch(frame -> frame.getMethodName().equals("acquire")
                && (frame.getClassName().equals("java.util.concurrent.Semaphore")
                || frame.getClassName().equals(UpstreamWindow.class.getName())));
    }

    /** A thread calling {@code getMap} once. */
    private static final class Caller {
        final Thread thread;
        final CountDownLatch done = new CountDownLatch(1);
        final AtomicReference<BufferedImage> image = new AtomicReference<>();
        final AtomicReference<Throwable> thrown = new AtomicReference<>();

        private Caller(WmsClient client, WmsSourceConfig config) {
            thread = new Thread(() -> {
                try {
                    image.set(client.getMap(config, url(config), WIDTH, HEIGHT));
                } catch (Throwable t) {
                    thrown.set(t);
                } finally {
                    done.countDown();
                }
            }, "wms-caller");
            thread.setDaemon(true);
        }

        static Caller start(WmsClient client, WmsSourceConfig config) {
            Caller caller = new Caller(client, config);
            caller.thread.start();
            return caller;
        }

        /** The image it got, once it is done; fails if it threw. */
        BufferedImage image() throws InterruptedException {
            if (!done.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
                fail("getMap did not return");
            }
            if (thrown.get() != null) {
                throw new AssertionError("getMap failed", thrown.get());
            }
            return image.get();
        }
    }

    /** Polls {@code condition} until it holds, failing after {@link #PATIENCE}. */
    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("gave up waiting until " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // a poll of the condition, not a guess at timing
        }
    }

    static WmsSourceConfig config(URI url, Duration timeout, int retries, String... layers) {
        return new WmsSourceConfig(url, WmsSourceConfig.V130, layers.length == 0 ? List.of("world") : List.of(layers),
                List.of(), "image/png", true, Map.of(), Duration.ofSeconds(1), timeout, retries,
                Duration.ofMillis(10), 4096, 4096);
    }

    static HttpUrl url(WmsSourceConfig config) {
        return GetMap.url(config, TileMatrixSet.WEB_MERCATOR_QUAD, TileMatrixSet.WEB_MERCATOR_QUAD.crsBounds(),
                WIDTH, HEIGHT);
    }

    /** Random opaque pixels: a PNG of some kilobytes that does not compress away. */
    private static BufferedImage noise(int width, int height) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
        Random random = new Random(42);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                image.setRGB(x, y, 0xff000000 | random.nextInt(0x1000000));
            }
        }
        return image;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
