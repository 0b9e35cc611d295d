package io.tileseeder.render.encode;

import io.tileseeder.render.TileView;

/**
 * {@code jpeg-png}: JPEG where a tile is opaque, PNG where it is not, as GeoWebCache's {@code image/vnd.jpeg-png}
 * and MapProxy's {@code mixed} do it, for imagery with edges: the edge tiles keep their transparency, the rest get
 * JPEG's size. One more rule: a tile of at most 256 colours is written as an indexed PNG even where it is opaque
 * (a flat sea or a one-colour fill), as that is lossless and smaller than any JPEG of it.
 *
 * <p>Each tile's Content-Type is that of the image it holds ({@link io.tileseeder.job.TileFormat#contentTypeOf}).
 */
public final class JpegPngEncoder implements TileEncoder {

    private final JpegEncoder jpeg;
    private final PngEncoder png;

    public JpegPngEncoder(JpegEncoder jpeg, int pngLevel) {
        this.jpeg = jpeg;
        this.png = PngEncoder.rgba(pngLevel);
    }

    @Override
    public byte[] encode(TileView tile) {
        byte[] indexed = png.encodeIndexed(tile);
        if (indexed != null) {
            return indexed;
        }
        return opaque(tile) ? jpeg.encode(tile) : png.encodeTruecolour(tile);
    }

    private static boolean opaque(TileView tile) {
        int[] pixels = tile.pixels();
        for (int y = 0, row = tile.offset(); y < tile.height(); y++, row += tile.scanlineStride()) {
            for (int i = row, end = row + tile.width(); i < end; i++) {
                if (pixels[i] >>> 24 != 0xFF) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The format's own type; each tile's is image/jpeg or image/png. */
    @Override
    public String contentType() {
        return "image/vnd.jpeg-png";
    }

    @Override
    public String extension() {
        return "jpeg-png";
    }
}
