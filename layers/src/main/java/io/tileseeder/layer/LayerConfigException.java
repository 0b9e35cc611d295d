package io.tileseeder.layer;

/** The layer configuration is wrong; the message says where and how. */
public class LayerConfigException extends RuntimeException {

    public LayerConfigException(String message) {
        super(message);
    }
}
