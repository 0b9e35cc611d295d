package io.tileseeder.worker.wms;

import ar.com.hjg.pngj.ImageInfo;
import ar.com.hjg.pngj.PngReaderByte;
import ar.com.hjg.pngj.chunks.PngChunkPLTE;
import ar.com.hjg.pngj.chunks.PngChunkTRNS;
import ar.com.hjg.pngj.chunks.PngMetadata;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
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
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    private static final byte[] PNG_END = {0, 0, 0, 0, 'I', 'E', 'N', 'D', (byte) 0xae, 0x42, 0x60, (byte) 0x82};
    /** A PNG row's RGBA bytes read four at a time. */
    private static final VarHandle RGBA = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    /** Characters of an upstream's message kept in an error. */
    private static final int MAX_MESSAGE = 500;

    private WmsAnswer() {
    }

    /**
     * The decoded image of a GetMap answer, in {@code into}'s pixels if given (an 8-bit RGB, RGBA or palette PNG of
     * its size is decoded straight into them, without an intermediate image); otherwise in an image of its own.
     *
     * @param what how to name the request in errors, e.g. {@code WMS 127.0.0.1:8090 GetMap http://…}
     * @param into a {@code TYPE_INT_ARGB} image to decode into, or null
     * @throws WmsException with the upstream's message if the answer is not an image
     */
    static BufferedImage image(String what, int status, String contentType, byte[] body, BufferedImage into)
            throws WmsException {
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        if (status >= 500) {
            boolean unavailable = status == 502 || status == 503 || status == 504;
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
        return decode(what, type, body, into);
    }

    private static BufferedImage decode(String what, String type, byte[] body, BufferedImage into)
            throws WmsException {
        if (startsWith(body, PNG_SIGNATURE)) {
            if (!endsWith(body, PNG_END)) {
                throw truncated(what, type, body, "the PNG has no IEND chunk at its end", null);
            }
            if (into != null) {
                try {
                    if (decodePng(body, into)) {
                        return into;
                    }
                } catch (RuntimeException e) {
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

    /**
     * Decodes an 8-bit, non-interlaced RGB, RGBA or palette PNG of {@code into}'s size row by row straight into its
     * ARGB pixels (PNGJ checks every chunk's CRC); false, decoding nothing, for any other PNG. A palette PNG is
     * what a WMS sends for {@code image/png; mode=8bit}: a quarter of the bytes to inflate.
     */
    private static boolean decodePng(byte[] body, BufferedImage into) {
        PngReaderByte reader = new PngReaderByte(new ByteArrayInputStream(body));
        try {
            ImageInfo info = reader.imgInfo;
            if (info.bitDepth != 8 || info.greyscale || reader.isInterlaced()
                    || info.cols != into.getWidth() || info.rows != into.getHeight()
                    || into.getType() != BufferedImage.TYPE_INT_ARGB) {
                return false;
            }
            int[] pixels = ((DataBufferInt) into.getRaster().getDataBuffer()).getData();
            int width = info.cols;
            int[] palette = null;
            for (int row = 0, out = 0; row < info.rows; row++, out += width) {
                byte[] line = reader.readRowByte().getScanlineByte();
                if (info.indexed) {
                    if (palette == null) {
                        palette = palette(reader.getMetadata());
                    }
                    paletteRow(line, palette, pixels, out, width);
                } else if (info.channels == 4) {
                    for (int x = 0; x < width; x++) {
                        pixels[out + x] = Integer.rotateRight((int) RGBA.get(line, x << 2), 8);
                    }
                } else {
                    for (int x = 0, in = 0; x < width; x++, in += 3) {
                        pixels[out + x] = 0xFF000000 | (line[in] & 0xff) << 16 | (line[in + 1] & 0xff) << 8
                                | line[in + 2] & 0xff;
                    }
                }
            }
            reader.end();
            return true;
        } finally {
            reader.close();
        }
    }

    /** The PNG's palette as ARGB, with the alpha of its tRNS chunk (opaque where it has none). */
    private static int[] palette(PngMetadata metadata) {
        PngChunkPLTE plte = metadata.getPLTE();
        if (plte == null) {
            throw new IllegalStateException("the palette PNG has no PLTE chunk");
        }
        PngChunkTRNS trns = metadata.getTRNS();
        int[] alpha = trns == null ? new int[0] : trns.getPalletteAlpha();
        int[] palette = new int[plte.getNentries()];
        for (int i = 0; i < palette.length; i++) {
            palette[i] = (i < alpha.length ? alpha[i] & 0xff : 0xff) << 24 | plte.getEntry(i) & 0xFFFFFF;
        }
        return palette;
    }

    private static void paletteRow(byte[] line, int[] palette, int[] pixels, int out, int width) {
        for (int x = 0; x < width; x++) {
            int index = line[x] & 0xff;
            if (index >= palette.length) {
                throw new IllegalStateException("pixel " + x + " of a row has palette index " + index
                        + ", past the palette's " + palette.length + " colours");
            }
            pixels[out + x] = palette[index];
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
