package io.tileseeder.adapters.s3;

import io.minio.Http;
import io.minio.MinioAsyncClient;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;

/**
 * The HTTP client under an {@link S3TileStore} and the MinIO SDK client over it.
 *
 * <p>The OkHttp client is sized to the store's in-flight limit (its dispatcher allows only 5 requests per host by
 * default) and opens its sockets with {@code TCP_NODELAY} (with Nagle's algorithm on, one PUT in flight costs
 * ~50 ms: Nagle meets delayed ACK).
 */
final class S3Clients {

    private static final AtomicInteger STORES = new AtomicInteger();

    private S3Clients() {
    }

    /**
     * The SDK's async client over {@code httpClient}.
     *
     * @param region the bucket's region; null or blank to ask the server
     * @throws IllegalArgumentException naming the endpoint and the region when the SDK refuses them
     */
    static MinioAsyncClient minio(String endpoint, String accessKey, String secretKey, String region,
                                  OkHttpClient httpClient) {
        try {
            MinioAsyncClient.Builder builder = MinioAsyncClient.builder().endpoint(endpoint)
                    .credentials(accessKey, secretKey).httpClient(httpClient, false);
            if (region != null && !region.isBlank()) {
                builder.region(region);
            }
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid S3 endpoint or region '" + endpoint + "', '" + region + "': "
                    + e.getMessage(), e);
        }
    }

    /**
     * OkHttp for the SDK: sockets with TCP_NODELAY, a dispatcher and connection pool sized to the in-flight limit,
     * a bounded thread pool (OkHttp's default is a cached one), the SDK's timeouts by default and no retry
     * interceptor (the SDK's default client retries some statuses 5 times on its own; the policy of
     * {@link S3Requests} would multiply that).
     */
    static OkHttpClient httpClient(S3Options options) {
        int limit = options.maxInFlight();
        int store = STORES.incrementAndGet();
        AtomicInteger threads = new AtomicInteger();
        // At most `limit` calls run at once (the dispatcher's limit); a thread that has just finished a call may
        // still be busy when the dispatcher hands over the next one, hence a queue as long as the limit.
        ThreadPoolExecutor executor = new ThreadPoolExecutor(limit, limit, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(limit), runnable -> {
                    Thread thread = new Thread(runnable, "s3-store-" + store + "-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        executor.allowCoreThreadTimeOut(true);
        Dispatcher dispatcher = new Dispatcher(executor);
        dispatcher.setMaxRequests(limit);
        dispatcher.setMaxRequestsPerHost(limit);
        OkHttpClient.Builder builder = BaseHttpClient.INSTANCE.newBuilder();
        builder.interceptors().removeIf(i -> i instanceof Http.StatusRetryInterceptor);
        return builder.dispatcher(dispatcher)
                .connectionPool(new ConnectionPool(limit, 5, TimeUnit.MINUTES))
                .socketFactory(new NoDelaySocketFactory(options.tcpNoDelay()))
                .connectTimeout(options.connectTimeout())
                .readTimeout(options.requestTimeout())
                .writeTimeout(options.requestTimeout())
                .build();
    }

    /**
     * The SDK's default client, built once: it reads the CA certificates named by SSL_CERT_FILE and SSL_CERT_DIR
     * when those are set, which takes about a second with a distribution's full bundle; each store derives its
     * client from this one (sharing its TLS settings) instead of paying that again.
     */
    private static final class BaseHttpClient {
        static final OkHttpClient INSTANCE = Http.newDefaultClient();
    }

    /** Stops the client's threads and closes its idle connections. */
    static void shutDown(OkHttpClient httpClient) {
        httpClient.dispatcher().executorService().shutdown();
        httpClient.connectionPool().evictAll();
    }
}
