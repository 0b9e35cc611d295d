package io.tileseeder.adapters.bucket;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Why a request to an object store failed, for people, and whether trying again may help; with what every cloud's
 * classification shares: HTTP statuses worth retrying, network failures, readable one-line messages.
 */
public record BucketFailure(boolean retryable, String reason, Throwable cause) {

    /** 5xx, 429 (too many requests) and 408 (request timeout): the service may answer the next try. */
    public static boolean retryableStatus(int status) {
        return status >= 500 || status == 429 || status == 408;
    }

    /**
     * A failure of the network or of the connection (refused, unknown host, timed out, any other I/O error): worth
     * retrying; any other exception is not. Null when {@code e} is neither, for the caller's own kinds.
     */
    public static BucketFailure ofTransport(Throwable e) {
        if (e instanceof ConnectException || e instanceof UnknownHostException || e instanceof SocketTimeoutException
                || e instanceof HttpConnectTimeoutException || e instanceof HttpTimeoutException) {
            return new BucketFailure(true, "cannot connect: " + describe(e), e);
        }
        if (e instanceof IOException) {
            return new BucketFailure(true, describe(e), e);
        }
        return null;
    }

    /** Whether the rejected task of an executor that is shut down: a store closing, not worth retrying. */
    public static boolean isShutDown(Throwable e) {
        return e instanceof InterruptedIOException && !(e instanceof SocketTimeoutException)
                && e.getMessage() != null && e.getMessage().contains("executor rejected");
    }

    /** Past the futures' wrappers (CompletionException, ExecutionException, UncheckedIOException) to the cause. */
    public static Throwable unwrap(Throwable failure) {
        Throwable e = failure;
        while (e.getCause() != null && e.getCause() != e && (e instanceof CompletionException
                || e instanceof ExecutionException || e instanceof UncheckedIOException)) {
            e = e.getCause();
        }
        return e;
    }

    /** The failure as a {@link CompletionException}, to rethrow from a stage of a future without wrapping twice. */
    public static CompletionException completion(Throwable failure) {
        return failure instanceof CompletionException c ? c : new CompletionException(failure);
    }

    /** The exception's class and message, and its root cause's if that says more (e.g. "Connection refused"). */
    public static String describe(Throwable e) {
        String message = e.getMessage();
        String text = e.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String rootMessage = root.getMessage();
        if (root != e && rootMessage != null && !rootMessage.isBlank()
                && (message == null || !message.contains(rootMessage))) {
            text += " (" + rootMessage + ")";
        }
        return shorten(text);
    }

    /** One line of at most 300 characters. */
    public static String shorten(String text) {
        String oneLine = text.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= 300 ? oneLine : oneLine.substring(0, 300) + "...";
    }
}
