package io.tileseeder.server.api;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 sent byte for byte over a socket of its own: for the malformed targets, headers and bodies that an HTTP
 * client library would refuse or repair.
 */
final class RawHttp {

    /** How long a test waits for an answer; the server's own read timeout is 10 s. */
    static final int ANSWER_TIMEOUT_MILLIS = 30_000;

    private RawHttp() {
    }

    /** A request's first lines, up to its own headers: the request line, {@code Host} and {@code Connection: close}. */
    static String head(URI base, String method, String target) {
        return method + " " + target + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                + "\r\nConnection: close\r\n";
    }

    /** Sends {@code request} (after {@link #head} and its own headers) and reads the answer to its end. */
    static Answer exchange(URI base, byte[] request) throws IOException {
        try (Socket socket = connect(base)) {
            try {
                socket.getOutputStream().write(request);
                socket.getOutputStream().flush();
            } catch (SocketException e) {
                // The server may answer and close before it has read all of a body it refuses (413).
            }
            return Answer.parse(socket.getInputStream().readAllBytes());
        }
    }

    static Socket connect(URI base) throws IOException {
        Socket socket = new Socket(base.getHost(), base.getPort());
        socket.setSoTimeout(ANSWER_TIMEOUT_MILLIS);
        return socket;
    }

    /** {@code body} as a chunked body: one chunk (none when it is empty), then the last chunk. */
    static byte[] chunked(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (body.length > 0) {
            out.writeBytes((Integer.toHexString(body.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(body);
            out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    /**
     * An HTTP/1.1 response: status, headers (names in lower case) and body, de-chunked; status 0, with what came as its
     * body, when no complete response head came.
     */
    record Answer(int status, Map<String, String> headers, String body) {

        static Answer parse(byte[] bytes) {
            String text = new String(bytes, StandardCharsets.ISO_8859_1);
            int end = text.indexOf("\r\n\r\n");
            if (end < 0) {
                return new Answer(0, Map.of(), text);
            }
            String[] lines = text.substring(0, end).split("\r\n");
            int status = Integer.parseInt(lines[0].split(" ")[1]);
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
            }
            byte[] body = text.substring(end + 4).getBytes(StandardCharsets.ISO_8859_1);
            if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                body = dechunk(body);
            }
            return new Answer(status, headers, new String(body, StandardCharsets.UTF_8));
        }

        private static byte[] dechunk(byte[] chunked) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            String text = new String(chunked, StandardCharsets.ISO_8859_1);
            int at = 0;
            while (true) {
                int lineEnd = text.indexOf("\r\n", at);
                int size = Integer.parseInt(text.substring(at, lineEnd).split(";")[0].trim(), 16);
                if (size == 0) {
                    return body.toByteArray();
                }
                body.write(chunked, lineEnd + 2, size);
                at = lineEnd + 2 + size + 2;
            }
        }
    }
}
