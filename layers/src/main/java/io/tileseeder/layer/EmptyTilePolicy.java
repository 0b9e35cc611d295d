package io.tileseeder.layer;

/** What to do with a fully transparent tile. */
public enum EmptyTilePolicy {
    /** Store nothing: a client shows a missing tile as transparent anyway. On world maps most tiles are empty. */
    SKIP,
    /** Store one small canonical image, for clients that treat a missing tile as an error. */
    STORE
}
