package io.tileseeder.message;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What happened to tiles: written to the store; empty (fully transparent, not stored by the layer's policy; a
 * reseed deletes such a tile if the store held it, and counts it here only); skipped because they were already there
 * (seed) or fresh enough (reseed); deleted (truncate); failed; the bytes written; and unchanged: re-encoded by a
 * reseed to the very bytes the store held, so not written again. Each tile of a task is counted once.
 *
 * <p>{@code unchanged} is left out of a message when 0, so that results of jobs without such tiles still read
 * in a coordinator of the version before it.
 */
public record TileCounts(long written, long empty, long skipped, long deleted, long failed, long bytes,
                         @JsonInclude(JsonInclude.Include.NON_DEFAULT) long unchanged) {

    public static final TileCounts ZERO = new TileCounts(0, 0, 0, 0, 0, 0, 0);

    public TileCounts plus(TileCounts other) {
        return new TileCounts(written + other.written, empty + other.empty, skipped + other.skipped,
                deleted + other.deleted, failed + other.failed, bytes + other.bytes, unchanged + other.unchanged);
    }

    /** Tiles accounted for, whatever their outcome. */
    public long tiles() {
        return written + empty + skipped + deleted + failed + unchanged;
    }
}
