package io.tileseeder.message;

/**
 * What happened to tiles: written to the store; empty (fully transparent, not stored by the layer's policy);
 * skipped because they were already there (seed) or fresh enough (reseed); deleted (truncate); failed; and
 * the bytes written.
 */
public record TileCounts(long written, long empty, long skipped, long deleted, long failed, long bytes) {

    public static final TileCounts ZERO = new TileCounts(0, 0, 0, 0, 0, 0);

    public TileCounts plus(TileCounts other) {
        return new TileCounts(written + other.written, empty + other.empty, skipped + other.skipped,
                deleted + other.deleted, failed + other.failed, bytes + other.bytes);
    }

    /** Tiles accounted for, whatever their outcome. */
    public long tiles() {
        return written + empty + skipped + deleted + failed;
    }
}
