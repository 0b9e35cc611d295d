package io.tileseeder.job;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * The image formats tiles are encoded in. A format's extension names its tiles in the store; formats that are two
 * encodings of one image type share it ({@code png} and {@code png8}, {@code webp} and {@code webp-lossless}), so a
 * layer's store holds one of them at a time, as a change of a layer's quality settings would.
 */
public enum TileFormat {
    /** PNG without loss: indexed where a tile has at most 256 colours, 32-bit RGBA otherwise. */
    PNG("png", "image/png", "png"),
    /** PNG of at most 256 colours: tiles of more are quantised. */
    PNG8("png8", "image/png", "png"),
    /** Baseline JPEG over the layer's background colour. */
    JPEG("jpeg", "image/jpeg", "jpg"),
    /**
     * JPEG where a tile is opaque and has more than 256 colours, PNG where it is not: each object carries its own
     * Content-Type ({@link #contentTypeOf}); the format's own is GeoWebCache's name for the mix.
     */
    JPEG_PNG("jpeg-png", "image/vnd.jpeg-png", "jpeg-png"),
    /** Lossy WebP (alpha kept without loss). */
    WEBP("webp", "image/webp", "webp"),
    /** Lossless WebP. */
    WEBP_LOSSLESS("webp-lossless", "image/webp", "webp");

    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G'};
    private static final byte[] JPEG_SIGNATURE = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF};
    /** The colour type's offset in a PNG: signature (8), IHDR length and type (8), width, height, bit depth (9). */
    private static final int PNG_COLOUR_TYPE = 25;

    private final String id;
    private final String contentType;
    private final String extension;

    TileFormat(String id, String contentType, String extension) {
        this.id = id;
        this.contentType = contentType;
        this.extension = extension;
    }

    public String id() {
        return id;
    }

    /** The format's MIME type; a stored tile's own is {@link #contentTypeOf}. */
    public String contentType() {
        return contentType;
    }

    public String extension() {
        return extension;
    }

    /** The Content-Type of one tile of this format: for {@link #JPEG_PNG}, that of the image it holds. */
    public String contentTypeOf(byte[] tile) {
        if (this != JPEG_PNG) {
            return contentType;
        }
        return startsWith(tile, 0, PNG_SIGNATURE) ? PNG.contentType : JPEG.contentType;
    }

    /**
     * Whether an encoded image is one this format would store as it is, so an upstream tile of the same grid can be
     * kept byte for byte: a PNG for {@link #PNG}, a palette PNG (colour type 3) for {@link #PNG8}, a JPEG for
     * {@link #JPEG}, either for {@link #JPEG_PNG}, a WebP of lossy ({@code VP8 }, or extended {@code VP8X}) or
     * lossless ({@code VP8L}) data for {@link #WEBP} and {@link #WEBP_LOSSLESS}.
     */
    public boolean holds(byte[] image) {
        boolean png = startsWith(image, 0, PNG_SIGNATURE);
        boolean jpeg = startsWith(image, 0, JPEG_SIGNATURE);
        return switch (this) {
            case PNG -> png;
            case PNG8 -> png && image.length > PNG_COLOUR_TYPE && image[PNG_COLOUR_TYPE] == 3;
            case JPEG -> jpeg;
            case JPEG_PNG -> png || jpeg;
            case WEBP -> webp(image, "VP8 ") || webp(image, "VP8X");
            case WEBP_LOSSLESS -> webp(image, "VP8L");
        };
    }

    private static boolean webp(byte[] image, String chunk) {
        return startsWith(image, 0, "RIFF".getBytes(StandardCharsets.US_ASCII))
                && startsWith(image, 8, ("WEBP" + chunk).getBytes(StandardCharsets.US_ASCII));
    }

    private static boolean startsWith(byte[] image, int offset, byte[] prefix) {
        return image.length >= offset + prefix.length
                && Arrays.equals(image, offset, offset + prefix.length, prefix, 0, prefix.length);
    }

    public static Optional<TileFormat> byId(String id) {
        return Arrays.stream(values()).filter(f -> f.id.equals(id)).findFirst();
    }
}
