package io.tileseeder.render.encode;

import io.tileseeder.render.TileView;

/**
 * Encodes one tile's pixels into an image format. Implementations are thread-safe: any per-call state
 * (buffers, {@link java.util.zip.Deflater}s, image writers) is kept per thread and reused.
 */
public interface TileEncoder {

    /** Encodes the tile; the view is only read. */
    byte[] encode(TileView tile);

    /** The MIME type of what {@link #encode} returns, e.g. {@code image/png}. */
    String contentType();

    /** The file extension for stored tiles, without the dot, e.g. {@code png}. */
    String extension();
}
