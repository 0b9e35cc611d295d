package io.tileseeder.grid;

/**
 * A block of tiles rendered as one image and then cut. Metatile column {@code x} and row {@code y} count in
 * metatiles: tile (tx, ty) belongs to the metatile ({@code tx / size.width}, {@code ty / size.height}).
 * Metatiles at the right and bottom edges of the matrix are clipped to the tiles that exist.
 */
public record Metatile(TileMatrixSet tileMatrixSet, int z, int x, int y, MetatileSize size) {

    public Metatile {
        if (x < 0 || y < 0 || (long) x * size.width() >= tileMatrixSet.matrixWidth(z)
                || (long) y * size.height() >= tileMatrixSet.matrixHeight(z)) {
            throw new IllegalArgumentException("metatile " + x + "," + y + " of size " + size
                    + " is outside the matrix of " + tileMatrixSet + " at zoom " + z);
        }
    }

    /** The metatile that holds {@code tile}. */
    public static Metatile containing(TileMatrixSet tms, TileCoord tile, MetatileSize size) {
        return new Metatile(tms, tile.z(), tile.x() / size.width(), tile.y() / size.height(), size);
    }

    /** Its tiles, clipped at the edge of the matrix. */
    public TileRange tiles() {
        int minX = x * size.width();
        int minY = y * size.height();
        int maxX = Math.min(minX + size.width(), tileMatrixSet.matrixWidth(z)) - 1;
        int maxY = Math.min(minY + size.height(), tileMatrixSet.matrixHeight(z)) - 1;
        return new TileRange(z, minX, minY, maxX, maxY);
    }

    /** The raster to render: the tiles plus {@code gutter} pixels on every side. */
    public int imageWidth(int gutter) {
        return tiles().width() * tileMatrixSet.tileSize(z) + 2 * gutter;
    }

    public int imageHeight(int gutter) {
        return tiles().height() * tileMatrixSet.tileSize(z) + 2 * gutter;
    }

    /** The envelope, in CRS units, of the raster to render: the tiles' envelope grown by the gutter. */
    public Bounds bounds(int gutter) {
        double margin = gutter * tileMatrixSet.resolution(z);
        return tileMatrixSet.rangeBounds(tiles()).expandBy(margin, margin);
    }

    @Override
    public String toString() {
        return tileMatrixSet + "/" + z + "/" + x + "/" + y + "@" + size.width() + "x" + size.height();
    }
}
