package io.tileseeder.message;

import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.grid.TileRange;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import java.time.Instant;

/**
 * Message to workers: render one metatile of a job and store the given tiles of it.
 *
 * @param v             message schema version, {@link #VERSION}
 * @param seq           the task's number within its job, from 0; results are recorded once per number
 * @param refreshBefore with {@link Mode#RESEED}: rewrite only tiles older than this; null rewrites all
 */
public record MetatileTask(int v, String jobId, long seq, String layer, TileMatrixSet tileMatrixSet,
                           TileFormat format, Mode mode, int z, int metatileX, int metatileY,
                           int metatileWidth, int metatileHeight, int minX, int minY, int maxX, int maxY,
                           Instant refreshBefore) {

    public static final int VERSION = 1;

    public static MetatileTask of(String jobId, long seq, String layer, TileFormat format, Mode mode,
                                  Metatile metatile, TileRange tiles, Instant refreshBefore) {
        return new MetatileTask(VERSION, jobId, seq, layer, metatile.tileMatrixSet(), format, mode, metatile.z(),
                metatile.x(), metatile.y(), metatile.size().width(), metatile.size().height(),
                tiles.minX(), tiles.minY(), tiles.maxX(), tiles.maxY(), refreshBefore);
    }

    public Metatile metatile() {
        return new Metatile(tileMatrixSet, z, metatileX, metatileY, new MetatileSize(metatileWidth, metatileHeight));
    }

    /** The tiles of the metatile to store. */
    public TileRange tiles() {
        return new TileRange(z, minX, minY, maxX, maxY);
    }

    /** Identifies the metatile across jobs: the key of its lock and of its queue record. */
    public String metatileKey() {
        return layer + "/" + tileMatrixSet.id() + "/" + format.id() + "/" + z + "/" + metatileX + "/" + metatileY
                + "@" + metatileWidth + "x" + metatileHeight;
    }
}
