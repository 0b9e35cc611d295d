package io.tileseeder.app.testing;

import io.tileseeder.app.Embedded;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.server.Engine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The reference a distributed seed is checked against: the tiles the embedded engine writes for the bundled world
 * layer, zoom 0 to {@code maxZoom} (its empty tiles are not stored), as paths {@code world/WebMercatorQuad/z/x/y.png}.
 */
public final class WorldTiles {

    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    private static final Map<Integer, Set<String>> SEEDED = new HashMap<>();

    private WorldTiles() {
    }

    /** Seeded once per zoom and kept for the JVM's life. */
    public static Set<String> upTo(int maxZoom) throws Exception {
        synchronized (SEEDED) {
            if (!SEEDED.containsKey(maxZoom)) {
                SEEDED.put(maxZoom, seed(maxZoom));
            }
            return SEEDED.get(maxZoom);
        }
    }

    /** The names among {@code objects} that are PNG tiles. */
    public static Set<String> pngs(Set<String> objects) {
        return objects.stream().filter(name -> name.endsWith(".png")).collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> seed(int maxZoom) throws Exception {
        return seeded(Optional.empty(), new JobRequest("world", null, new JobRequest.Zoom(0, maxZoom), null, null, null,
                null, null, null, null));
    }

    /** The PNG tiles the embedded engine writes for {@code request} on the layers of {@code layersFile}. */
    public static Set<String> seeded(Optional<Path> layersFile, JobRequest request) throws Exception {
        Path out = Files.createTempDirectory("expected-");
        Settings defaults = Settings.defaults(out.toString());
        Settings settings = new Settings(defaults.store(), layersFile, defaults.jobs(), defaults.workers(),
                defaults.outageBudget());
        try (Engine engine = Embedded.engine(settings)) {
            JobStatus job = engine.jobs().submit(request, null);
            JobStatus done = engine.jobs().awaitFinal(job.id(), TIMEOUT).orElseThrow().get();
            if (done.state() != JobState.SUCCEEDED) {
                throw new IllegalStateException("the embedded seed of " + request + " ended " + done.state() + ": "
                        + done.reason());
            }
        }
        try (Stream<Path> files = Files.walk(out)) {
            return pngs(files.map(f -> out.relativize(f).toString()).collect(Collectors.toSet()));
        }
    }
}
