package io.tileseeder.render.encode;

import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.render.TileContent;
import io.tileseeder.render.TileView;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Encodes tiles, a tile of one colour (inside a country, or fully transparent) once per colour and encoder: its bytes
 * are kept and handed out again. Thread-safe; one per worker.
 */
public final class UniformTiles {

    /** Images kept at most; a map with more colours than this encodes the rest each time. */
    private static final int MAX_KEPT = 1024;

    private final Map<Key, byte[]> kept = new ConcurrentHashMap<>();

    /** Encoders are made once per layer and format, so an encoder and a colour name one image. */
    private record Key(TileEncoder encoder, int argb) {
    }

    /** The tile's bytes in the encoder's format; {@code content} is what {@link TileContent#of} found in it. */
    public byte[] encode(TileEncoder encoder, TileView tile, TileContent content) {
        if (!content.isEmpty() && !content.isUniform()) {
            return encoder.encode(tile);
        }
        Key key = new Key(encoder, content.uniformArgb());
        byte[] data = kept.get(key);
        if (data == null) {
            data = encoder.encode(uniform(content.uniformArgb()));
            if (kept.size() < MAX_KEPT) {
                kept.put(key, data);
            }
        }
        return data;
    }

    private static TileView uniform(int argb) {
        int[] pixels = new int[TileMatrixSet.TILE_SIZE * TileMatrixSet.TILE_SIZE];
        Arrays.fill(pixels, argb);
        return new TileView(pixels, 0, TileMatrixSet.TILE_SIZE, TileMatrixSet.TILE_SIZE, TileMatrixSet.TILE_SIZE);
    }
}
