package io.tileseeder.app.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.minio.GetObjectArgs;
import io.minio.ListObjectsArgs;
import io.minio.MinioClient;
import io.minio.PutObjectArgs;
import io.minio.RemoveObjectArgs;
import io.minio.Result;
import io.minio.StatObjectArgs;
import io.minio.messages.Item;
import io.tileseeder.app.Embedded;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.runtime.settings.Settings.S3Connection;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.server.Engine;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code seeder seed --store s3://bucket/prefix}: the embedded engine seeding into the real MinIO that
 * dev/services starts (SEEDER_S3_ENDPOINT, SEEDER_S3_ACCESS_KEY, SEEDER_S3_SECRET_KEY).
 */
class EmbeddedEngineS3IT {

    private static final String BUCKET = "tileseeder-it";

    private final S3Connection s3 = new S3Connection(env("SEEDER_S3_ENDPOINT"),
            env("SEEDER_S3_ACCESS_KEY"), env("SEEDER_S3_SECRET_KEY"),
            Objects.requireNonNullElse(System.getenv("SEEDER_S3_REGION"), "us-east-1"));
    private final MinioClient minio = MinioClient.builder().endpoint(s3.endpoint())
            .credentials(s3.accessKey(), s3.secretKey()).region(s3.region()).build();
    private final String prefix = "engine-it-" + UUID.randomUUID();

    private static String env(String name) {
        String value = System.getenv(name);
        if (value == null) {
            throw new IllegalStateException(name + " is not set: run the tests with dev/test (it starts MinIO)");
        }
        return value;
    }

    @AfterEach
    void removeObjects() throws Exception {
        for (String key : keys()) {
            minio.removeObject(RemoveObjectArgs.builder().bucket(BUCKET).object(key).build());
        }
    }

    private List<String> keys() throws Exception {
        List<String> keys = new ArrayList<>();
        for (Result<Item> item : minio.listObjects(ListObjectsArgs.builder().bucket(BUCKET).prefix(prefix + "/")
                .recursive(true).build())) {
            keys.add(item.get().objectName());
        }
        return keys;
    }

    @Test
    @Timeout(120)
    void seedsEveryNonEmptyTileIntoTheBucketBeforeTheJobSucceeds() throws Exception {
        Settings settings = Settings.from(Settings.config(Map.of("seeder.store.path", "s3://" + BUCKET + "/" + prefix,
                "seeder.s3.endpoint", s3.endpoint(), "seeder.s3.access-key", s3.accessKey(),
                "seeder.s3.secret-key", s3.secretKey(), "seeder.s3.region", s3.region(),
                "seeder.workers.threads", "2")));
        try (Engine engine = Embedded.engine(settings)) {
            JobStatus job = engine.jobs().submit(new JobRequest("world", null, new JobRequest.Zoom(0, 3), null, null,
                    null, null, null, null, Map.of()), null);
            JobStatus done = engine.jobs().awaitFinal(job.id(), Duration.ofSeconds(90)).orElseThrow()
                    .get(100, TimeUnit.SECONDS);

            assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
            assertThat(done.counts().written() + done.counts().empty()).isEqualTo(85);
            List<String> keys = keys();
            assertThat(keys).filteredOn(key -> key.endsWith(".png")).hasSize((int) done.counts().written());
            assertThat(keys).contains(prefix + "/world/WebMercatorQuad/0/0/0.png",
                    prefix + "/world/WebMercatorQuad/tilejson-png.json");
            assertThat(minio.statObject(StatObjectArgs.builder().bucket(BUCKET)
                    .object(prefix + "/world/WebMercatorQuad/0/0/0.png").build()).contentType()).isEqualTo("image/png");
        }
    }

    /**
     * S3 answering {@code 503 SlowDown} to every request for 30 s, mid-job (a relay in front of MinIO answers it): the
     * store tries each request again, then waits the slow-down out as an outage, and the job ends SUCCEEDED with every
     * tile, after the slow-down ended.
     */
    @Test
    @Timeout(300)
    void aStoreThatAnswersSlowDownForHalfAMinuteIsWaitedOut() throws Exception {
        Duration slowDown = Duration.ofSeconds(30);
        try (SlowDownProxy proxy = new SlowDownProxy(URI.create(s3.endpoint()))) {
            Settings settings = Settings.from(Settings.config(Map.of("seeder.store.path",
                    "s3://" + BUCKET + "/" + prefix, "seeder.s3.endpoint", proxy.endpoint(),
                    "seeder.s3.access-key", s3.accessKey(), "seeder.s3.secret-key", s3.secretKey(),
                    "seeder.s3.region", s3.region(), "seeder.workers.threads", "2")));
            try (Engine engine = Embedded.engine(settings)) {
                JobStatus job = engine.jobs().submit(new JobRequest("world", null, new JobRequest.Zoom(0, 5), null,
                        null, null, null, null, null, Map.of()), null);
                // Until the first tile is stored; the long poll answers at once if the job ends.
                JobStatus now = job;
                while (now.counts().written() == 0) {
                    now = engine.jobs().awaitFinal(job.id(), Duration.ofMillis(200)).orElseThrow()
                            .get(10, TimeUnit.SECONDS);
                    assertThat(now.state().isFinal()).as("the job ended before the slow-down: %s", now).isFalse();
                }
                Instant slowDownEnds = Instant.now().plus(slowDown);
                proxy.slowDownFor(slowDown);

                JobStatus done = engine.jobs().awaitFinal(job.id(), Duration.ofSeconds(240)).orElseThrow()
                        .get(250, TimeUnit.SECONDS);

                assertThat(done.state()).as("%s", done).isEqualTo(JobState.SUCCEEDED);
                assertThat(done.counts().written() + done.counts().empty()).isEqualTo(1365);
                assertThat(keys()).filteredOn(key -> key.endsWith(".png")).hasSize((int) done.counts().written());
                assertThat(proxy.slowDowns()).as("SlowDown answers given").isPositive();
                assertThat(done.finished()).as("the job finished after the slow-down").isAfter(slowDownEnds);
            }
        }
    }

