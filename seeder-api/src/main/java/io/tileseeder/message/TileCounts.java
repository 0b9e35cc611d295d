package io.tileseeder.message;

/**
 * What happened to tiles: written to the store, empty (not stored, by the layer's policy), skipped because
 * they already existed (or, when truncating, deleted), failed; and the bytes written.
 */
public record TileCounts(long written, long empty, long skipped, long failed, long bytes) {

    public static final TileCounts ZERO = new TileCounts(0, 0, 0, 0, 0);

    public TileCounts plus(TileCounts other) {
        return new TileCounts(written + other.written, empty + other.empty, skipped + other.skipped,
                failed + other.failed, bytes + other.bytes);
    }

    /** Tiles accounted for, whatever their outcome. */
    public long tiles() {
        return written + empty + skipped + failed;
    }
}
