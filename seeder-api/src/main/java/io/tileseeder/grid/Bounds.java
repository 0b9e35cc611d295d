package io.tileseeder.grid;

/**
 * An axis-aligned rectangle: in CRS84 longitude/latitude degrees for a job's bbox, in the tile matrix set's
 * CRS units for tile and metatile envelopes. {@code minX <= maxX} and {@code minY <= maxY}.
 */
public record Bounds(double minX, double minY, double maxX, double maxY) {

    /** The whole world in CRS84. */
    public static final Bounds WORLD_CRS84 = new Bounds(-180, -90, 180, 90);

    public Bounds {
        if (!(minX <= maxX) || !(minY <= maxY)) {
            throw new IllegalArgumentException(
                    "inverted or undefined bounds: [" + minX + ", " + minY + ", " + maxX + ", " + maxY + "]");
        }
    }

    public double width() {
        return maxX - minX;
    }

    public double height() {
        return maxY - minY;
    }

    public boolean intersects(Bounds other) {
        return minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY;
    }

    /** These bounds grown by {@code dx} on the left and right and {@code dy} on the top and bottom. */
    public Bounds expandBy(double dx, double dy) {
        return new Bounds(minX - dx, minY - dy, maxX + dx, maxY + dy);
    }

    /** {@code [minX, minY, maxX, maxY]}, as a bbox is written in a request. */
    @Override
    public String toString() {
        return "[" + minX + ", " + minY + ", " + maxX + ", " + maxY + "]";
    }
}
