package io.tileseeder.job;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The layers a deployment can seed. */
public interface LayerCatalog {

    Optional<LayerInfo> find(String name);

    Collection<LayerInfo> all();

    /** A fixed catalog of the given layers (names must differ). */
    static LayerCatalog of(LayerInfo... layers) {
        Map<String, LayerInfo> byName = Stream.of(layers)
                .collect(Collectors.toUnmodifiableMap(LayerInfo::name, Function.identity()));
        return new LayerCatalog() {
            @Override
            public Optional<LayerInfo> find(String name) {
                return Optional.ofNullable(byName.get(name));
            }

            @Override
            public Collection<LayerInfo> all() {
                return byName.values();
            }
        };
    }
}
