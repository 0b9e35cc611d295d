package io.tileseeder.port;

import io.tileseeder.job.TileFormat;

/**
 * The names of the documents a finished job writes beside a cache's tiles, for whoever reads a cache without
 * writing it: the coordinator writes them, a packer looks for them.
 */
public final class CacheDocuments {

    private CacheDocuments() {
    }

    /** The manifest of the tiles of {@code format}: there once a job finished them. */
    public static String manifest(TileFormat format) {
        return "manifest-" + format.id() + ".json";
    }

    /** The TileJSON document of the tiles of {@code format}. */
    public static String tileJson(TileFormat format) {
        return "tilejson-" + format.id() + ".json";
    }
}
