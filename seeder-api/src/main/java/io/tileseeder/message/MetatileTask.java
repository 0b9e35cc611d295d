package io.tileseeder.message;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.grid.TileRange;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.TileCache;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HexFormat;
import java.util.List;

/**
 * Message to workers: render one metatile of a job and store the given tiles of it.
 *
 * @param v             message schema version, {@link #VERSION}
 * @param seq           the task's number within its job, from 0; results are recorded once per number
 * @param refreshBefore with {@link Mode#RESEED}: rewrite only tiles older than this; null rewrites all
 * @param mask          which tiles of {@code minX..maxX, minY..maxY} to store, as hex of the little-endian bytes of
 *                      a bit set, bit {@code i} for the tile {@code i % width} right and {@code i / width} down from
 *                      the top left (a job over an area); null for all of them
 * @param dimensions    the value of each of the layer's dimensions: which of its caches the tiles go to; absent (and
 *                      {@link DimensionValues#NONE}) for a layer without dimensions
 * @param archive       with {@link Mode#PACK}: the PMTiles archive to pack the cache into; absent otherwise. A pack
 *                      task's metatile is the top-left tile of the job's first zoom, one tile: the archive
 */
public record MetatileTask(int v, String jobId, long seq, String layer, TileMatrixSet tileMatrixSet,
                           TileFormat format, Mode mode, int z, int metatileX, int metatileY,
                           int metatileWidth, int metatileHeight, int minX, int minY, int maxX, int maxY,
                           Instant refreshBefore, String mask,
                           @JsonInclude(JsonInclude.Include.NON_EMPTY) DimensionValues dimensions,
                           @JsonInclude(JsonInclude.Include.NON_NULL) String archive) {

    public static final int VERSION = 1;

    public MetatileTask {
        dimensions = dimensions == null ? DimensionValues.NONE : dimensions;
    }

    /** A task of any mode but {@link Mode#PACK}. */
    public MetatileTask(int v, String jobId, long seq, String layer, TileMatrixSet tileMatrixSet, TileFormat format,
                        Mode mode, int z, int metatileX, int metatileY, int metatileWidth, int metatileHeight,
                        int minX, int minY, int maxX, int maxY, Instant refreshBefore, String mask,
                        DimensionValues dimensions) {
        this(v, jobId, seq, layer, tileMatrixSet, format, mode, z, metatileX, metatileY, metatileWidth,
                metatileHeight, minX, minY, maxX, maxY, refreshBefore, mask, dimensions, null);
    }

    public static MetatileTask of(String jobId, long seq, String layer, TileFormat format, Mode mode,
                                  Metatile metatile, TileRange tiles, Instant refreshBefore) {
        return of(jobId, seq, layer, format, mode, metatile, tiles, null, refreshBefore);
    }

    /** @param mask which tiles of {@code tiles} to store, bit {@code i} as in {@link #mask}; null for all */
    public static MetatileTask of(String jobId, long seq, String layer, TileFormat format, Mode mode,
                                  Metatile metatile, TileRange tiles, BitSet mask, Instant refreshBefore) {
        return of(jobId, seq, layer, DimensionValues.NONE, format, mode, metatile, tiles, mask, refreshBefore);
    }

    /** A task of one of the caches of a layer with dimensions. */
    public static MetatileTask of(String jobId, long seq, String layer, DimensionValues dimensions, TileFormat format,
                                  Mode mode, Metatile metatile, TileRange tiles, BitSet mask, Instant refreshBefore) {
        return of(jobId, seq, layer, dimensions, format, mode, metatile, tiles, mask, refreshBefore, null);
    }

    /** A task of a job's plan; {@code archive} is the job's, null unless it packs. */
    public static MetatileTask of(String jobId, long seq, String layer, DimensionValues dimensions, TileFormat format,
                                  Mode mode, Metatile metatile, TileRange tiles, BitSet mask, Instant refreshBefore,
                                  String archive) {
        return new MetatileTask(VERSION, jobId, seq, layer, metatile.tileMatrixSet(), format, mode, metatile.z(),
                metatile.x(), metatile.y(), metatile.size().width(), metatile.size().height(),
                tiles.minX(), tiles.minY(), tiles.maxX(), tiles.maxY(), refreshBefore,
                mask == null ? null : HexFormat.of().formatHex(mask.toByteArray()), dimensions, archive);
    }

    /** The cache the task's tiles go to. */
    public TileCache cache() {
        return new TileCache(layer, tileMatrixSet, dimensions);
    }

    public Metatile metatile() {
        return new Metatile(tileMatrixSet, z, metatileX, metatileY, new MetatileSize(metatileWidth, metatileHeight));
    }

    /** The range of the tiles of the metatile to store; with a {@link #mask}, only some of them. */
    public TileRange tiles() {
        return new TileRange(z, minX, minY, maxX, maxY);
    }

    /** The tiles of the metatile to store, row by row. */
    public List<TileCoord> tilesToStore() {
        TileRange range = tiles();
        List<TileCoord> tiles = new ArrayList<>((int) range.count());
        BitSet bits = mask == null ? null : BitSet.valueOf(HexFormat.of().parseHex(mask));
        int i = 0;
        for (TileCoord tile : range) {
            if (bits == null || bits.get(i)) {
                tiles.add(tile);
            }
            i++;
        }
        return tiles;
    }

    /**
     * Identifies the metatile across jobs: the key of its lock and of its queue record. A pack's is its archive's, so
     * two packs into one archive take turns.
     */
    public String metatileKey() {
        if (archive != null) {
            return "pack/" + archive;
        }
        return cache().path() + "/" + format.id() + "/" + z + "/" + metatileX + "/" + metatileY
                + "@" + metatileWidth + "x" + metatileHeight;
    }
}
