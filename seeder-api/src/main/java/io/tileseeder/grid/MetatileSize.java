package io.tileseeder.grid;

/** How many tiles across and down a metatile has; rendering one metatile replaces {@code width × height} renders. */
public record MetatileSize(int width, int height) {

    public static final MetatileSize DEFAULT = new MetatileSize(4, 4);
    /** The largest side accepted: 16 tiles is a 4096 px raster, 64 MiB of ARGB. */
    public static final int MAX_SIDE = 16;

    public MetatileSize {
        if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
            throw new IllegalArgumentException(
                    "metatile must be 1 to " + MAX_SIDE + " tiles on each side, got " + width + "x" + height);
        }
    }
}
