package io.tileseeder.job;

import java.util.Arrays;
import java.util.Optional;

/** The image formats tiles are encoded in. */
public enum TileFormat {
    /** 32-bit RGBA PNG. */
    PNG("png", "image/png", "png"),
    /** Baseline JPEG over the layer's background colour. */
    JPEG("jpeg", "image/jpeg", "jpg");

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

    public String contentType() {
        return contentType;
    }

    public String extension() {
        return extension;
    }

    public static Optional<TileFormat> byId(String id) {
        return Arrays.stream(values()).filter(f -> f.id.equals(id)).findFirst();
    }
}
