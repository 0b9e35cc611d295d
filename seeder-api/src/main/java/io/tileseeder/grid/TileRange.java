package io.tileseeder.grid;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * The tiles of one zoom level with {@code minX <= x <= maxX} and {@code minY <= y <= maxY} (inclusive).
 */
public record TileRange(int z, int minX, int minY, int maxX, int maxY) implements Iterable<TileCoord> {

    public TileRange {
        if (z < 0 || minX < 0 || minY < 0 || minX > maxX || minY > maxY) {
            throw new IllegalArgumentException(
                    "invalid tile range z" + z + " x " + minX + ".." + maxX + " y " + minY + ".." + maxY);
        }
    }

    public int width() {
        return maxX - minX + 1;
    }

    public int height() {
        return maxY - minY + 1;
    }

    public long count() {
        return (long) width() * height();
    }

    public boolean contains(TileCoord tile) {
        return tile.z() == z && tile.x() >= minX && tile.x() <= maxX && tile.y() >= minY && tile.y() <= maxY;
    }

    /** The tiles in both ranges, if any. */
    public Optional<TileRange> intersection(TileRange other) {
        if (other.z != z) {
            return Optional.empty();
        }
        int x0 = Math.max(minX, other.minX);
        int y0 = Math.max(minY, other.minY);
        int x1 = Math.min(maxX, other.maxX);
        int y1 = Math.min(maxY, other.maxY);
        return x0 <= x1 && y0 <= y1 ? Optional.of(new TileRange(z, x0, y0, x1, y1)) : Optional.empty();
    }

    /** Row by row, top to bottom, left to right. */
    @Override
    public Iterator<TileCoord> iterator() {
        return new Iterator<>() {
            private int x = minX;
            private int y = minY;

            @Override
            public boolean hasNext() {
                return y <= maxY;
            }

            @Override
            public TileCoord next() {
                if (y > maxY) {
                    throw new NoSuchElementException();
                }
                TileCoord tile = new TileCoord(z, x, y);
                if (++x > maxX) {
                    x = minX;
                    y++;
                }
                return tile;
            }
        };
    }
}
