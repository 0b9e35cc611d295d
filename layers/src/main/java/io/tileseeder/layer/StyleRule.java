package io.tileseeder.layer;

import java.awt.Color;

/**
 * How features are drawn at zoom levels {@code minZoom..maxZoom}: filled, then outlined.
 *
 * @param fill        fill colour, or null for no fill
 * @param stroke      outline colour, or null for no outline
 * @param strokeWidth outline width in pixels
 * @param opacity     multiplies the alpha of both colours, 0..1
 */
public record StyleRule(int minZoom, int maxZoom, Color fill, Color stroke, float strokeWidth, float opacity) {

    public boolean appliesTo(int z) {
        return z >= minZoom && z <= maxZoom;
    }
}
