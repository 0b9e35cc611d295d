package io.tileseeder.app.cli;

import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.port.TileCache;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where one cache of Web Mercator tiles is, as a user names it: its folder {@code {store}/{layer}/WebMercatorQuad},
 * then a folder per dimension value for a layer with dimensions; the store a folder or {@code s3://bucket/prefix}.
 *
 * @param store the store's path, as {@code --store} takes it
 */
record CacheAddress(String store, TileCache cache) {

    private static final String S3 = "s3://";
    private static final String SET = TileMatrixSet.WEB_MERCATOR_QUAD.id();

    /** @throws IllegalArgumentException naming what the text lacks */
    static CacheAddress parse(String text) {
        boolean s3 = text.startsWith(S3);
        String path = (s3 ? text.substring(S3.length()) : text).replace('\\', '/').replaceAll("/+$", "");
        List<String> folders = new ArrayList<>(Arrays.asList(path.split("/+")));
        int set = folders.lastIndexOf(SET);
        int layer = set - 1;
        if (set < 0 || layer < (s3 ? 1 : 0) || folders.get(layer).isEmpty()) {
            throw new IllegalArgumentException("'" + text + "' is not the folder of a Web Mercator cache: PMTiles holds "
                    + "Web Mercator tiles, so CACHE is {store}/{layer}/" + SET + " (then a folder per dimension value), "
                    + "e.g. tiles/world/" + SET + " or s3://bucket/prefix/world/" + SET);
        }
        String root = String.join("/", folders.subList(0, layer));
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = set + 1; i < folders.size(); i++) {
            values.put("dimension" + (i - set), DimensionValues.value(folders.get(i)));
        }
        String store = s3 ? S3 + root : root.isEmpty() ? (path.startsWith("/") ? "/" : ".") : root;
        return new CacheAddress(store, new TileCache(folders.get(layer), TileMatrixSet.WEB_MERCATOR_QUAD,
                new DimensionValues(values)));
    }
}
