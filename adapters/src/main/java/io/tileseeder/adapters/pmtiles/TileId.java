package io.tileseeder.adapters.pmtiles;

/**
 * PMTiles v3 tile identifiers: a tile's position on the series of square Hilbert curves, zoom 0 first, so zoom
 * {@code z} begins at {@code (4^z - 1) / 3} and its {@code 4^z} tiles follow in Hilbert order (PMTiles v3
 * specification, "Entries"; zoom 1 is (0,0), (0,1), (1,1), (1,0), ids 1 to 4).
 */
public final class TileId {

    /** The deepest zoom whose ids fit a signed 64-bit integer with room to spare. */
    public static final int MAX_ZOOM = 30;

    private TileId() {
    }

    /** The id of tile {@code x}, {@code y} (row 0 at the top) of zoom {@code z}. */
    public static long of(int z, long x, long y) {
        if (z < 0 || z > MAX_ZOOM) {
            throw new IllegalArgumentException("zoom " + z + " is not 0.." + MAX_ZOOM);
        }
        long n = 1L << z;
        if (x < 0 || y < 0 || x >= n || y >= n) {
            throw new IllegalArgumentException("tile " + z + "/" + x + "/" + y + " is outside zoom " + z);
        }
        long d = 0;
        for (long s = n / 2; s > 0; s /= 2) {
            long rx = (x & s) > 0 ? 1 : 0;
            long ry = (y & s) > 0 ? 1 : 0;
            d += s * s * ((3 * rx) ^ ry);
            if (ry == 0) {
                if (rx == 1) {
                    x = s - 1 - (x & (s - 1));
                    y = s - 1 - (y & (s - 1));
                }
                long t = x;
                x = y;
                y = t;
            }
        }
        return firstOf(z) + d;
    }

    /** The id of zoom {@code z}'s first tile: how many tiles the zooms before it have. */
    public static long firstOf(int z) {
        return ((1L << (2 * z)) - 1) / 3;
    }

    /** The zoom, column and row of an id. */
    public static long[] zxy(long id) {
        if (id < 0) {
            throw new IllegalArgumentException("tile id " + id + " is negative");
        }
        int z = 0;
        while (z < MAX_ZOOM && firstOf(z + 1) <= id) {
            z++;
        }
        long d = id - firstOf(z);
        long n = 1L << z;
        long x = 0;
        long y = 0;
        for (long s = 1; s < n; s *= 2) {
            long rx = 1 & (d / 2);
            long ry = 1 & (d ^ rx);
            if (ry == 0) {
                if (rx == 1) {
                    x = s - 1 - x;
                    y = s - 1 - y;
                }
                long t = x;
                x = y;
                y = t;
            }
            x += s * rx;
            y += s * ry;
            d /= 4;
        }
        return new long[] {z, x, y};
    }
}
