package io.tileseeder.grid;

/**
 * A tile's position in a tile matrix set: zoom level {@code z}, column {@code x} from the left, row {@code y}
 * from the top (OGC TileMatrix order, the same as XYZ).
 */
public record TileCoord(int z, int x, int y) {

    public TileCoord {
        if (z < 0 || x < 0 || y < 0) {
            throw new IllegalArgumentException("tile coordinates must not be negative: " + z + "/" + x + "/" + y);
        }
    }

    public static TileCoord of(int z, int x, int y) {
        return new TileCoord(z, x, y);
    }

    @Override
    public String toString() {
        return z + "/" + x + "/" + y;
    }
}
