package io.tileseeder.port;

import io.tileseeder.job.TileFormat;
import java.io.IOException;

/**
 * Packs a finished cache of the tile store into one archive (PMTiles): what a worker does with a task of a
 * {@link io.tileseeder.job.Mode#PACK} job. The archive is under its final name only once it is whole and durable.
 */
public interface ArchivePacker {

    /** What was packed: the tiles, their bytes in the cache, and the archive's bytes. */
    record Packed(long tiles, long tileBytes, long archiveBytes) {
    }

    /**
     * Packs every zoom the cache's TileJSON names into {@code archive}, replacing what is there once the archive is
     * durable.
     *
     * @param archive a path or a store URL ending in {@code .pmtiles}
     * @param alive   called at least every few seconds while the pack goes on, from the calling thread, so the
     *                caller can keep its task
     * @throws IllegalArgumentException if the cache cannot be packed as it is (no finished cache of that format, a
     *                                  format PMTiles cannot hold, an archive name that is not one): trying again
     *                                  will not help
     * @throws IOException              if the store or the disk fails, or the cache changes while it is packed
     */
    Packed pack(TileCache cache, TileFormat format, String archive, Runnable alive)
            throws IOException, InterruptedException;
}
