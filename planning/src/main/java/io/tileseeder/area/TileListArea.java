package io.tileseeder.area;

import io.tileseeder.grid.TileCoord;
import java.util.Arrays;
import java.util.Collection;
import java.util.TreeMap;
import java.util.stream.LongStream;

/**
 * The tiles of a list, such as osm2pgsql's expire output, on every zoom level: on a listed tile's zoom level and
 * below it, the tile and its descendants; above it, its ancestors. So a list of z14 tiles reseeds, at z12, the
 * tiles that hold them and, at z16, the tiles they hold.
 *
 * <p>Each listed zoom level keeps its tiles as sorted Morton codes (x and y bits interleaved), in which the
 * descendants of any tile form one run: whether a cell holds a listed tile is a binary search.
 */
public final class TileListArea implements Area {

    /** Listed zoom level → sorted, distinct Morton codes of its tiles. */
    private final int[] zooms;
    private final long[][] codes;

    public TileListArea(Collection<TileCoord> tiles) {
        TreeMap<Integer, LongStream.Builder> byZoom = new TreeMap<>();
        for (TileCoord tile : tiles) {
            byZoom.computeIfAbsent(tile.z(), z -> LongStream.builder()).add(morton(tile.x(), tile.y()));
        }
        zooms = byZoom.keySet().stream().mapToInt(Integer::intValue).toArray();
        codes = byZoom.values().stream().map(codes -> codes.build().sorted().distinct().toArray())
                .toArray(long[][]::new);
    }

    @Override
    public Overlap overlap(int z, int x, int y) {
        long cell = morton(x, y);
        boolean holdsListed = false;
        for (int i = 0; i < zooms.length; i++) {
            int listed = zooms[i];
            if (z >= listed) {
                int up = z - listed;
                if (Arrays.binarySearch(codes[i], cell >>> (2 * up)) >= 0) {
                    return Overlap.INSIDE;
                }
            } else if (!holdsListed) {
                int down = 2 * (listed - z);
                long first = cell << down;
                long last = ((cell + 1) << down) - 1;
                int at = Arrays.binarySearch(codes[i], first);
                int insertion = at >= 0 ? at : -at - 1;
                holdsListed = at >= 0 || (insertion < codes[i].length && codes[i][insertion] <= last);
            }
        }
        return holdsListed ? Overlap.PARTIAL : Overlap.OUTSIDE;
    }

    /** The bits of x on the even positions, those of y on the odd ones: children of (x, y) follow it by 2 bits. */
    static long morton(int x, int y) {
        return spread(x) | spread(y) << 1;
    }

    private static long spread(int value) {
        long v = value & 0xFFFFFFFFL;
        v = (v | v << 16) & 0x0000FFFF0000FFFFL;
        v = (v | v << 8) & 0x00FF00FF00FF00FFL;
        v = (v | v << 4) & 0x0F0F0F0F0F0F0F0FL;
        v = (v | v << 2) & 0x3333333333333333L;
        v = (v | v << 1) & 0x5555555555555555L;
        return v;
    }
}
