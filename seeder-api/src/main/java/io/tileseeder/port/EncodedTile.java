package io.tileseeder.port;

/** A tile ready to store. */
public record EncodedTile(TileKey key, byte[] data) {
}
