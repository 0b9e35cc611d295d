package io.tileseeder.app.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.app.Embedded;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.server.Engine;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A job run to its end on an embedded engine of its own, as the embedded tests seed their caches. */
final class EmbeddedJobs {

    private EmbeddedJobs() {
    }

    /**
     * Starts an engine with {@code settings} (the store, the layers file…) and two worker threads, runs the job and
     * asserts it SUCCEEDED, naming its reason otherwise; the engine is closed after.
     */
    static JobStatus succeed(Map<String, String> settings, JobRequest request) throws Exception {
        Map<String, String> all = new HashMap<>(settings);
        all.putIfAbsent("seeder.workers.threads", "2");
        try (Engine engine = Embedded.engine(Settings.from(Settings.config(all)))) {
            JobStatus job = engine.jobs().submit(request, null);
            JobStatus done = engine.jobs().awaitFinal(job.id(), Duration.ofSeconds(120)).orElseThrow()
                    .get(130, TimeUnit.SECONDS);
            assertThat(done.state()).as(String.valueOf(done.reason())).isEqualTo(JobState.SUCCEEDED);
            return done;
        }
    }

    /** A job over the whole set from zoom 0 to {@code maxZoom}, in {@code format} (null: the layer's first). */
    static JobRequest zooms(String layer, String set, int maxZoom, String format) {
        return new JobRequest(layer, set, new JobRequest.Zoom(0, maxZoom), null, format, null, null, null, null,
                Map.of());
    }
}
