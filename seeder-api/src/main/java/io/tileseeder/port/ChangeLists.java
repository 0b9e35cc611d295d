package io.tileseeder.port;

import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.DimensionValues;

/**
 * Where the lists of the tiles a reseed changed go: files beside the layer's tiles, in the folder of the layer's set
 * ({@code {layer}/{tileMatrixSet}} in the xyz layout: {@link Layout#folder}) under {@code changes/{job}/}, one per task
 * that changed a tile, each a {@code z/x/y} per line (the tiles' coordinates, row 0 at the top, in any layout). On a
 * layer with dimensions, each cache's lists are in the folders of its values below the job's
 * ({@code changes/{job}/2026-11-26T12:05:00Z/}), so a list's path names the tiles' folder as the cache's does.
 */
public final class ChangeLists {

    private ChangeLists() {
    }

    /** The name of one task's list beside the caches of its layer's set, for {@link TileStore#writeMetadata}. */
    public static String fileName(String jobId, DimensionValues dimensions, long task, String nonce) {
        String folder = dimensions.isEmpty() ? "" : dimensions.path() + "/";
        return "changes/" + jobId + "/" + folder + task + "-" + nonce + ".txt";
    }

    /** The folder of a job's lists, relative to the root of a store in {@code layout}. */
    public static String folder(Layout layout, String layer, TileMatrixSet tileMatrixSet, String jobId) {
        return layout.folder(new TileCache(layer, tileMatrixSet)) + "/changes/" + jobId + "/";
    }
}
