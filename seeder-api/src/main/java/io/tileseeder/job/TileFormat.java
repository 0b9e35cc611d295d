package io.tileseeder.job;

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
        return Arrays.equals(tile, 0, Math.min(tile.length, PNG_SIGNATURE.length), PNG_SIGNATURE, 0,
                PNG_SIGNATURE.length) ? PNG.contentType : JPEG.contentType;
    }

    public static Optional<TileFormat> byId(String id) {
        return Arrays.stream(values()).filter(f -> f.id.equals(id)).findFirst();
    }
}
