package io.tileseeder.worker.task;

import io.tileseeder.job.TileFormat;
import io.tileseeder.worker.encode.JpegEncoder;
import io.tileseeder.worker.encode.PngEncoder;
import io.tileseeder.worker.encode.TileEncoder;
import io.tileseeder.worker.layer.LayerCatalogConfig;
import io.tileseeder.worker.layer.LayerConfig;
import io.tileseeder.worker.render.VectorSource;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a worker needs per layer, made on first use and then shared by all its threads: the layer's features
 * and its encoders. A layer whose data cannot be read fails the tasks that need it (and is tried again by the
 * next task), rather than stopping the worker.
 */
public final class LayerResources {

    private final LayerCatalogConfig catalog;
    private final Map<String, VectorSource> sources = new ConcurrentHashMap<>();
    private final Map<String, TileEncoder> encoders = new ConcurrentHashMap<>();

    public LayerResources(LayerCatalogConfig catalog) {
        this.catalog = catalog;
    }

    public LayerConfig layer(String name) {
        return catalog.layer(name).orElseThrow(() -> new IllegalArgumentException("unknown layer '" + name + "'"));
    }

    public VectorSource source(LayerConfig layer) throws IOException {
        VectorSource source = sources.get(layer.name());
        if (source == null) {
            synchronized (this) {
                source = sources.get(layer.name());
                if (source == null) {
                    source = VectorSource.load(layer.data());
                    sources.put(layer.name(), source);
                }
            }
        }
        return source;
    }

    public TileEncoder encoder(LayerConfig layer, TileFormat format) {
        return encoders.computeIfAbsent(layer.name() + "/" + format.id(), key -> switch (format) {
            case PNG -> PngEncoder.rgba(layer.pngLevel());
            case JPEG -> new JpegEncoder(layer.jpegQuality(), layer.background().getRGB());
        });
    }
}
