package io.tileseeder.adapters.s3;

import io.minio.errors.ErrorResponseException;
import io.minio.errors.InvalidResponseException;
import io.minio.errors.MinioException;
import io.minio.errors.ServerException;
import io.minio.messages.DeleteResult;
import io.tileseeder.adapters.bucket.BucketFailure;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a failed S3 request means: worth retrying or not, and a reason people can read.
 *
 * <p>A 5xx, 408, 429, an S3 "slow down"/"internal error" code, or a connection or I/O error is worth retrying (the
 * server or the network may recover); any other 4xx (access denied, bad credentials, missing bucket...) is not. The
 * MinIO SDK wraps the real cause in several layers (CompletionException, MinioException around an IOException...),
 * so every answer here looks past them first.
 */
final class S3Failures {

    /** Retried S3 error codes, whatever the HTTP status they come with. */
    private static final Set<String> RETRYABLE_CODES = Set.of("InternalError", "ServiceUnavailable", "SlowDown",
            "SlowDownWrite", "SlowDownRead", "RequestTimeout", "RequestError", "Throttling", "ThrottlingException",
            "RequestLimitExceeded", "RequestThrottled", "XMinioServerNotInitialized");

    /** S3 error codes that mean the credentials were refused. */
    private static final Set<String> CREDENTIAL_CODES = Set.of("AccessDenied", "InvalidAccessKeyId",
            "SignatureDoesNotMatch", "InvalidToken", "ExpiredToken");

    private static final Pattern RESPONSE_CODE = Pattern.compile("Response code: (\\d{3})");

    private S3Failures() {
    }

    /** The S3 errors a DeleteObjects request reported for some of its objects. */
    static final class DeleteErrors extends Exception {
        private final transient List<DeleteResult.Error> errors;

        DeleteErrors(List<DeleteResult.Error> errors) {
            super(errors.size() + " objects not deleted, e.g. " + errors.get(0).objectName() + ": "
                    + errors.get(0).code() + " " + errors.get(0).message(), null, false, false);
            this.errors = List.copyOf(errors);
        }

        boolean retryable() {
            return errors.stream().allMatch(e -> RETRYABLE_CODES.contains(e.code()));
        }
    }

    /** Why a request failed and whether sending it again may help. */
    static BucketFailure classify(Throwable failure) {
        Throwable e = unwrap(failure);
        if (e instanceof ErrorResponseException error) {
            String code = error.errorResponse().code();
            int status = error.response() == null ? 0 : error.response().code();
            String message = error.errorResponse().message();
            String reason = code + (status > 0 ? " (HTTP " + status + ")" : "")
                    + (message == null || message.isBlank() ? "" : ": " + message);
            return new BucketFailure(BucketFailure.retryableStatus(status) || RETRYABLE_CODES.contains(code), reason,
                    e);
        }
        if (e instanceof ServerException server) {
            return new BucketFailure(BucketFailure.retryableStatus(server.statusCode()),
                    "HTTP " + server.statusCode(), e);
        }
        if (e instanceof InvalidResponseException invalid) {
            Matcher m = RESPONSE_CODE.matcher(String.valueOf(invalid.getMessage()));
            int status = m.find() ? Integer.parseInt(m.group(1)) : 0;
            return new BucketFailure(BucketFailure.retryableStatus(status),
                    "not an S3 answer: " + BucketFailure.shorten(invalid.getMessage()), e);
        }
        if (e instanceof DeleteErrors errors) {
            return new BucketFailure(errors.retryable(), errors.getMessage(), e);
        }
        if (BucketFailure.isShutDown(e)) {
            return new BucketFailure(false, BucketFailure.describe(e), e);
        }
        BucketFailure transport = BucketFailure.ofTransport(e);
        return transport != null ? transport : new BucketFailure(false, BucketFailure.describe(e), e);
    }

    /** Whether the failure is S3's answer that there is no such object (a missing bucket is not that). */
    static boolean isMissingObject(Throwable failure) {
        if (unwrap(failure) instanceof ErrorResponseException error) {
            String code = error.errorResponse().code();
            return "NoSuchKey".equals(code) || "NoSuchObject".equals(code)
                    || (error.response() != null && error.response().code() == 404 && !"NoSuchBucket".equals(code));
        }
        return false;
    }

    /** The S3 error code of the answer, or null if the failure is not an S3 answer. */
    static String s3Code(Throwable failure) {
        return unwrap(failure) instanceof ErrorResponseException error ? error.errorResponse().code() : null;
    }

    /** Past the wrappers (CompletionException, MinioException around an IOException...) to the real cause. */
    private static Throwable unwrap(Throwable failure) {
        Throwable e = failure;
        while (e.getCause() != null && e.getCause() != e
                && (e instanceof CompletionException || e instanceof ExecutionException
                || e instanceof UncheckedIOException || e.getClass() == MinioException.class)) {
            e = e.getCause();
        }
        return e;
    }

    /** Whether the failure is an S3 answer that refused the credentials. */
    static boolean credentialsRefused(Throwable failure) {
        String code = s3Code(failure);
        return code != null && CREDENTIAL_CODES.contains(code);
    }
}
