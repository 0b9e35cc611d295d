package io.tileseeder.adapters;

import io.tileseeder.grid.TileCoord;
import io.tileseeder.job.FieldError;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

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
    public boolean hasTiles(TileCache cache, int z) throws IOException {
        return delegate.hasTiles(cache, z);
    }

    @Override
    public List<String> cachesWith(TileCache cache, int depth, String document) throws IOException {
        return delegate.cachesWith(cache, depth, document);
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
    public long deleteCache(TileCache cache) throws IOException {
        return delegate.deleteCache(cache);
    }

    @Override
    public void writeMetadata(TileCache cache, String name, byte[] content, String contentType) throws IOException {
        delegate.writeMetadata(cache, name, content, contentType);
    }

    @Override
    public Optional<FieldError> refuses(JobSpec job) {
        return delegate.refuses(job);
    }

    @Override
    public void list(TileCache cache, int z, TileFormat format, Consumer<TileCoord> each) throws IOException {
        delegate.list(cache, z, format, each);
    }

    @Override
    public Optional<byte[]> readMetadata(TileCache cache, String name) throws IOException {
        return delegate.readMetadata(cache, name);
    }

    @Override
    public boolean hasMetadata(TileCache cache, String name) throws IOException {
        return delegate.hasMetadata(cache, name);
    }

    @Override
    public void deleteMetadata(TileCache cache, Collection<String> names) throws IOException {
        delegate.deleteMetadata(cache, names);
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
