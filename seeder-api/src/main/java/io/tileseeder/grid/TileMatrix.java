package io.tileseeder.grid;

/**
 * One tile matrix of a tile matrix set (OGC 17-083r4, 7.1): a grid of {@code matrixWidth × matrixHeight} tiles of
 * {@code tileWidth × tileHeight} pixels of {@code cellSize} CRS units each, whose top-left corner is
 * ({@code left}, {@code top}) in the CRS's easting and northing (whatever the CRS's own axis order).
 *
 * @param id the matrix's identifier in the set (what WMTS calls the TileMatrix); zoom levels are positions
 */
public record TileMatrix(String id, double cellSize, double left, double top, int tileWidth, int tileHeight,
                         int matrixWidth, int matrixHeight) {

    public TileMatrix {
        if (!(cellSize > 0) || Double.isInfinite(cellSize)) {
            throw new IllegalArgumentException("matrix " + id + ": cellSize must be positive, got " + cellSize);
        }
        if (!Double.isFinite(left) || !Double.isFinite(top)) {
            throw new IllegalArgumentException("matrix " + id + ": the point of origin must be finite");
        }
        if (tileWidth <= 0 || tileHeight <= 0 || matrixWidth <= 0 || matrixHeight <= 0) {
            throw new IllegalArgumentException("matrix " + id + ": tile and matrix sizes must be positive, got "
                    + tileWidth + "x" + tileHeight + " px, " + matrixWidth + "x" + matrixHeight + " tiles");
        }
    }

    /** The width of one tile in CRS units. */
    public double tileSpanX() {
        return cellSize * tileWidth;
    }

    /** The height of one tile in CRS units. */
    public double tileSpanY() {
        return cellSize * tileHeight;
    }

    /** The extent of the whole matrix in CRS units (easting, northing). */
    public Bounds bounds() {
        return new Bounds(left, top - matrixHeight * tileSpanY(), left + matrixWidth * tileSpanX(), top);
    }
}
