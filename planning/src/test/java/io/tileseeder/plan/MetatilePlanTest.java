package io.tileseeder.plan;

import static io.tileseeder.grid.TileMatrixSet.WEB_MERCATOR_QUAD;
import static io.tileseeder.grid.TileMatrixSet.WORLD_CRS84_QUAD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileRange;
import io.tileseeder.job.Fixtures;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class MetatilePlanTest {

    private static final MetatileSize FOUR = new MetatileSize(4, 4);

    @Test
    void webMercatorZoom1WithFourByFourMetatilesIsOneClippedTask() {
        MetatilePlan plan = MetatilePlan.of(Fixtures.spec(WEB_MERCATOR_QUAD, Bounds.WORLD_CRS84, 1, 1, FOUR));

        List<PlannedMetatile> tasks = list(plan.iterator());

        assertThat(plan.taskCount()).isEqualTo(1);
        assertThat(tasks).containsExactly(new PlannedMetatile(0, new Metatile(WEB_MERCATOR_QUAD, 1, 0, 0, FOUR),
                new TileRange(1, 0, 0, 1, 1)));
        assertThat(tasks.get(0).metatile().tiles().count()).isEqualTo(4);
    }

    @Test
    void theWorldAtZoom0To3IsNumberedZoomByZoomRowByRow() {
        MetatilePlan plan = MetatilePlan.of(Fixtures.spec(WORLD_CRS84_QUAD, Bounds.WORLD_CRS84, 0, 3, FOUR));

        List<PlannedMetatile> tasks = list(plan.iterator());

        // z0 2x1 and z1 4x2 tiles: one metatile each; z2 8x4 tiles: 2x1 metatiles; z3 16x8 tiles: 4x2.
        assertThat(plan.taskCount()).isEqualTo(12);
        assertThat(tasks).extracting(PlannedMetatile::seq).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L);
        assertThat(tasks).extracting(t -> t.metatile().toString()).containsExactly(
                "WorldCRS84Quad/0/0/0@4x4", "WorldCRS84Quad/1/0/0@4x4", "WorldCRS84Quad/2/0/0@4x4",
                "WorldCRS84Quad/2/1/0@4x4", "WorldCRS84Quad/3/0/0@4x4", "WorldCRS84Quad/3/1/0@4x4", "WorldCRS84Quad/3/2/0@4x4",
                "WorldCRS84Quad/3/3/0@4x4", "WorldCRS84Quad/3/0/1@4x4", "WorldCRS84Quad/3/1/1@4x4",
                "WorldCRS84Quad/3/2/1@4x4", "WorldCRS84Quad/3/3/1@4x4");
        assertThat(tasks.get(0).tiles()).isEqualTo(new TileRange(0, 0, 0, 1, 0));
        assertThat(tasks.get(0).metatile().tiles()).isEqualTo(new TileRange(0, 0, 0, 1, 0));
        assertThat(tasks.get(3).tiles()).isEqualTo(new TileRange(2, 4, 0, 7, 3));
    }

    @Test
    void aTaskStoresOnlyTheJobsTilesOfItsMetatile() {
        // z2 WorldCRS84Quad: [0,0,45,45] is exactly tile 4/1, inside metatile 1,0 (tiles 4..7 x 0..3).
        MetatilePlan plan = MetatilePlan.of(Fixtures.spec(WORLD_CRS84_QUAD, new Bounds(0, 0, 45, 45), 2, 2, FOUR));

        assertThat(list(plan.iterator())).containsExactly(new PlannedMetatile(0,
                new Metatile(WORLD_CRS84_QUAD, 2, 1, 0, FOUR), new TileRange(2, 4, 1, 4, 1)));
    }

    @Test
    void aBboxAcrossMetatileBordersSplitsIntoOneTaskPerMetatile() {
        // z3 WorldCRS84Quad, 22.5 degree tiles: [-30,-30,30,30] covers tiles x 6..9, y 2..5; 4x4 metatiles
        // split that at x=8 and y=4.
        MetatilePlan plan = MetatilePlan.of(Fixtures.spec(WORLD_CRS84_QUAD, new Bounds(-30, -30, 30, 30), 3, 3, FOUR));

        assertThat(list(plan.iterator())).extracting(PlannedMetatile::tiles).containsExactly(
                new TileRange(3, 6, 2, 7, 3), new TileRange(3, 8, 2, 9, 3),
                new TileRange(3, 6, 4, 7, 5), new TileRange(3, 8, 4, 9, 5));
    }

    @Test
    void resumingPastTheEndYieldsNothingAndNegativeIsRefused() {
        MetatilePlan plan = MetatilePlan.of(Fixtures.spec(WORLD_CRS84_QUAD, Bounds.WORLD_CRS84, 0, 3, FOUR));

        assertThat(plan.from(12).hasNext()).isFalse();
        assertThat(plan.from(1_000_000).hasNext()).isFalse();
        assertThat(list(plan.from(11))).extracting(PlannedMetatile::seq).containsExactly(11L);
        assertThat(list(plan.from(3))).extracting(PlannedMetatile::seq).startsWith(3L).hasSize(9);
        assertThat(list(plan.from(3)).get(0).metatile().toString()).isEqualTo("WorldCRS84Quad/2/1/0@4x4");
        assertThatThrownBy(() -> plan.from(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void nextAfterTheLastTaskThrows() {
        Iterator<PlannedMetatile> tasks = MetatilePlan.of(
                Fixtures.spec(WEB_MERCATOR_QUAD, Bounds.WORLD_CRS84, 0, 0, FOUR)).iterator();
        tasks.next();

        assertThat(tasks.hasNext()).isFalse();
        assertThatThrownBy(tasks::next).isInstanceOf(NoSuchElementException.class);
    }

    private static List<PlannedMetatile> list(Iterator<PlannedMetatile> tasks) {
        List<PlannedMetatile> list = new ArrayList<>();
        tasks.forEachRemaining(list::add);
        return list;
    }
}
