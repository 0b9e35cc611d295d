package io.tileseeder.app.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.tileseeder.app.Embedded;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobStatus;
import io.tileseeder.outage.Outages.Outage;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.server.Engine;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job whose WMS sheds load ({@code 503} with {@code Retry-After}): its view names the upstream it waits for, with
 * the upstream's answer, and no further GetMap reaches the upstream until the hold ends.
 */
@Timeout(60)
class SheddingUpstreamTest {

    @TempDir
    Path temp;

    @Test
    void aJobWhoseUpstreamShedsLoadSaysItWaitsForItAndAsksItNothingMeanwhile() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        HttpServer wms = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
        wms.createContext("/wms", exchange -> {
            asked.incrementAndGet();
            byte[] body = "down for maintenance".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Retry-After", "20");
            exchange.getResponseHeaders().set("Content-Type", "text/plain");
            exchange.sendResponseHeaders(503, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        wms.start();
        String upstream = "127.0.0.1:" + wms.getAddress().getPort();
        Path layers = Files.writeString(temp.resolve("layers.yaml"), """
                layers:
                  - name: shedding
                    zoom: {min: 0, max: 3}
                    source: {type: wms, url: "http://%s/wms", layers: [world], retries: 3, retryDelay: 10ms}
                """.formatted(upstream));
        try (Engine engine = Embedded.engine(Settings.from(Settings.config(Map.of("seeder.layers.file",
                layers.toString(), "seeder.store.path", temp.resolve("tiles").toString(),
                "seeder.workers.threads", "2", "seeder.wms.max-requests-per-upstream", "1",
                "seeder.workers.drain-timeout", "0s"))))) {
            JobStatus job = engine.jobs().submit(new JobRequest("shedding", "WebMercatorQuad",
                    new JobRequest.Zoom(0, 2), null, null, null, null, null, null, Map.of()), null);
            Instant deadline = Instant.now().plusSeconds(15);
            List<Outage> waiting = List.of();
            while (waiting.isEmpty() && Instant.now().isBefore(deadline)) {
                waiting = engine.waitingFor(engine.jobs().get(job.id()).orElseThrow());
                Thread.sleep(50);
            }

            assertThat(waiting).singleElement().satisfies(outage -> {
                assertThat(outage.dependency()).isEqualTo("the upstream " + upstream);
                assertThat(outage.message()).contains("shedding load").contains("HTTP 503 with Retry-After: 20");
            });
            engine.jobs().cancel(job.id());
        } finally {
            wms.stop(0);
        }
        // The engine is closed: every GetMap it would ever send is counted, and the hold (20 s) outlived it.
        assertThat(asked.get()).as("GetMaps while the upstream is held off").isEqualTo(1);
    }
}
