package io.tileseeder.port;

import io.tileseeder.job.TileFormat;
import java.io.IOException;

/**
 * Packs a finished cache of the tile store into one archive (PMTiles): what a worker does with a task of a
 * {@link io.tileseeder.job.Mode#PACK} job. The archive is under its final name only once it is whole and durable.
 */
public interface ArchivePacker {

    /** What a pack tells whoever runs it, and asks them. */
    interface Watch {

        /** A watch that lets a pack run to its end. */
        Watch NONE = new Watch() {
            @Override
            public void alive() {
            }

            @Override
            public boolean stopped() {
                return false;
            }
        };

        /** Called every few seconds while the pack goes on, from a thread of the packer's own. */
        void alive();

        /** Whether the pack is to stop (its job ended, the worker closes): asked now and then as it goes. */
        boolean stopped();
    }

    /** A pack that stopped because its {@link Watch} said so: nothing is under the archive's name. */
    final class Stopped extends RuntimeException {
        public Stopped() {
            super("the pack stopped: its job ended or the worker is closing");
        }
    }

    /** What was packed: the tiles, their bytes in the cache, and the archive's bytes. */
    record Packed(long tiles, long tileBytes, long archiveBytes) {
    }

    /**
     * Packs every zoom the cache's TileJSON names into {@code archive}, replacing what is there once the archive is
     * durable.
     *
     * @param archive a path or a store URL ending in {@code .pmtiles}
     * @param watch   told that the pack is alive every few seconds, so the caller can keep its task; asked whether
     *                to stop
     * @throws IllegalArgumentException if the cache cannot be packed as it is (no finished cache of that format, a
     *                                  format PMTiles cannot hold, an archive name that is not one): trying again
     *                                  will not help
     * @throws IOException              if the store or the disk fails, or the cache changes while it is packed
     * @throws Stopped                  if the watch said to stop before the archive was under its name
     */
    Packed pack(TileCache cache, TileFormat format, String archive, Watch watch)
            throws IOException, InterruptedException;
}
