package io.tileseeder.port;

import io.tileseeder.grid.TileMatrixSet;

/**
 * Where the lists of the tiles a reseed changed go: files beside the layer's tiles, under
 * {@code {layer}/{tileMatrixSet}/changes/{job}/}, one per task that changed a tile, each a {@code z/x/y} per line.
 */
public final class ChangeLists {

    private ChangeLists() {
    }

    /** The name of one task's list, for {@link TileStore#writeMetadata}. */
    public static String fileName(String jobId, long task, String nonce) {
        return "changes/" + jobId + "/" + task + "-" + nonce + ".txt";
    }

    /** The folder of a job's lists, relative to the store. */
    public static String folder(String layer, TileMatrixSet tileMatrixSet, String jobId) {
        return layer + "/" + tileMatrixSet.id() + "/changes/" + jobId + "/";
    }
}
