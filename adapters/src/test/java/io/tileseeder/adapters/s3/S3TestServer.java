package io.tileseeder.adapters.s3;

import io.minio.GetObjectArgs;
import io.minio.GetObjectResponse;
import io.minio.ListObjectsArgs;
import io.minio.MinioClient;
import io.minio.RemoveObjectsArgs;
import io.minio.Result;
import io.minio.errors.ErrorResponseException;
import io.minio.messages.DeleteRequest;
import io.minio.messages.DeleteResult;
import io.minio.messages.Item;
import io.tileseeder.port.Layout;
import io.tileseeder.port.TileCache;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The real S3 server of the integration tests (the MinIO that {@code dev/services up} starts), from the variables
 * in {@code .dev/services.env}, and a plain SDK client to look at what the store left there.
 */
public final class S3TestServer {

    /** The bucket the tests write to, each test below a prefix of its own. */
    public static final String BUCKET = "tileseeder-it";

    public final String endpoint = env("SEEDER_S3_ENDPOINT");
    public final String accessKey = env("SEEDER_S3_ACCESS_KEY");
    public final String secretKey = env("SEEDER_S3_SECRET_KEY");
    public final String region = System.getenv().getOrDefault("SEEDER_S3_REGION", "us-east-1");
    final MinioClient client = MinioClient.builder().endpoint(endpoint).credentials(accessKey, secretKey)
            .region(region).build();

    public static String randomPrefix() {
        return "it/" + UUID.randomUUID();
    }

    /** The object's bytes, or empty if there is none. */
    Optional<byte[]> get(String object) throws Exception {
        try (GetObjectResponse response = client.getObject(GetObjectArgs.builder().bucket(BUCKET).object(object)
                .build())) {
            return Optional.of(response.readAllBytes());
        } catch (ErrorResponseException e) {
            if ("NoSuchKey".equals(e.errorResponse().code())) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** The document {@code name} of a cache below {@code prefix}, in a store of that layout, or empty. */
    Optional<byte[]> document(String prefix, Layout layout, TileCache cache, String name) throws IOException {
        try {
            return get(prefix + "/" + layout.folder(cache) + "/" + name);
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    /** The names of the objects below {@code prefix + "/"}, sorted. */
    List<String> list(String prefix) throws Exception {
        List<String> names = new ArrayList<>();
        for (Result<Item> item : client.listObjects(ListObjectsArgs.builder().bucket(BUCKET).prefix(prefix + "/")
                .recursive(true).build())) {
            names.add(item.get().objectName());
        }
        names.sort(null);
        return names;
    }

    /** Removes every object below {@code prefix + "/"}. */
    public void deleteAll(String prefix) throws Exception {
        List<DeleteRequest.Object> objects = list(prefix).stream().map(DeleteRequest.Object::new).toList();
        for (Result<DeleteResult.Error> error : client.removeObjects(RemoveObjectsArgs.builder().bucket(BUCKET)
                .objects(objects).build())) {
            throw new IllegalStateException("cannot clean up " + error.get().objectName() + ": "
                    + error.get().code());
        }
    }

    /** A variable of {@code .dev/services.env}; fails, saying how to set it, when it is not set. */
    public static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(name + " is not set: run 'dev/services up', then "
                    + "'set -a && source .dev/services.env && set +a' before 'mvnw verify'");
        }
        return value;
    }
}
