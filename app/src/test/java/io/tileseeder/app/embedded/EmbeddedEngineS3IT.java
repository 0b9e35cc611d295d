package io.tileseeder.app.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.minio.ListObjectsArgs;
import io.minio.MinioClient;
import io.minio.RemoveObjectArgs;
import io.minio.Result;
import io.minio.StatObjectArgs;
import io.minio.messages.Item;
import io.tileseeder.app.Engine;
import io.tileseeder.app.settings.Settings;
import io.tileseeder.app.settings.Settings.S3Connection;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
        try (Engine engine = Engine.embedded(settings)) {
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

    @Test
    void anS3StoreWithoutAnEndpointIsRefusedWithTheSettingsToSet() {
        Settings settings = Settings.defaults("s3://" + BUCKET + "/" + prefix);
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> Engine.embedded(settings).close()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SEEDER_S3_ENDPOINT");
    }
}
