package io.tileseeder.render.wms;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;

/**
 * Tells what an upstream answered to a GetMap: the image, or an error that says why not. A WMS reports most
 * errors as an OGC ServiceException document served with status 200, and a proxy in front of it may answer
 * with an HTML page: neither is ever taken for a tile, and neither is tried again (the same request gets the
 * same answer). A 5xx status or an image that stops short (a connection cut mid-body) is worth another try.
 */
final class WmsAnswer {

    private static final Pattern SERVICE_EXCEPTION = Pattern.compile(
            "<(?:\\w+:)?(?:ServiceException|ExceptionText)\\b([^>]*)>(.*?)</(?:\\w+:)?(?:ServiceException|ExceptionText)>",
            Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
    private static final Pattern CODE = Pattern.compile("(?:code|exceptionCode)\\s*=\\s*\"([^\"]*)\"");
    private static final Pattern TITLE = Pattern.compile("<title[^>]*>(.*?)</title>", Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
    private static final Pattern TAGS = Pattern.compile("<[^>]*>|<!--.*?-->", Pattern.DOTALL);
    private static final byte[] PNG_END = {0, 0, 0, 0, 'I', 'E', 'N', 'D', (byte) 0xae, 0x42, 0x60, (byte) 0x82};
    /** Characters of an upstream's message kept in an error. */
    private static final int MAX_MESSAGE = 500;

    private WmsAnswer() {
    }

    /**
     * The decoded image of a GetMap answer, in {@code into}'s pixels if given (an 8-bit RGB, RGBA or palette PNG of
     * its size is decoded straight into them, without an intermediate image); otherwise in an image of its own.
     *
     * @param what how to name the request in errors, e.g. {@code WMS 127.0.0.1:8090 GetMap http://…}
     * @param width the width asked for: an image of another size is refused before its pixels are decoded, so that
     *              a few bytes claiming a huge image cannot take the worker's memory
     * @param into a {@code TYPE_INT_ARGB} image of {@code width × height} to decode into; null, or any other image,
     *             for an image of its own
     * @throws WmsException with the upstream's message if the answer is not an image of the size asked for
     */
    static BufferedImage image(String what, int status, String contentType, byte[] body, int width, int height,
                               BufferedImage into) throws WmsException {
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        if (status >= 500 || status == 429) {
            boolean unavailable = status == 502 || status == 503 || status == 504 || status == 429;
            throw new WmsException(what + " answered HTTP " + status + message(type, body), true, unavailable, null);
        }
        if (status < 200 || status >= 300) {
            throw new WmsException(what + " answered HTTP " + status + message(type, body), false, null);
        }
        if (looksLikeMarkup(type, body)) {
            throw new WmsException(what + " answered " + status + " with " + describe(type, body)
                    + " instead of an image", false, null);
        }
        if (!type.startsWith("image/")) {
            throw new WmsException(what + " answered " + status + " with Content-Type '" + contentType
                    + "' instead of an image" + message(type, body), false, null);
        }
        return decode(what, type, body, width, height, into);
    }

    private static BufferedImage decode(String what, String type, byte[] body, int width, int height,
                                        BufferedImage into) throws WmsException {
        if (startsWith(body, PngDecoder.SIGNATURE)) {
            if (!endsWith(body, PNG_END)) {
                throw truncated(what, type, body, "the PNG has no IEND chunk at its end", null);
            }
            if (into != null && into.getType() == BufferedImage.TYPE_INT_ARGB && into.getWidth() == width
                    && into.getHeight() == height) {
                int[] pixels = ((DataBufferInt) into.getRaster().getDataBuffer()).getData();
                try {
                    if (PngDecoder.decode(body, pixels, width, height)) {
                        return into;
                    }
                } catch (IOException e) {
                    throw truncated(what, type, body, e.getMessage(), e);
                }
            }
        }
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(body))) {
            Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
            if (!readers.hasNext()) {
                throw new WmsException(what + " answered with " + type + " but " + body.length
                        + " bytes that are no image format the seeder reads", false, null);
            }
            ImageReader reader = readers.next();
            List<String> warnings = new ArrayList<>();
            reader.addIIOReadWarningListener((source, warning) -> warnings.add(warning));
            try {
                reader.setInput(in, true, true);
                if (reader.getWidth(0) != width || reader.getHeight(0) != height) {
                    throw new WmsException(what + " answered with an image of " + reader.getWidth(0) + "x"
                            + reader.getHeight(0) + " px instead of " + width + "x" + height, false, null);
                }
                BufferedImage image = reader.read(0);
                if (!warnings.isEmpty()) {
                    throw truncated(what, type, body, String.join("; ", warnings), null);
                }
                return image;
            } finally {
                reader.dispose();
            }
        } catch (WmsException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw truncated(what, type, body, e.getMessage(), e);
        }
    }

    private static WmsException truncated(String what, String type, byte[] body, String why, Throwable cause) {
        return new WmsException(what + " answered with a truncated or corrupt " + type + " of " + body.length
                + " bytes: " + why, true, cause);
    }

    /** An XML or HTML document, whatever the Content-Type says. */
    private static boolean looksLikeMarkup(String type, byte[] body) {
        if (type.contains("xml") || type.contains("html")) {
            return true;
        }
        for (byte b : body) {
            if (!Character.isWhitespace(b)) {
                return b == '<';
            }
        }
        return false;
    }

    private static String describe(String type, byte[] body) {
        String text = text(body);
        Matcher exception = SERVICE_EXCEPTION.matcher(text);
        if (exception.find()) {
            Matcher code = CODE.matcher(exception.group(1));
            return "a ServiceException" + (code.find() ? " (code " + code.group(1) + ")" : "") + ": "
                    + clean(exception.group(2));
        }
        Matcher title = TITLE.matcher(text);
        String kind = type.contains("html") || text.toLowerCase(Locale.ROOT).contains("<html") ? "an HTML page"
                : "an XML document";
        return kind + " (" + (type.isEmpty() ? "no Content-Type" : type) + "): "
                + (title.find() ? clean(title.group(1)) : clean(TAGS.matcher(text).replaceAll(" ")));
    }

    /** The body as a message, after a colon, for an error status. */
    private static String message(String type, byte[] body) {
        if (body.length == 0) {
            return "";
        }
        if (looksLikeMarkup(type, body)) {
            return ": " + describe(type, body);
        }
        return type.startsWith("text/") ? ": " + clean(text(body)) : " (" + body.length + " bytes of " + type + ")";
    }

    private static String text(byte[] body) {
        return new String(body, 0, Math.min(body.length, 64 * 1024), StandardCharsets.UTF_8);
    }

    /** One line, entities of XML resolved, at most {@link #MAX_MESSAGE} characters. */
    private static String clean(String text) {
        String line = text.replace("<![CDATA[", "").replace("]]>", "").replaceAll("\\s+", " ").strip()
                .replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'")
                .replace("&amp;", "&");
        return line.length() <= MAX_MESSAGE ? line : line.substring(0, MAX_MESSAGE) + "…";
    }

    private static boolean startsWith(byte[] body, byte[] prefix) {
        return body.length >= prefix.length && Arrays.equals(body, 0, prefix.length, prefix, 0, prefix.length);
    }

    private static boolean endsWith(byte[] body, byte[] suffix) {
        return body.length >= suffix.length
                && Arrays.equals(body, body.length - suffix.length, body.length, suffix, 0, suffix.length);
    }
}
