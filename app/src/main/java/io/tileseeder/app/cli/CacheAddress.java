package io.tileseeder.app.cli;

import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.port.Layout;
import io.tileseeder.port.TileCache;
import io.tileseeder.runtime.wiring.Stores;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where one cache of Web Mercator tiles is, as a user names it: its folder {@code {store}/{layer}/WebMercatorQuad}
 * ({@code {store}/{layer}/default/WebMercatorQuad} in the wmts layout), then a folder per dimension value for a layer
 * with dimensions; the store a folder or a bucket ({@code s3://bucket/prefix}, {@code az://…}, {@code gs://…}).
 *
 * @param store the store's path, as {@code --store} takes it
 */
record CacheAddress(String store, TileCache cache) {

    private static final String SET = TileMatrixSet.WEB_MERCATOR_QUAD.id();

    /**
     * @param layout the store's layout, which says where a layer's folder is
     * @throws IllegalArgumentException naming what the text lacks
     */
    static CacheAddress parse(String text, Layout layout) {
        boolean bucket = Stores.isBucket(text);
        String scheme = bucket ? text.substring(0, text.indexOf("://") + 3) : "";
        String path = text.substring(scheme.length()).replace('\\', '/').replaceAll("/+$", "");
        List<String> folders = new ArrayList<>(Arrays.asList(path.split("/+")));
        int set = folders.lastIndexOf(SET);
        String style = layout == Layout.WMTS ? Layout.WMTS_STYLE + "/" : "";
        int layer = set - 1 - (style.isEmpty() ? 0 : 1);
        if (set < 0 || layer < (bucket ? 1 : 0) || folders.get(layer).isEmpty()
                || !style.isEmpty() && !folders.get(set - 1).equals(Layout.WMTS_STYLE)) {
            String cache = "{layer}/" + style + SET;
            throw new IllegalArgumentException("'" + text + "' is not the folder of a Web Mercator cache in the "
                    + layout.id() + " layout: PMTiles holds Web Mercator tiles, so CACHE is {store}/" + cache
                    + " (then a folder per dimension value), e.g. tiles/world/" + style + SET
                    + " or s3://bucket/prefix/world/" + style + SET + " (az:// and gs:// alike)");
        }
        String root = String.join("/", folders.subList(0, layer));
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = set + 1; i < folders.size(); i++) {
            values.put("dimension" + (i - set), DimensionValues.value(folders.get(i)));
        }
        String store = bucket ? scheme + root : root.isEmpty() ? (path.startsWith("/") ? "/" : ".") : root;
        return new CacheAddress(store, new TileCache(folders.get(layer), TileMatrixSet.WEB_MERCATOR_QUAD,
                new DimensionValues(values)));
    }
}
