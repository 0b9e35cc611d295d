package io.tileseeder.job;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** What a job does to the tiles of its area. */
public enum Mode {
    /** Write only the tiles that are missing. */
    SEED,
    /** Rewrite every tile, or only those older than the job's {@code refreshBefore}. */
    RESEED,
    /** Delete the tiles. */
    TRUNCATE,
    /**
     * Pack the finished cache (every zoom its TileJSON names) into one PMTiles archive, the job's {@code archive}: one
     * task, run by one worker.
     */
    PACK;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Mode> byId(String id) {
        return Arrays.stream(values()).filter(m -> m.id().equals(id)).findFirst();
    }
}
