package io.tileseeder.worker.render;

/**
 * What a tile holds, found by one scan of its pixels that stops at the first pixel that differs: fully
 * transparent ({@link #isEmpty}), one colour throughout ({@link #isUniform}, e.g. inside a country), or detail.
 *
 * @param uniformArgb the colour of a uniform tile; meaningless otherwise
 */
public record TileContent(Kind kind, int uniformArgb) {

    public enum Kind { EMPTY, UNIFORM, DETAILED }

    /** A fully transparent tile. */
    public static final TileContent EMPTY = new TileContent(Kind.EMPTY, 0);
    private static final TileContent DETAILED = new TileContent(Kind.DETAILED, 0);

    public static TileContent of(TileView tile) {
        int[] pixels = tile.pixels();
        int first = pixels[tile.offset()];
        boolean transparent = first >>> 24 == 0;
        for (int y = 0; y < tile.height(); y++) {
            int row = tile.offset() + y * tile.scanlineStride();
            int end = row + tile.width();
            if (transparent) {
                for (int i = row; i < end; i++) {
                    if (pixels[i] >>> 24 != 0) {
                        return DETAILED;
                    }
                }
            } else {
                for (int i = row; i < end; i++) {
                    if (pixels[i] != first) {
                        return DETAILED;
                    }
                }
            }
        }
        return transparent ? EMPTY : new TileContent(Kind.UNIFORM, first);
    }

    public boolean isEmpty() {
        return kind == Kind.EMPTY;
    }

    public boolean isUniform() {
        return kind == Kind.UNIFORM;
    }
}
