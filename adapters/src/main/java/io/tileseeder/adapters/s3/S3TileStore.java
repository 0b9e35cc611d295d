package io.tileseeder.adapters.s3;

import io.tileseeder.adapters.bucket.BucketTileStore;
import io.tileseeder.outage.RetryPolicy;
import java.io.IOException;

/**
 * Tiles as objects in an S3 bucket (AWS S3, MinIO, any S3-compatible store), through the MinIO async client
 * ({@link S3Bucket}), with everything a {@link BucketTileStore} does: the layout, the in-flight limit (default 32),
 * retries of 5xx, 408, 429, S3's "slow down"/"internal error" codes and I/O errors ({@link S3Failures}), and errors
 * that name the endpoint, the objects and the S3 error code. The OkHttp client under the SDK is sized to the in-flight
 * limit and opens its sockets with {@code TCP_NODELAY} ({@link S3Clients}).
 */
public final class S3TileStore extends BucketTileStore {

    private final S3Location location;

    /**
     * A store with the default Cache-Control and timeouts; checks that the bucket exists and creates it if not.
     *
     * @param endpoint    e.g. {@code http://127.0.0.1:9000} or {@code https://s3.eu-west-1.amazonaws.com}
     * @param region      the bucket's region, e.g. {@code us-east-1}; null or blank to ask the server
     * @param maxInFlight the most requests this store has in flight at once
     * @throws IOException when the endpoint cannot be reached, the credentials are refused or the bucket cannot be
     *                     created; the message names the endpoint and the cause
     */
    public S3TileStore(String endpoint, String accessKey, String secretKey, String region, S3Location location,
                       int maxInFlight, RetryPolicy retry) throws IOException {
        this(endpoint, accessKey, secretKey, region, location,
                S3Options.defaults().withMaxInFlight(maxInFlight).withRetry(retry));
    }

    /** A store with all settings given; see {@link S3Options}. */
    public S3TileStore(String endpoint, String accessKey, String secretKey, String region, S3Location location,
                       S3Options options) throws IOException {
        this(new S3Bucket(endpoint, accessKey, secretKey, region, location, options), location, options);
    }

    private S3TileStore(S3Bucket bucket, S3Location location, S3Options options) throws IOException {
        super(bucket, options.layout(), options.publicUrl(), options.maxInFlight(), options.retry());
        this.location = location;
        try {
            if (options.ensureBucket()) {
                ensureBucket();
            }
        } catch (IOException e) {
            close();
            if (e.getCause() != null && S3Failures.credentialsRefused(e.getCause())) {
                throw new IOException(e.getMessage() + " (check the access key and secret key)", e.getCause());
            }
            throw e;
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Where this store writes, e.g. {@code s3://tiles/cache}. */
    public S3Location location() {
        return location;
    }
}
