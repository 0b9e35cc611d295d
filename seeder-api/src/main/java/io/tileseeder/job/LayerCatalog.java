package io.tileseeder.job;

import java.util.Collection;
import java.util.Optional;

/** The layers a deployment can seed. */
public interface LayerCatalog {

    Optional<LayerInfo> find(String name);

    Collection<LayerInfo> all();
}
