package io.tileseeder.message;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What happened to tiles: written to the store; empty (fully transparent, not stored by the layer's policy);
 * skipped because they were already there (seed), fresh enough (reseed) or not there to delete (truncate); deleted
 * by a truncate, or by a reseed that found a stored tile has become empty (counted here, not as empty); failed; the
 * bytes written; and unchanged: re-encoded by a reseed to the very bytes the store held, so not written again. Each
 * tile of a task is counted once.
 *
 * <p>{@code unchanged} is left out of a message when 0, so that results of jobs without such tiles still read
 * in a coordinator of the version before it.
 */
public record TileCounts(long written, long empty, long skipped, long deleted, long failed, long bytes,
                         @JsonInclude(JsonInclude.Include.NON_DEFAULT) long unchanged) {

    public static final TileCounts ZERO = new TileCounts(0, 0, 0, 0, 0, 0, 0);

    /** {@code tiles} left as they were: already there, fresh enough, or not there to delete. */
    public static TileCounts skipped(long tiles) {
        return new TileCounts(0, 0, tiles, 0, 0, 0, 0);
    }

    /** The {@code tiles} of a task recorded FAILED. */
    public static TileCounts failed(long tiles) {
        return new TileCounts(0, 0, 0, 0, tiles, 0, 0);
    }

    /** A truncate's: {@code deleted} tiles, and {@code notThere} that had nothing to delete. */
    public static TileCounts truncated(long deleted, long notThere) {
        return new TileCounts(0, 0, notThere, deleted, 0, 0, 0);
    }

    /**
     * These counts once {@code gone} of the tiles counted deleted turned out not to be there any more: they count
     * as empty, as the other empty tiles that were not stored.
     */
    public TileCounts withGone(long gone) {
        return new TileCounts(written, empty + gone, skipped, deleted - gone, failed, bytes, unchanged);
    }

    public TileCounts plus(TileCounts other) {
        return new TileCounts(written + other.written, empty + other.empty, skipped + other.skipped,
                deleted + other.deleted, failed + other.failed, bytes + other.bytes, unchanged + other.unchanged);
    }

    /** Tiles accounted for, whatever their outcome. */
    public long tiles() {
        return written + empty + skipped + deleted + failed + unchanged;
    }
}