    /**
     * A reseed PUTs only the tiles whose bytes change: the objects it leaves alone keep their modification time to the
     * millisecond, a tile whose object was altered is written back, one that has become empty is deleted, and both
     * are listed for a purge; a second reseed changes nothing and lists nothing.
     */
    @Test
    @Timeout(180)
    void aReseedWritesOnlyTheTilesThatChangedAndListsThem() throws Exception {
        String tiles = prefix + "/world/WebMercatorQuad/";
        try (Engine engine = Embedded.engine(s3Settings())) {
            JobStatus seeded = run(engine, "seed");
            assertThat(seeded.counts().written()).isPositive();
            Map<String, Item> before = objects(tiles);
            String altered = tiles + "2/2/1.png";
            assertThat(before).containsKey(altered);
            String stale = firstMissingTile(before.keySet(), tiles, 4);
            put(altered, new byte[] {1, 2, 3});
            put(stale, new byte[] {4, 5, 6});
            Map<String, Item> changedByHand = objects(tiles);

            JobStatus reseeded = run(engine, "reseed");

            assertThat(reseeded.counts().written()).isEqualTo(1);
            assertThat(reseeded.counts().unchanged()).isEqualTo(seeded.counts().written() - 1);
            assertThat(reseeded.counts().deleted()).as("the tile that has become empty").isEqualTo(1);
            assertThat(reseeded.counts().empty()).isEqualTo(seeded.counts().empty() - 1);
            Map<String, Item> after = objects(tiles);
            assertThat(after).doesNotContainKey(stale);
            for (Map.Entry<String, Item> object : after.entrySet()) {
                if (object.getKey().endsWith(".png") && !object.getKey().equals(altered)) {
                    assertThat(object.getValue().lastModified()).as(object.getKey())
                            .isEqualTo(changedByHand.get(object.getKey()).lastModified());
                }
            }
            assertThat(after.get(altered).etag()).isEqualTo(before.get(altered).etag());
            String changes = tiles + "changes/" + reseeded.id() + "/";
            assertThat(listedChanges(changes)).containsExactlyInAnyOrder("2/2/1",
                    stale.substring(tiles.length(), stale.length() - ".png".length()));

            JobStatus again = run(engine, "reseed");
            assertThat(again.counts().written()).isZero();
            assertThat(again.counts().unchanged()).isEqualTo(seeded.counts().written());
            assertThat(objects(tiles + "changes/" + again.id() + "/")).isEmpty();
        }
    }

    private Settings s3Settings() {
        return Settings.from(Settings.config(Map.of("seeder.store.path", "s3://" + BUCKET + "/" + prefix,
                "seeder.s3.endpoint", s3.endpoint(), "seeder.s3.access-key", s3.accessKey(),
                "seeder.s3.secret-key", s3.secretKey(), "seeder.s3.region", s3.region(),
                "seeder.workers.threads", "2")));
    }

    private static JobStatus run(Engine engine, String mode) throws Exception {
        JobStatus job = engine.jobs().submit(new JobRequest("world", null, new JobRequest.Zoom(0, 4), null, null,
                mode, null, null, null, Map.of()), null);
        JobStatus done = engine.jobs().awaitFinal(job.id(), Duration.ofSeconds(120)).orElseThrow()
                .get(130, TimeUnit.SECONDS);
        assertThat(done.state()).as(mode).isEqualTo(JobState.SUCCEEDED);
        return done;
    }

    private Map<String, Item> objects(String under) throws Exception {
        Map<String, Item> objects = new TreeMap<>();
        for (Result<Item> item : minio.listObjects(ListObjectsArgs.builder().bucket(BUCKET).prefix(under)
                .recursive(true).build())) {
            objects.put(item.get().objectName(), item.get());
        }
        return objects;
    }

    /** The object name of the first tile of zoom {@code z} that is not in the store (an empty tile). */
    private static String firstMissingTile(Set<String> present, String tiles, int z) {
        for (int x = 0; x < 1 << z; x++) {
            for (int y = 0; y < 1 << z; y++) {
                String name = tiles + z + "/" + x + "/" + y + ".png";
                if (!present.contains(name)) {
                    return name;
                }
            }
        }
        throw new IllegalStateException("no empty tile at zoom " + z);
    }

    private void put(String object, byte[] data) throws Exception {
        minio.putObject(PutObjectArgs.builder().bucket(BUCKET).object(object)
                .data(data, data.length).contentType("image/png").build());
    }

    private List<String> listedChanges(String folder) throws Exception {
        List<String> lines = new ArrayList<>();
        for (String object : objects(folder).keySet()) {
            try (InputStream in = minio.getObject(GetObjectArgs.builder().bucket(BUCKET).object(object).build())) {
                new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().forEach(lines::add);
            }
        }
        return lines;
    }

    @Test
    void anS3StoreWithoutAnEndpointIsRefusedWithTheSettingsToSet() {
        Settings settings = Settings.defaults("s3://" + BUCKET + "/" + prefix);
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> Embedded.engine(settings).close()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SEEDER_S3_ENDPOINT");
    }
}
