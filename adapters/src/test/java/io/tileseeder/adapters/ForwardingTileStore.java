package io.tileseeder.adapters;

import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;

/** A store that passes every call on to another; subclasses change one call. */
public class ForwardingTileStore implements TileStore {
    private final TileStore delegate;

    public ForwardingTileStore(TileStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public void probe() throws IOException {
        delegate.probe();
    }

    @Override
    public Optional<Instant> lastModified(TileKey key) throws IOException {
        return delegate.lastModified(key);
    }

    @Override
    public boolean hasTiles(String layer, TileMatrixSet tileMatrixSet, int z) throws IOException {
        return delegate.hasTiles(layer, tileMatrixSet, z);
    }

    @Override
    public Optional<byte[]> read(TileKey key) throws IOException {
        return delegate.read(key);
    }

    @Override
    public void write(Collection<EncodedTile> tiles) throws IOException {
        delegate.write(tiles);
    }

    @Override
    public long delete(Collection<TileKey> keys) throws IOException {
        return delegate.delete(keys);
    }

    @Override
    public void writeMetadata(String layer, TileMatrixSet tileMatrixSet, String name, byte[] content,
                              String contentType) throws IOException {
        delegate.writeMetadata(layer, tileMatrixSet, name, content, contentType);
    }

    @Override
    public boolean hasMetadata(String layer, TileMatrixSet tileMatrixSet, String name) throws IOException {
        return delegate.hasMetadata(layer, tileMatrixSet, name);
    }

    @Override
    public void deleteMetadata(String layer, TileMatrixSet tileMatrixSet, Collection<String> names)
            throws IOException {
        delegate.deleteMetadata(layer, tileMatrixSet, names);
    }

    @Override
    public String publicUrl() {
        return delegate.publicUrl();
    }

    @Override
    public String describe() {
        return "forwarding to " + delegate.describe();
    }
}
